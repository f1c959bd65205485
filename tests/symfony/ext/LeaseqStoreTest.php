<?php

/*
 * Symfony Lock's own store tests (AbstractStoreTestCase and the traits of
 * what a store can do), unmodified, against leaseq through LeaseqStore on
 * ext-leaseq.  tests/symfony/run --suite ext sets LEASEQ_DSN and
 * LEASEQ_SYMFONY_TESTS and loads the extension.
 */

namespace Leaseq\Symfony\Tests;

use Leaseq\Symfony\LeaseqStore;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase;
use Symfony\Component\Lock\Tests\Store\BlockingStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\ExpiringStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\SharedLockStoreTestTrait;

/**
 * @requires extension leaseq
 */
class LeaseqStoreTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;
    use SharedLockStoreTestTrait;

    /* Microseconds: well above one library call (one statement), with the
     * leasectl store's margin for a loaded CI box. */
    protected function getClockDelay()
    {
        return 1000000;
    }

    public function getStore(): PersistingStoreInterface
    {
        return new LeaseqStore((string) getenv('LEASEQ_DSN'));
    }
}
