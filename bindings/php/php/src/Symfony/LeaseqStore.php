<?php

/*
 * Leaseq\Symfony\LeaseqStore - a Symfony Lock store on ext-leaseq, in
 * process: each call is one library call on the store's Leaseq\Db.
 *
 * The same semantics as the leasectl-based store of tests/symfony: a
 * Symfony resource is a lease name (leaseName()); save() takes the write
 * (exclusive) lease, saveRead() a read lease, and a key that holds one kind
 * and asks for the other is promoted or demoted.  The key's state keeps the
 * lease's encoded handle and its owner, token and slot, so a serialized key
 * can be refreshed, checked and released from another process.
 *
 * A lock is held until Symfony releases it or its TTL ends: the store
 * detaches every Leaseq\Lease it takes (Lease::detach()), so the object's
 * death does not hand it back.  Symfony's Lock releases it when it dies
 * (autoRelease, the default); with autoRelease false the lock outlives the
 * Lock object and the process, as Symfony documents it.
 */

namespace Leaseq\Symfony;

use Leaseq\BusyException;
use Leaseq\Db;
use Leaseq\Lease;
use Leaseq\LostException;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;

class LeaseqStore implements BlockingStoreInterface, BlockingSharedLockStoreInterface
{
    use LeaseStoreTrait;

    /**
     * Where a key keeps its lease (Key::getState()): shared with the
     * leasectl-based store, so either store can check, refresh and release
     * what the other took.
     */
    public const STATE = 'leaseq.lease';

    /* lease names are UTF-8 of at most 255 bytes (lq_check_name) */
    private const PLAIN_MAX = 200;

    private ?Db $db;
    private ?string $dsn;
    private float $initialTtl;
    private float $maxWait;
    private string $owner;

    /**
     * @param Db|string|null $db         a Leaseq\Db, or a DSN to open one with on first use
     *                                   (null: LEASEQ_DSN, else the library's default)
     * @param float          $initialTtl seconds a save() holds the lock unless put off
     * @param float          $maxWait    seconds waitAndSave() waits at most
     */
    public function __construct(Db|string|null $db = null, float $initialTtl = 300.0, float $maxWait = 86400.0)
    {
        if ($initialTtl <= 0) {
            throw new InvalidTtlException(sprintf('"%s()" expects a strictly positive TTL, "%s" given.', __METHOD__, $initialTtl));
        }
        $this->db = $db instanceof Db ? $db : null;
        $this->dsn = \is_string($db) ? $db : null;
        $this->initialTtl = $initialTtl;
        $this->maxWait = $maxWait;
        $this->owner = 'symfony:'.gethostname().':'.getmypid();
    }

    public function putOffExpiration(Key $key, float $ttl)
    {
        $held = $this->heldForRenewal($key, $ttl);
        $lease = $this->lease($key, $held);
        try {
            $lease->renew(self::duration($ttl));
        } catch (LostException $e) {
            $this->forget($key);
            throw new LockConflictedException($e->getMessage(), 0, $e);
        } catch (\Leaseq\Exception $e) {
            throw new LockStorageException($e->getMessage(), 0, $e);
        }
        $this->keep($key, $held['kind'], $lease);
        $this->checkNotExpired($key);
    }

    public function delete(Key $key)
    {
        $held = $this->held($key);
        if (null === $held) {
            return;
        }
        try {
            // false: it expired and someone else holds it now; theirs stays theirs.
            $this->lease($key, $held)->release();
        } catch (\Leaseq\Exception $e) {
            throw new LockStorageException($e->getMessage(), 0, $e);
        }
        $this->forget($key);
    }

    public function exists(Key $key)
    {
        $held = $this->held($key);
        if (null === $held) {
            return false;
        }
        try {
            return $this->lease($key, $held)->isHeld();
        } catch (\Leaseq\Exception $e) {
            throw new LockStorageException($e->getMessage(), 0, $e);
        }
    }

