<?php

/*
 * What Symfony's store tests leave out and the adapter promises: any
 * resource maps to a valid lease name, a key (its handle) works from
 * another store or process, Symfony's Lock and LockFactory on top, and a
 * name of another kind (a semaphore) is refused without harm, and a writer
 * waiting in waitAndSave() keeps new readers out.
 */

namespace Leaseq\Symfony\Tests;

use Leaseq\Symfony\LeasectlStore;
use PHPUnit\Framework\TestCase;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

class LeasectlAdapterTest extends TestCase
{
    private function store(): LeasectlStore
    {
        return new LeasectlStore((string) getenv('LEASECTL'), (string) getenv('LEASEQ_DSN'));
    }

    public function testAnyResourceIsALeaseName()
    {
        $store = $this->store();
        $id = uniqid('', true);
        $resources = [
            '-'.$id,                         // not a flag to leasectl
            "bin\xff\x00".$id,               // not UTF-8, with a NUL
            str_repeat('long', 100).$id,     // over the 255-byte limit
            str_repeat('long', 100).$id.'x', // another long one: another name
        ];
        $names = [];
        foreach ($resources as $r) {
            $key = new Key($r);
            $names[] = LeasectlStore::leaseName($key);
            $store->save($key);
            $this->assertTrue($store->exists($key));
            $this->assertFalse($store->exists(new Key($r)));
            $store->delete($key);
            $this->assertFalse($store->exists($key));
        }
        $this->assertSame('sf:-'.$id, $names[0]);
        $this->assertStringStartsWith('sfh:', $names[1]);
        $this->assertCount(4, array_unique($names));
    }

    public function testKeyWorksFromAnotherStore()
    {
        $key = new Key(uniqid(__METHOD__, true));
        $this->store()->save($key);

        // As a key handed to another process: its state is the lease handle.
        $copy = unserialize(serialize($key));
        $other = $this->store();
        $this->assertTrue($other->exists($copy));
        $other->putOffExpiration($copy, 30);
        $other->delete($copy);
        $this->assertFalse($this->store()->exists($key));
    }

    public function testLockFactory()
    {
        $resource = uniqid(__METHOD__, true);
        $a = (new LockFactory($this->store()))->createLock($resource, 30);
        $b = (new LockFactory($this->store()))->createLock($resource, 30);

        $this->assertTrue($a->acquire());
        $this->assertFalse($b->acquire());
        $a->refresh(20);
        $this->assertTrue($a->isAcquired());
        $this->assertGreaterThan(0, $a->getRemainingLifetime());
        $this->assertLessThanOrEqual(20, $a->getRemainingLifetime());
        $a->release();
        $this->assertFalse($a->isAcquired());

        $this->assertTrue($b->acquireRead());
        $this->assertTrue($a->acquireRead());
        $this->assertFalse($b->acquire()); // promote: another reader
        $a->release();
        $this->assertTrue($b->acquire());  // promote: the only reader
        $this->assertFalse($a->acquireRead());
        $b->release();
        $this->assertTrue($a->acquire(true));
        $a->release();
    }

    public function testNameOfAnotherKindIsRefused()
    {
        $key = new Key(uniqid(__METHOD__, true));
        $cmd = [(string) getenv('LEASECTL'), 'lease', 'acquire', LeasectlStore::leaseName($key), '--ttl', '1m', '--slots', '2'];
        $env = getenv();
        $env['LEASEQ_DSN'] = (string) getenv('LEASEQ_DSN');
        $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, $env);
        $this->assertSame(0, proc_close($p));

        $store = $this->store();
        try {
            $store->save($key);
            $this->fail('a semaphore was saved as a Symfony lock');
        } catch (LockStorageException $e) {
            $this->assertStringContainsString('semaphore', $e->getMessage());
        }
        $this->assertFalse($store->exists($key));
        $this->expectException(LockStorageException::class);
        $store->saveRead($key);
    }

    /**
     * A writer waiting in waitAndSave() keeps new readers out, so a stream
     * of readers cannot starve it (leasectl's --wait leaves an intent).
     *
     * @requires extension pcntl
     */
    public function testWaitingWriterKeepsNewReadersOut()
    {
        $resource = uniqid(__METHOD__, true);
        $store = $this->store();
        $reader = new Key($resource);
        $store->saveRead($reader);

        if (0 === $pid = pcntl_fork()) {
            $code = 1;
            try {
                $w = new LeasectlStore((string) getenv('LEASECTL'), (string) getenv('LEASEQ_DSN'), 300.0, 30.0);
                $key = new Key($resource);
                $w->waitAndSave($key);
                $w->delete($key);
                $code = 0;
            } finally {
                exit($code);
            }
        }
        // Until the writer waits, new readers get in; then they are refused.
        $refused = false;
        for ($deadline = microtime(true) + 20; !$refused && microtime(true) < $deadline;) {
            $late = new Key($resource);
            try {
                $store->saveRead($late);
                $store->delete($late);
                usleep(20000);
            } catch (LockConflictedException $e) {
                $refused = true;
            }
        }
        $store->delete($reader);
        pcntl_waitpid($pid, $status);
        $this->assertTrue($refused, 'new readers still got in beside a waiting writer');
        $this->assertSame(0, pcntl_wexitstatus($status), 'the waiting writer did not get the lock');
    }

    public function testWaitAndSaveReadJoinsReaders()
    {
        $store = $this->store();
        $resource = uniqid(__METHOD__, true);
        $key1 = new Key($resource);
        $key2 = new Key($resource);

        $store->saveRead($key1);
        $store->waitAndSaveRead($key2);
        $this->assertTrue($store->exists($key1));
        $this->assertTrue($store->exists($key2));
        try {
            $store->save(new Key($resource));
            $this->fail('a writer got in beside two readers');
        } catch (LockConflictedException $e) {
        }
        $store->delete($key1);
        $store->delete($key2);
    }
}
