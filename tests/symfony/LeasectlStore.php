<?php

/*
 * LeasectlStore - a Symfony Lock store that keeps its locks in leaseq by
 * running `leasectl lease ... --json` (no shell, no PHP database driver).
 *
 * Symfony's resource is the lease name; save() is the write (exclusive)
 * lease, saveRead() a read lease, and a key that holds one kind and asks
 * for the other is promoted or demoted.  The key's state keeps the handle
 * leasectl printed and the holder's owner, token and slot, which is all
 * that renew, release and exists() need: the key may be serialized and
 * used in another process, as leaseq handles may.
 */

namespace Leaseq\Symfony;

use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;

class LeasectlStore implements BlockingStoreInterface, BlockingSharedLockStoreInterface
{
    use LeaseStoreTrait;

    /* leasectl's exit statuses (tools/leasectl.md) */
    private const EXIT_LOST = 3;
    private const EXIT_HELD = 75;

    private $leasectl;
    private $dsn;
    private $initialTtl;
    private $maxWait;
    private $owner;

    /**
     * @param string $leasectl   path of the leasectl program
     * @param string $dsn        the database; handed to leasectl as LEASEQ_DSN in its
     *                           environment, never on its command line (ps shows argv)
     * @param float  $initialTtl seconds a save() holds the lock unless put off
     * @param float  $maxWait    seconds waitAndSave() waits at most
     */
    public function __construct(string $leasectl, string $dsn, float $initialTtl = 300.0, float $maxWait = 86400.0)
    {
        if ($initialTtl <= 0) {
            throw new InvalidTtlException(sprintf('"%s()" expects a strictly positive TTL, "%s" given.', __METHOD__, $initialTtl));
        }
        if ('' === $dsn) {
            throw new InvalidArgumentException('LeasectlStore needs a leaseq DSN.');
        }
        $this->leasectl = $leasectl;
        $this->dsn = $dsn;
        $this->initialTtl = $initialTtl;
        $this->maxWait = $maxWait;
        $this->owner = 'symfony:'.gethostname().':'.getmypid();
    }

    public function putOffExpiration(Key $key, float $ttl)
    {
        $held = $this->heldForRenewal($key, $ttl);
        [$rc, $out, $err] = $this->run(['lease', 'renew', $held['handle'], '--ttl', self::duration($ttl)]);
        if (self::EXIT_LOST === $rc) {
            $key->removeState(LeaseqStore::STATE);
            throw new LockConflictedException($err);
        }
        $this->check($rc, $err);
        $this->keep($key, $held['kind'], $out);
        $this->checkNotExpired($key);
    }

    public function delete(Key $key)
    {
        $held = $this->held($key);
        if (null === $held) {
            return;
        }
        [$rc, , $err] = $this->run(['lease', 'release', $held['handle']]);
        // Lost: it expired and someone else holds it now; theirs stays theirs.
        if (self::EXIT_LOST !== $rc) {
            $this->check($rc, $err);
        }
        $key->removeState(LeaseqStore::STATE);
    }

    public function exists(Key $key)
    {
        $held = $this->held($key);
        if (null === $held) {
            return false;
        }
        [$rc, $out, $err] = $this->run(['lease', 'show', self::leaseName($key)]);
        if (1 === $rc && str_contains($err, 'not found')) {
            return false;
        }
        $this->check($rc, $err);
        $doc = self::json($out);
        // An exclusive lease is one object; a shared one lists its holders.
        foreach ($doc['holders'] ?? [$doc] as $h) {
            if (!empty($h['held']) && $h['owner'] === $held['owner'] && $h['token'] === $held['token']
                && ($h['slot'] ?? null) === $held['slot']) {
                return true;
            }
        }

        return false;
    }

    /** The lease name of Symfony's resource: the same as LeaseqStore's (bindings/php/php). */
    public static function leaseName(Key $key): string
    {
        return LeaseqStore::leaseName($key);
    }

    private function store(Key $key, string $kind, bool $wait): void
    {
        $key->reduceLifetime($this->initialTtl);
        $ttl = self::duration($this->initialTtl);
        $held = $this->held($key);
        $rc = self::EXIT_LOST;
        if (null !== $held && $held['kind'] === $kind) {
            // Saving a key it already holds refreshes it, as Symfony's stores do.
            [$rc, $out, $err] = $this->run(['lease', 'renew', $held['handle'], '--ttl', $ttl]);
        } elseif (null !== $held) {
            [$rc, $out, $err] = $this->change($held['handle'], 'write' === $kind ? 'promote' : 'demote', $wait);
            if (0 === $rc) {
                // promote/demote keep the expiry; a save sets the initial TTL.
                $this->keep($key, $kind, $out);
                [$rc, $out, $err] = $this->run(['lease', 'renew', $this->held($key)['handle'], '--ttl', $ttl]);
            }
        }
        if (self::EXIT_LOST === $rc) {
            // Not held (or no longer): take it afresh.
            $key->removeState(LeaseqStore::STATE);
            $args = ['lease', 'acquire', self::leaseName($key), '--ttl', $ttl, '--owner', $this->owner];
            if ('read' === $kind) {
                $args[] = '--read';
            }
            if ($wait) {
                array_push($args, '--wait', self::duration($this->maxWait));
            }
            [$rc, $out, $err] = $this->run($args);
        }
        if (self::EXIT_HELD === $rc) {
            throw new LockConflictedException($err);
        }
        $this->check($rc, $err);
        $this->keep($key, $kind, $out);
        $this->checkNotExpired($key);
    }

    /* promote/demote; a waiting promote retries while other readers hold on. */
    private function change(string $handle, string $verb, bool $wait): array
    {
        $deadline = microtime(true) + $this->maxWait;
        $pause = 10000;
        for (;;) {
            $r = $this->run(['lease', $verb, $handle]);
            if (!$wait || self::EXIT_HELD !== $r[0] || microtime(true) >= $deadline) {
                return $r;
            }
            usleep($pause + random_int(0, $pause));
            $pause = min(2 * $pause, 500000);
        }
    }

    private function keep(Key $key, string $kind, string $out): void
    {
        $doc = self::json($out);
        $key->setState(LeaseqStore::STATE, [
            'kind' => $kind,
            'handle' => $doc['handle'],
            'owner' => $doc['owner'],
            'token' => $doc['token'],
            'slot' => $doc['slot'] ?? null,
        ]);
    }

    private function check(int $rc, string $err): void
    {
        if (0 !== $rc) {
            throw new LockStorageException(sprintf('leasectl exited %d: %s', $rc, $err));
        }
    }

    private static function json(string $out): array
    {
        $doc = json_decode($out, true);
        if (!\is_array($doc)) {
            throw new LockStorageException('leasectl printed no JSON document: '.substr($out, 0, 200));
        }

        return $doc;
    }

    /**
     * Runs leasectl --json ARGS (argv form: no shell).
     *
     * @return array{0: int, 1: string, 2: string} exit status, stdout, stderr's line
     */
    private function run(array $args): array
    {
        $env = getenv();
        $env['LEASEQ_DSN'] = $this->dsn;
        $err = tmpfile();
        $proc = proc_open(array_merge([$this->leasectl, '--json'], $args), [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => $err], $pipes, null, $env);
        if (!\is_resource($proc)) {
            throw new LockStorageException(sprintf('cannot run "%s"', $this->leasectl));
        }
        $out = stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        $rc = proc_close($proc);
        rewind($err);
        $msg = trim(stream_get_contents($err));
        fclose($err);

        return [$rc, $out, $msg];
    }
}
