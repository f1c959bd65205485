<?php

/*
 * Symfony Lock's own store tests (AbstractStoreTestCase and the traits of
 * what a store can do), unmodified, against leaseq through LeasectlStore.
 * tests/symfony/run sets LEASECTL, LEASEQ_DSN and LEASEQ_SYMFONY_TESTS.
 */

namespace Leaseq\Symfony\Tests;

use Leaseq\Symfony\LeasectlStore;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase;
use Symfony\Component\Lock\Tests\Store\BlockingStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\ExpiringStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\SharedLockStoreTestTrait;

class LeasectlStoreTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;
    use SharedLockStoreTestTrait;

    /* Microseconds: well above a leasectl run (process start, connect, one statement). */
    protected function getClockDelay()
    {
        return 1000000;
    }

    public function getStore(): PersistingStoreInterface
    {
        return new LeasectlStore((string) getenv('LEASECTL'), (string) getenv('LEASEQ_DSN'));
    }
}
