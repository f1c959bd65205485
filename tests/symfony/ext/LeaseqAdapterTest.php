<?php

/*
 * What Symfony's store tests leave out and LeaseqStore promises (the same
 * as the leasectl-based store's tests, on ext-leaseq): any resource maps to
 * a valid lease name, a key works from another store and another process,
 * Symfony's Lock and LockFactory on top, a name of another kind (a
 * semaphore) is refused without harm, a writer waiting in waitAndSave()
 * keeps new readers out; and the two stores see the same locks.
 */

namespace Leaseq\Symfony\Tests;

use Leaseq\Db;
use Leaseq\Symfony\LeasectlStore;
use Leaseq\Symfony\LeaseqStore;
use PHPUnit\Framework\TestCase;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

/**
 * @requires extension leaseq
 */
class LeaseqAdapterTest extends TestCase
{
    private function store(float $maxWait = 86400.0): LeaseqStore
    {
        return new LeaseqStore(new Db((string) getenv('LEASEQ_DSN')), 300.0, $maxWait);
    }

    /**
     * Starts PHP $code in another process with the extension and the
     * package loaded, $key (serialized here) as $key and a LeaseqStore
     * (waiting 30 s at most) as $store there.  Its output goes to a pipe.
     *
     * @return array{0: resource, 1: resource} the process and its output
     */
    private function spawn(string $code, Key $key): array
    {
        $prelude = 'require '.var_export(\dirname(__DIR__, 3).'/bindings/php/php/tests/autoload.php', true).';'
            .'require_once "Symfony/Component/Lock/autoload.php";'
            .'$key = unserialize(base64_decode(getenv("LEASEQ_TEST_KEY")));'
            .'$store = new Leaseq\Symfony\LeaseqStore(getenv("LEASEQ_DSN"), 300.0, 30.0);';
        $env = getenv();
        $env['LEASEQ_TEST_KEY'] = base64_encode(serialize($key));
        $p = proc_open([\PHP_BINARY, '-d', 'extension='.getenv('LEASEQ_PHP_EXT'), '-r', $prelude.$code],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, null, $env);

        return [$p, $pipes[1]];
    }

    /** spawn() and wait: [exit status, output]. */
    private function inAnotherProcess(string $code, Key $key): array
    {
        [$p, $out] = $this->spawn($code, $key);
        $text = stream_get_contents($out);
        fclose($out);

        return [proc_close($p), $text];
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
            $names[] = LeaseqStore::leaseName($key);
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

    public function testKeyWorksFromAnotherProcess()
    {
        $key = new Key(uniqid(__METHOD__, true));
        $store = $this->store();
        $store->save($key);

        // The other process refreshes it and ends: the lease stays (only
        // the process that took it hands it back when its Key dies).
        $code = 'echo $store->exists($key) ? "held" : "free"; $store->putOffExpiration($key, 60);';
        $this->assertSame([0, 'held'], $this->inAnotherProcess($code, $key));
        $this->assertTrue($store->exists($key));
        $this->assertFalse($this->store()->exists(new Key((string) $key)));
        $code = '$store->delete($key); echo $store->exists($key) ? "held" : "free";';
        $this->assertSame([0, 'free'], $this->inAnotherProcess($code, $key));
        $this->assertFalse($store->exists($key));
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

    /**
     * The lease taken for a Lock lives as long as the Lock (its Key) in the
     * process that took it: ext-leaseq hands a Lease back when it dies.
     */
    public function testALockWithoutAutoReleaseLivesAsLongAsItsKey()
    {
        $resource = uniqid(__METHOD__, true);
        $factory = new LockFactory($this->store());
        $lock = $factory->createLock($resource, 30, false);
        $this->assertTrue($lock->acquire());
        $this->assertFalse($factory->createLock($resource, 30)->acquire());
        unset($lock);
        $other = $factory->createLock($resource, 30);
        $this->assertTrue($other->acquire());
        $other->release();
    }

    public function testNameOfAnotherKindIsRefused()
    {
        $key = new Key(uniqid(__METHOD__, true));
        $db = new Db((string) getenv('LEASEQ_DSN'));
        $semaphore = $db->acquire(LeaseqStore::leaseName($key), 60, 0, ['slots' => 2]);

        $store = $this->store();
        try {
            $store->save($key);
            $this->fail('a semaphore was saved as a Symfony lock');
        } catch (LockStorageException $e) {
            $this->assertStringContainsString('semaphore', $e->getMessage());
        }
        $this->assertFalse($store->exists($key));
        try {
            $store->saveRead($key);
            $this->fail('a semaphore was saved as a Symfony read lock');
        } catch (LockStorageException $e) {
        }
        $this->assertTrue($semaphore->release());
    }

    /**
     * A writer waiting in waitAndSave() keeps new readers out, so a stream
     * of readers cannot starve it (the library's wait leaves an intent).
     */
    public function testWaitingWriterKeepsNewReadersOut()
    {
        $resource = uniqid(__METHOD__, true);
        $store = $this->store();
        $reader = new Key($resource);
        $store->saveRead($reader);

        [$writer, $out] = $this->spawn('$store->waitAndSave($key); $store->delete($key);', new Key($resource));

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
        $said = stream_get_contents($out);
        fclose($out);
        $status = proc_close($writer);
        $this->assertTrue($refused, 'new readers still got in beside a waiting writer');
        $this->assertSame(0, $status, 'the waiting writer did not get the lock: '.$said);
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
