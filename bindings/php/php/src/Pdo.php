<?php

/*
 * Leaseq\Pdo - enqueue a leaseq task through the application's own PDO
 * connection, inside its own transaction: the task is there if and only if
 * the application's transaction commits.
 *
 * Pure PHP (no ext-leaseq): it runs the schema's documented INSERT
 * (docs/tasks.md, "Enqueue from any language") for the pgsql, mysql and
 * sqlite PDO drivers, with the due time on the database clock.  Arguments
 * are checked as the C library checks them (lq_task_add), before anything
 * is sent: a bad one is a ValueError (a wrong type a TypeError) and
 * changes nothing.
 */

namespace Leaseq;

final class Pdo
{
    /* lib/leaseq.h: LQ_NAME_MAX, LQ_PAYLOAD_MAX, LQ_MAX_ATTEMPTS_MAX, LQ_DELAY_MAX_MS, LQ_TTL_MAX_MS */
    public const NAME_MAX = 255;
    public const PAYLOAD_MAX = 8 * 1024 * 1024;
    private const MAX_ATTEMPTS_MAX = 1000;
    private const DEFAULT_MAX_ATTEMPTS = 3;
    private const DELAY_MAX_MS = 100 * 365 * 24 * 3600 * 1000;
    private const TIMEOUT_MAX_MS = 366 * 24 * 3600 * 1000;
    private const INT32_MIN = -2147483648;
    private const INT32_MAX = 2147483647;

    private const OPTIONS = ['queue', 'delay', 'runAt', 'unique', 'priority', 'timeout', 'maxAttempts'];

    /* The database clock in epoch milliseconds, as the schema's defaults write it. */
    private const CLOCK = [
        'sqlite' => "CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)",
        'pgsql' => '(extract(epoch FROM clock_timestamp()) * 1000)::bigint',
        'mysql' => "TIMESTAMPDIFF(MICROSECOND, '1970-01-01', UTC_TIMESTAMP(3)) DIV 1000",
    ];

    /**
     * The prepared INSERT and look-up of each PDO that enqueued (a server
     * prepare once per connection, not per task).
     *
     * @var \WeakMap<\PDO, array{0: \PDOStatement, 1: \PDOStatement}>
     */
    private static ?\WeakMap $prepared = null;

    private function __construct()
    {
    }

    /**
     * Enqueues one task; returns its id.  With 'unique' => KEY, a live task
     * that holds KEY makes this a no-op that returns that task's id (as
     * Leaseq\Db::add does); on PostgreSQL this never aborts the caller's
     * transaction (ON CONFLICT DO NOTHING), on MySQL the duplicate-key error
     * is caught (it undoes that one statement only).
     *
     * @param array{queue?: string, delay?: int|float|string, runAt?: \DateTimeInterface|int|float,
     *              unique?: ?string, priority?: int, timeout?: int|float|string, maxAttempts?: int} $options
     *        delay/timeout: a number is seconds, a string a leaseq duration ("250ms", "30s", "5m");
     *        runAt: a DateTimeInterface or epoch seconds (wins over delay)
     *
     * @throws \ValueError   a bad argument (nothing was sent)
     * @throws \PDOException the database refused (whatever the PDO's error mode)
     */
    public static function enqueue(\PDO $pdo, string $name, ?string $payload = null, array $options = []): int
    {
        $task = self::check($name, $payload, $options, '');

        return self::withExceptions($pdo, fn (string $driver) => self::insert($pdo, $driver, $task));
    }