    /**
     * Symfony's resource as a lease name: itself behind "sf:" when it is short
     * UTF-8 without control characters (readable in `leasectl lease list`),
     * else "sfh:" and its SHA-256.  The prefixes keep the two forms apart and
     * keep a resource that starts with "-" from reading as a flag.
     */
    public static function leaseName(Key $key): string
    {
        $resource = (string) $key;
        if (\strlen($resource) <= self::PLAIN_MAX && preg_match('//u', $resource) && !preg_match('/[\x00-\x1f\x7f]/', $resource)) {
            return 'sf:'.$resource;
        }

        return 'sfh:'.hash('sha256', $resource);
    }

    private function db(): Db
    {
        try {
            return $this->db ??= new Db($this->dsn);
        } catch (\Leaseq\Exception $e) {
            throw new LockStorageException($e->getMessage(), 0, $e);
        }
    }

    private function store(Key $key, string $kind, bool $wait): void
    {
        $key->reduceLifetime($this->initialTtl);
        $held = $this->held($key);
        $lease = null;
        try {
            if (null !== $held) {
                $lease = $this->lease($key, $held);
                try {
                    if ($held['kind'] !== $kind) {
                        $this->change($lease, $kind, $wait);
                    }
                    // Saving a key it already holds refreshes it, as Symfony's
                    // stores do (promote and demote keep the expiry).
                    $lease->renew(self::duration($this->initialTtl));
                } catch (LostException $e) {
                    // No longer held: take it afresh.
                    $this->forget($key);
                    $lease = null;
                }
            }
            if (null === $lease) {
                $options = ['owner' => $this->owner];
                if ('read' === $kind) {
                    $options['read'] = true;
                }
                try {
                    $lease = $wait
                        ? $this->db()->acquire(self::leaseName($key), self::duration($this->initialTtl), $this->maxWait, $options)
                        : $this->db()->tryAcquire(self::leaseName($key), self::duration($this->initialTtl), $options);
                } catch (BusyException $e) {
                    throw new LockConflictedException($e->getMessage(), 0, $e);
                } catch (\ValueError $e) {
                    // The name is a lease of another kind (a semaphore).
                    throw new LockStorageException($e->getMessage(), 0, $e);
                }
                if (null === $lease) {
                    throw new LockConflictedException(sprintf('The lock "%s" is held elsewhere.', $key));
                }
            }
        } catch (\Leaseq\Exception $e) {
            throw new LockStorageException($e->getMessage(), 0, $e);
        }
        $lease->detach(); // held until released or expired, whatever becomes of $lease
        $this->keep($key, $kind, $lease);
        $this->checkNotExpired($key);
    }

    /* promote/demote; a waiting promote retries while other readers hold on. */
    private function change(Lease $lease, string $kind, bool $wait): void
    {
        if ('read' === $kind) {
            $lease->demote();

            return;
        }
        $deadline = microtime(true) + $this->maxWait;
        $pause = 10000;
        for (;;) {
            try {
                $lease->promote();

                return;
            } catch (BusyException $e) {
                if (!$wait || microtime(true) >= $deadline) {
                    throw new LockConflictedException($e->getMessage(), 0, $e);
                }
            }
            usleep($pause + random_int(0, $pause));
            $pause = min(2 * $pause, 500000);
        }
    }

    /* The key's lease, from its handle: the same in any process. */
    private function lease(Key $key, array $held): Lease
    {
        try {
            return Lease::decode($this->db(), $held['handle']);
        } catch (\ValueError $e) {
            throw new LockStorageException(sprintf('The lock "%s" has a bad leaseq handle: %s', $key, $e->getMessage()), 0, $e);
        }
    }

    private function keep(Key $key, string $kind, Lease $lease): void
    {
        $key->setState(self::STATE, [
            'kind' => $kind,
            'handle' => $lease->encode(),
            'owner' => $lease->owner,
            'token' => $lease->token,
            'slot' => 'exclusive' === $lease->kind ? null : $lease->slot, // as leasectl's JSON has it
        ]);
    }

    private function forget(Key $key): void
    {
        $key->removeState(self::STATE);
    }
}
