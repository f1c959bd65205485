<?php

/*
 * What Symfony's store tests leave out and both leaseq stores promise
 * (LeasectlStoreTest's sibling tests run it through leasectl, the "ext"
 * suite through ext-leaseq): any resource maps to a valid lease name, a
 * key (its handle) works from another store or process, Symfony's Lock
 * and LockFactory on top, a name of another kind (a semaphore) is refused
 * without harm, and a writer waiting in waitAndSave() keeps new readers out.
 */

namespace Leaseq\Symfony\Tests;

use Leaseq\Symfony\LeaseqStore;
use PHPUnit\Framework\TestCase;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

abstract class StoreAdapterTestCase extends TestCase
{
    /** A store of the kind under test on LEASEQ_DSN. */
    abstract protected function store(): BlockingSharedLockStoreInterface;

    /** PHP's arguments and the code that make $store (waiting 30 s at most) in another process. */
    abstract protected function storeInAnotherProcess(): array;

    /** Takes NAME as a semaphore of 2 slots; what is returned keeps it until dropped. */
    abstract protected function takeSemaphore(string $name);

    /**
     * Starts PHP $code in another process with the package and the store
     * loaded: $key (serialized here) as $key, the store as $store.
     *
     * @return array{0: resource, 1: resource} the process and its output
     */
    protected function spawn(string $code, Key $key): array
    {
        [$args, $make] = $this->storeInAnotherProcess();
        $prelude = 'require_once "Symfony/Component/Lock/autoload.php";'
            .'require '.var_export(\dirname(__DIR__, 2).'/bindings/php/php/tests/autoload.php', true).';'
            .'$key = unserialize(base64_decode(getenv("LEASEQ_TEST_KEY")));'.$make;
        $env = getenv();
        $env['LEASEQ_TEST_KEY'] = base64_encode(serialize($key));
        $p = proc_open(array_merge([\PHP_BINARY], $args, ['-r', $prelude.$code]),
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, null, $env);

        return [$p, $pipes[1]];
    }

    /** spawn() and wait: [exit status, output]. */
    protected function inAnotherProcess(string $code, Key $key): array
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

        // The other process refreshes it and ends: the lease stays.
        $code = 'echo $store->exists($key) ? "held" : "free"; $store->putOffExpiration($key, 60);';
        $this->assertSame([0, 'held'], $this->inAnotherProcess($code, $key));
        $this->assertTrue($store->exists($key));
        $this->assertFalse($this->store()->exists(new Key((string) $key)));
        $code = '$store->delete($key); echo $store->exists($key) ? "held" : "free";';
        $this->assertSame([0, 'free'], $this->inAnotherProcess($code, $key));
        $this->assertFalse($store->exists($key));
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
        $semaphore = $this->takeSemaphore(LeaseqStore::leaseName($key));

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
        unset($semaphore);
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