    /**
     * Enqueues several tasks, all or nothing: each item is
     * ['name' => ..., 'payload' => ..., + enqueue()'s options].  Every item
     * is checked first (a bad one: ValueError naming its index, nothing
     * sent); then they go in inside one transaction, or inside a savepoint
     * of the caller's transaction when one is open.  Returns the ids in the
     * order given (a taken unique key gives the holder's id).
     *
     * @param list<array<string, mixed>> $tasks
     *
     * @return list<int>
     */
    public static function enqueueMany(\PDO $pdo, array $tasks): array
    {
        $checked = [];
        foreach (array_values($tasks) as $i => $t) {
            $where = sprintf('tasks[%d]: ', $i);
            if (!\is_array($t)) {
                throw new \TypeError($where.'must be an array, '.get_debug_type($t).' given');
            }
            if (!\array_key_exists('name', $t)) {
                throw new \ValueError($where.'has no name');
            }
            $name = $t['name'];
            $payload = $t['payload'] ?? null;
            if (!\is_string($name)) {
                throw new \TypeError($where.'name must be a string, '.get_debug_type($name).' given');
            }
            if (null !== $payload && !\is_string($payload)) {
                throw new \TypeError($where.'payload must be a string or null, '.get_debug_type($payload).' given');
            }
            unset($t['name'], $t['payload']);
            $checked[] = self::check($name, $payload, $t, $where);
        }
        if (!$checked) {
            return [];
        }

        return self::withExceptions($pdo, function (string $driver) use ($pdo, $checked) {
            $own = !$pdo->inTransaction();
            if ($own) {
                $pdo->beginTransaction();
            } else {
                $pdo->exec('SAVEPOINT leaseq_enqueue');
            }
            try {
                $ids = [];
                foreach ($checked as $task) {
                    $ids[] = self::insert($pdo, $driver, $task);
                }
                if ($own) {
                    $pdo->commit();
                } else {
                    $pdo->exec('RELEASE SAVEPOINT leaseq_enqueue');
                }

                return $ids;
            } catch (\Throwable $e) {
                try {
                    if ($own) {
                        $pdo->rollBack();
                    } else {
                        $pdo->exec('ROLLBACK TO SAVEPOINT leaseq_enqueue');
                        $pdo->exec('RELEASE SAVEPOINT leaseq_enqueue');
                    }
                } catch (\PDOException $ignored) {
                    // The first failure is the one to report (a lost
                    // connection fails the rollback too).
                }
                throw $e;
            }
        });
    }

    /**
     * Parses a leaseq duration as lq_parse_duration does: "250ms", "3s",
     * "5m" (or "5min"), "2h", "1d", a bare number of seconds.  Returns
     * milliseconds.
     *
     * @throws \ValueError when it is not one
     */
    public static function parseDuration(string $text): int
    {
        $units = 'a number with a unit: 250ms, 3s, 5m, 2h, 1d';
        $why = null;
        if ('' === $text) {
            $why = 'it is empty';
        } elseif (!preg_match('/^([0-9]+)(ms|s|m|min|h|d|)$/D', $text, $m)) {
            $why = $units;
        } else {
            $unit = ['ms' => 1, 's' => 1000, '' => 1000, 'm' => 60000, 'min' => 60000, 'h' => 3600000, 'd' => 86400000][$m[2]];
            $n = ltrim($m[1], '0');
            if (\strlen($n) > 19 || (int) $n > intdiv(\PHP_INT_MAX, $unit)) {
                $why = 'too large';
            } else {
                return (int) $n * $unit;
            }
        }
        throw new \ValueError(sprintf('"%s" is not a duration: %s', substr($text, 0, 64), $why));
    }

    /* ------------------------------------------------------------------ */

