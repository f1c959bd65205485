<?php

/*
 * StoreAdapterTestCase through LeasectlStore (leasectl in a process per call).
 */

namespace Leaseq\Symfony\Tests;

use Leaseq\Symfony\LeasectlStore;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;

class LeasectlAdapterTest extends StoreAdapterTestCase
{
    protected function store(): BlockingSharedLockStoreInterface
    {
        return new LeasectlStore((string) getenv('LEASECTL'), (string) getenv('LEASEQ_DSN'));
    }

    protected function storeInAnotherProcess(): array
    {
        return [[], 'require '.var_export(__DIR__.'/LeasectlStore.php', true).';'
            .'$store = new Leaseq\Symfony\LeasectlStore(getenv("LEASECTL"), getenv("LEASEQ_DSN"), 300.0, 30.0);'];
    }

    protected function takeSemaphore(string $name)
    {
        $cmd = [(string) getenv('LEASECTL'), 'lease', 'acquire', $name, '--ttl', '1m', '--slots', '2'];
        $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $this->assertSame(0, proc_close($p));

        return null;
    }
}
