<?php

/*
 * StoreAdapterTestCase through LeaseqStore on ext-leaseq, and what only
 * it has to show: the two stores see the same locks, and a Lock without
 * autoRelease outlives the process that took it.
 */

namespace Leaseq\Symfony\Tests;

use Leaseq\Db;
use Leaseq\Symfony\LeasectlStore;
use Leaseq\Symfony\LeaseqStore;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

/**
 * @requires extension leaseq
 */
class LeaseqAdapterTest extends StoreAdapterTestCase
{
    protected function store(): BlockingSharedLockStoreInterface
    {
        return new LeaseqStore(new Db((string) getenv('LEASEQ_DSN')));
    }

    protected function storeInAnotherProcess(): array
    {
        return [['-d', 'extension='.getenv('LEASEQ_PHP_EXT')],
            '$store = new Leaseq\Symfony\LeaseqStore(getenv("LEASEQ_DSN"), 300.0, 30.0);'];
    }

    protected function takeSemaphore(string $name)
    {
        return (new Db((string) getenv('LEASEQ_DSN')))->acquire($name, 60, 0, ['slots' => 2]);
    }

    public function testTheTwoStoresSeeTheSameLocks()
    {
        $leasectl = new LeasectlStore((string) getenv('LEASECTL'), (string) getenv('LEASEQ_DSN'));
        $resource = uniqid(__METHOD__, true);
        $a = new Key($resource);
        $this->store()->save($a);
        try {
            $leasectl->save(new Key($resource));
            $this->fail('leasectl took a lock the extension holds');
        } catch (LockConflictedException $e) {
        }
        $this->store()->delete($a);
        $b = new Key($resource);
        $leasectl->saveRead($b);
        $c = new Key($resource);
        $this->store()->saveRead($c);
        $this->assertTrue($leasectl->exists($c), 'a key of one store, checked by the other');
        $this->assertTrue($this->store()->exists($b));
        $leasectl->delete($c);
        $this->store()->delete($b);
        $this->assertFalse($leasectl->exists($b));
    }

    /**
     * A Lock with autoRelease false outlives its object and its process,
     * as Symfony documents it: the lease stays held (until its TTL) and
     * another process releases it with the serialized key.  With
     * autoRelease true, Symfony's Lock releases it when it dies.
     */
    public function testALockWithoutAutoReleaseOutlivesItsProcess()
    {
        $resource = uniqid(__METHOD__, true);
        $factory = new LockFactory($this->store());
        $code = '$lock = (new Symfony\Component\Lock\LockFactory($store))->createLockFromKey($key, 30, false);'
            .'echo $lock->acquire() ? base64_encode(serialize($key)) : "busy";';
        [$rc, $out] = $this->inAnotherProcess($code, new Key($resource));
        $this->assertSame(0, $rc, $out);
        $key = unserialize(base64_decode($out));
        $this->assertInstanceOf(Key::class, $key, $out);
        $this->assertFalse($factory->createLock($resource, 30)->acquire(), 'held after its process ended');
        $this->assertTrue($this->store()->exists($key));

        $code = '$store->delete($key); echo $store->exists($key) ? "held" : "free";';
        $this->assertSame([0, 'free'], $this->inAnotherProcess($code, $key));
        $lock = $factory->createLock($resource, 30);
        $this->assertTrue($lock->acquire());
        unset($lock);
        $this->assertTrue($factory->createLock($resource, 30)->acquire(), 'autoRelease: released with its Lock');
    }
}