    /**
     * One task's INSERT parameters, checked as lq_task_add checks them.
     *
     * @return array{queue: string, name: string, payload: ?string, run_at: ?int, delay: int,
     *               max_attempts: int, unique: ?string, priority: int, timeout: ?int}
     */
    private static function check(string $name, ?string $payload, array $options, string $where): array
    {
        foreach ($options as $k => $v) {
            if (!\in_array($k, self::OPTIONS, true)) {
                $hint = \in_array($k, ['every', 'cron', 'tz'], true)
                    ? ' (a recurring task needs Leaseq\Db::add: the library computes its schedule)'
                    : ' (known: '.implode(', ', self::OPTIONS).')';
                throw new \ValueError(sprintf('%sunknown option "%s"%s', $where, $k, $hint));
            }
        }
        self::checkName($where.'task name', $name);
        $queue = $options['queue'] ?? 'default';
        if (!\is_string($queue)) {
            throw new \TypeError($where.'option "queue" must be a string, '.get_debug_type($queue).' given');
        }
        self::checkName($where.'queue name', $queue);
        $unique = $options['unique'] ?? null;
        if (null !== $unique) {
            if (!\is_string($unique)) {
                throw new \TypeError($where.'option "unique" must be a string or null, '.get_debug_type($unique).' given');
            }
            self::checkName($where.'unique key', $unique);
        }
        $what = sprintf('%stask "%s": ', $where, $name);
        if (null !== $payload && \strlen($payload) > self::PAYLOAD_MAX) {
            throw new \ValueError(sprintf('%spayload is %d bytes, over the %d-byte limit', $what, \strlen($payload), self::PAYLOAD_MAX));
        }
        $maxAttempts = self::int($options, 'maxAttempts', $what) ?? 0;
        if ($maxAttempts < 0 || $maxAttempts > self::MAX_ATTEMPTS_MAX) {
            throw new \ValueError(sprintf('%smax attempts must be 1 to %d (got %d)', $what, self::MAX_ATTEMPTS_MAX, $maxAttempts));
        }
        $priority = self::int($options, 'priority', $what) ?? 0;
        if ($priority < self::INT32_MIN || $priority > self::INT32_MAX) {
            throw new \ValueError(sprintf('%spriority must be a 32-bit integer (got %d)', $what, $priority));
        }
        $delay = self::duration($options, 'delay', $what) ?? 0;
        if ($delay > self::DELAY_MAX_MS) {
            throw new \ValueError($what.'delay must be between 0 and 100 years');
        }
        $timeout = self::duration($options, 'timeout', $what) ?? 0;
        if ($timeout > self::TIMEOUT_MAX_MS) {
            throw new \ValueError($what.'timeout must be between 0 and a year');
        }
        $runAt = null;
        if (null !== ($at = $options['runAt'] ?? null)) {
            if ($at instanceof \DateTimeInterface) {
                $runAt = $at->getTimestamp() * 1000 + (int) $at->format('v');
            } elseif (\is_int($at) || \is_float($at)) {
                if (!is_finite((float) $at)) {
                    throw new \ValueError($what.'runAt must be a finite number of epoch seconds');
                }
                $runAt = (int) round($at * 1000);
            } else {
                throw new \TypeError($what.'option "runAt" must be a DateTimeInterface or epoch seconds, '.get_debug_type($at).' given');
            }
            if ($runAt < 0) {
                throw new \ValueError($what.'run_at must not be negative');
            }
        }

        return [
            'queue' => $queue,
            'name' => $name,
            'payload' => $payload,
            'run_at' => $runAt,
            'delay' => $delay,
            'max_attempts' => $maxAttempts ?: self::DEFAULT_MAX_ATTEMPTS,
            'unique' => $unique,
            'priority' => $priority,
            'timeout' => $timeout ?: null,
        ];
    }

    /* lq_check_name: non-empty, at most 255 bytes, valid UTF-8, no NUL (a C string ends there). */
    private static function checkName(string $what, string $name): void
    {
        if ('' === $name) {
            throw new \ValueError($what.' is empty');
        }
        if (\strlen($name) > self::NAME_MAX) {
            throw new \ValueError(sprintf('%s is %d bytes, over the %d-byte limit', $what, \strlen($name), self::NAME_MAX));
        }
        if (!preg_match('//u', $name)) {
            throw new \ValueError($what.' is not valid UTF-8');
        }
        if (str_contains($name, "\0")) {
            throw new \ValueError($what.' contains a NUL byte');
        }
    }

    private static function int(array $options, string $key, string $what): ?int
    {
        $v = $options[$key] ?? null;
        if (null !== $v && !\is_int($v)) {
            throw new \TypeError(sprintf('%soption "%s" must be an int, %s given', $what, $key, get_debug_type($v)));
        }

        return $v;
    }

    /* A duration option in ms: a number of seconds, or a leaseq duration string. */
    private static function duration(array $options, string $key, string $what): ?int
    {
        $v = $options[$key] ?? null;
        if (null === $v) {
            return null;
        }
        if (\is_string($v)) {
            try {
                return self::parseDuration($v);
            } catch (\ValueError $e) {
                throw new \ValueError(sprintf('%s%s: %s', $what, $key, $e->getMessage()));
            }
        }
        if (!\is_int($v) && !\is_float($v)) {
            throw new \TypeError(sprintf('%soption "%s" must be seconds (int|float) or a duration string, %s given', $what, $key, get_debug_type($v)));
        }
        if (!is_finite((float) $v) || $v < 0) {
            throw new \ValueError(sprintf('%s%s must not be negative (got %s)', $what, $key, var_export($v, true)));
        }
        if ($v * 1000 >= \PHP_INT_MAX) {
            throw new \ValueError(sprintf('%s%s is too large', $what, $key));
        }

        return (int) round($v * 1000);
    }

