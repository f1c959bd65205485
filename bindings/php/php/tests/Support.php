<?php

/*
 * Helpers of the package's tests: the database under test (LEASEQ_DSN, a
 * leaseq DSN) as a PDO connection, and leasectl (LEASECTL) to look at and
 * run what was enqueued.
 */

namespace Leaseq\Tests;

final class Support
{
    public static function dsn(): string
    {
        return (string) getenv('LEASEQ_DSN');
    }

    public static function backend(): string
    {
        $dsn = self::dsn();

        return str_starts_with($dsn, 'sqlite:') ? 'sqlite' : (preg_match('/^(postgres|postgresql):/', $dsn) ? 'postgres' : 'mysql');
    }

    /** A new PDO connection to the leaseq DSN's database (errors as exceptions unless $errmode says otherwise). */
    public static function pdo(int $errmode = \PDO::ERRMODE_EXCEPTION): \PDO
    {
        return new \PDO(...self::pdoArgs($errmode));
    }

    /** PDO's constructor arguments for the leaseq DSN's database. */
    public static function pdoArgs(int $errmode = \PDO::ERRMODE_EXCEPTION): array
    {
        $dsn = self::dsn();
        $options = [\PDO::ATTR_ERRMODE => $errmode];
        if (str_starts_with($dsn, 'sqlite:')) {
            return [preg_replace('/\?.*$/', '', $dsn), null, null, $options];
        }
        $u = parse_url($dsn);
        $db = ltrim($u['path'] ?? '', '/');
        $user = isset($u['user']) ? urldecode($u['user']) : null;
        $pass = isset($u['pass']) ? urldecode($u['pass']) : null;
        if ('postgres' === self::backend()) {
            return [sprintf('pgsql:host=%s;port=%d;dbname=%s', $u['host'], $u['port'] ?? 5432, $db), $user, $pass, $options];
        }

        return [sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', $u['host'], $u['port'] ?? 3306, $db), $user, $pass, $options];
    }

    /**
     * Runs leasectl ARGS on the test database (its DSN through the
     * environment); returns [exit status, stdout, stderr].
     */
    public static function leasectl(array $args, ?string $stdin = null): array
    {
        $env = getenv();
        $env['LEASEQ_DSN'] = self::dsn();
        $p = proc_open(array_merge([(string) getenv('LEASECTL')], $args),
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        fwrite($pipes[0], (string) $stdin);
        fclose($pipes[0]);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);

        return [proc_close($p), $out, $err];
    }

    /** leasectl --json ARGS, decoded; fails the test on a non-zero exit. */
    public static function json(array $args): array
    {
        [$rc, $out, $err] = self::leasectl(array_merge(['--json'], $args));
        if (0 !== $rc) {
            throw new \RuntimeException(sprintf('leasectl %s exited %d: %s', implode(' ', $args), $rc, $err));
        }

        return json_decode($out, true, 512, \JSON_THROW_ON_ERROR);
    }
}
