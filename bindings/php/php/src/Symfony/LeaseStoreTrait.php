<?php

namespace Leaseq\Symfony;

use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Store\ExpiringStoreTrait;

/**
 * What the leaseq Lock stores share (LeaseqStore on ext-leaseq, and the
 * leasectl-based store of the tests): Symfony's four ways to save as one
 * store(Key, 'write'|'read', wait), and the state a key keeps its lease in.
 */
trait LeaseStoreTrait
{
    use ExpiringStoreTrait;

    public function save(Key $key)
    {
        $this->store($key, 'write', false);
    }

    public function saveRead(Key $key)
    {
        $this->store($key, 'read', false);
    }

    public function waitAndSave(Key $key)
    {
        $this->store($key, 'write', true);
    }

    public function waitAndSaveRead(Key $key)
    {
        $this->store($key, 'read', true);
    }

    abstract private function store(Key $key, string $kind, bool $wait): void;

    /** The key's lease state, or null when it holds none. */
    private function held(Key $key): ?array
    {
        return $key->hasState(LeaseqStore::STATE) ? $key->getState(LeaseqStore::STATE) : null;
    }

    /**
     * putOffExpiration()'s checks: a positive TTL, a key that holds a
     * lease (its state, returned); the key's lifetime is reduced to $ttl.
     */
    private function heldForRenewal(Key $key, float $ttl): array
    {
        if ($ttl <= 0) {
            throw new InvalidTtlException(sprintf('"%s::putOffExpiration()" expects a TTL greater than 0, "%s" given.', static::class, $ttl));
        }
        $held = $this->held($key);
        if (null === $held) {
            throw new LockConflictedException(sprintf('The lock "%s" is not held by this key.', $key));
        }
        $key->reduceLifetime($ttl);

        return $held;
    }

    /* Seconds as a leaseq duration, rounded up to whole milliseconds (at least 1). */
    private static function duration(float $seconds): string
    {
        return max(1, (int) ceil($seconds * 1000)).'ms';
    }
}