    /* Runs fn(driver) with PDO errors as exceptions, whatever mode the application chose. */
    private static function withExceptions(\PDO $pdo, callable $fn)
    {
        $driver = $pdo->getAttribute(\PDO::ATTR_DRIVER_NAME);
        if (!isset(self::CLOCK[$driver])) {
            throw new \ValueError(sprintf('leaseq has no schema for the PDO driver "%s" (pgsql, mysql or sqlite)', $driver));
        }
        $mode = $pdo->getAttribute(\PDO::ATTR_ERRMODE);
        if (\PDO::ERRMODE_EXCEPTION === $mode) {
            return $fn($driver);
        }
        $pdo->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_EXCEPTION);
        try {
            return $fn($driver);
        } finally {
            $pdo->setAttribute(\PDO::ATTR_ERRMODE, $mode);
        }
    }

    /* The INSERT of one checked task; its id, or the id of the live task holding its unique key. */
    private static function insert(\PDO $pdo, string $driver, array $t): int
    {
        $runAt = sprintf('COALESCE(%s, %s + %s)',
            'pgsql' === $driver ? '?::bigint' : '?', self::CLOCK[$driver], 'pgsql' === $driver ? '?::bigint' : '?');
        $sql = 'INSERT INTO lq_task (queue, name, payload, run_at, max_attempts, unique_key, priority, timeout_ms)'
            ." VALUES (?, ?, ?, $runAt, ?, ?, ?, ?)";
        if ('pgsql' === $driver) {
            $sql .= ' ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING RETURNING id';
        } elseif ('sqlite' === $driver) {
            $sql .= ' ON CONFLICT DO NOTHING';
        }
        self::$prepared ??= new \WeakMap();
        [$insert, $find] = self::$prepared[$pdo] ??= [$pdo->prepare($sql), $pdo->prepare('SELECT id FROM lq_task WHERE unique_key = ?')];
        // A unique key whose holder goes away between the INSERT and the
        // look-up: insert again (lq_task_add does the same).
        for ($try = 0; ; ++$try) {
            $st = $insert;
            $st->bindValue(1, $t['queue'], \PDO::PARAM_STR);
            $st->bindValue(2, $t['name'], \PDO::PARAM_STR);
            if (null === $t['payload']) {
                $st->bindValue(3, null, \PDO::PARAM_NULL);
            } else {
                $st->bindValue(3, $t['payload'], \PDO::PARAM_LOB);
            }
            $st->bindValue(4, $t['run_at'], null === $t['run_at'] ? \PDO::PARAM_NULL : \PDO::PARAM_INT);
            $st->bindValue(5, $t['delay'], \PDO::PARAM_INT);
            $st->bindValue(6, $t['max_attempts'], \PDO::PARAM_INT);
            $st->bindValue(7, $t['unique'], null === $t['unique'] ? \PDO::PARAM_NULL : \PDO::PARAM_STR);
            $st->bindValue(8, $t['priority'], \PDO::PARAM_INT);
            $st->bindValue(9, $t['timeout'], null === $t['timeout'] ? \PDO::PARAM_NULL : \PDO::PARAM_INT);
            try {
                $st->execute();
            } catch (\PDOException $e) {
                // MySQL's duplicate key (1062) undoes this statement only;
                // anything else is the caller's to see.
                if ('mysql' !== $driver || null === $t['unique'] || 1062 !== (int) ($e->errorInfo[1] ?? 0)) {
                    throw $e;
                }
                $st = null;
            }
            if (null !== $st) {
                if ('pgsql' === $driver) {
                    $id = $st->fetchColumn();
                    $st->closeCursor();
                    if (false !== $id) {
                        return (int) $id;
                    }
                } elseif (1 === $st->rowCount()) {
                    return (int) $pdo->lastInsertId();
                }
            }
            if (null === $t['unique']) {
                throw new \PDOException(sprintf('task "%s": the insert added no row', $t['name']));
            }
            $find->execute([$t['unique']]);
            $id = $find->fetchColumn();
            $find->closeCursor();
            if (false !== $id) {
                return (int) $id;
            }
            if ($try >= 2) {
                throw new \PDOException(sprintf('task "%s": unique key "%s" taken, but no live task holds it', $t['name'], $t['unique']));
            }
        }
    }
}
