<?php

namespace Leaseq\Symfony\Messenger;

use Symfony\Component\Messenger\Transport\Serialization\SerializerInterface;
use Symfony\Component\Messenger\Transport\TransportFactoryInterface;
use Symfony\Component\Messenger\Transport\TransportInterface;

/**
 * Makes a LeaseqTransport from a DSN "leaseq:..." or "leaseq+BACKEND:..."
 * (LeaseqTransport::parseDsn() says which).
 */
final class LeaseqTransportFactory implements TransportFactoryInterface
{
    public function createTransport(string $dsn, array $options, SerializerInterface $serializer): TransportInterface
    {
        [$leaseqDsn, $parsed] = LeaseqTransport::parseDsn($dsn);
        unset($options['transport_name']); // what the framework adds

        // As Symfony's transports do: the DSN's query wins over the options.
        return new LeaseqTransport($leaseqDsn, $parsed + $options, $serializer);
    }

    public function supports(string $dsn, array $options): bool
    {
        return 0 === strncmp($dsn, 'leaseq:', 7) || 0 === strncmp($dsn, 'leaseq+', 7);
    }
}
