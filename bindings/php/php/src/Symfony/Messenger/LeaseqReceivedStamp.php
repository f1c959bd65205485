<?php

namespace Leaseq\Symfony\Messenger;

use Symfony\Component\Messenger\Stamp\NonSendableStampInterface;

/**
 * The leaseq task an envelope came from (its id); never sent on.
 */
final class LeaseqReceivedStamp implements NonSendableStampInterface
{
    private int $id;

    public function __construct(int $id)
    {
        $this->id = $id;
    }

    public function getId(): int
    {
        return $this->id;
    }
}
