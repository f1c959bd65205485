<?php

/**
 * ext-leaseq: leases and a task queue kept inside SQLite, PostgreSQL or
 * MySQL/MariaDB, over libleaseq (lib/leaseq.h).
 *
 * Conventions:
 * - A duration given as a number is SECONDS (int or float, as sleep() and
 *   Symfony Lock take them); a string is a leaseq duration ("250ms", "30s",
 *   "5m", "2h", "1d").  A bad one is a ValueError.
 * - An absolute time (runAt) is a DateTimeInterface or epoch seconds.
 * - Times read back are epoch milliseconds on the database clock, in
 *   properties and keys named ...Ms or expiresAt.
 * - Every failure of the library is a Leaseq\Exception subclass whose
 *   getCode() is the lq_status; bad arguments are PHP's own ValueError and
 *   TypeError.  No message ever contains a DSN's password.
 * - One Db is one connection, used by one thread at a time.
 *
 * @generate-class-entries
 */

namespace Leaseq {

    /**
     * @strict-properties
     * @not-serializable
     */
    final class Db
    {
        /**
         * Open a connection.  $dsn: "sqlite:PATH", "postgresql://...",
         * "mysql://user:pass@host:port/db"; null: the LEASEQ_DSN environment
         * variable, else "sqlite:leaseq.db".  $persistent: keep the
         * connection for the next request of this process (keyed by DSN);
         * a handle that saw a connection error or an unknown outcome, or was
         * in the middle of a call when the request ended, is closed instead.
         * @throws ConnectionException when the database cannot be reached
         */
        public function __construct(?string $dsn = null, bool $persistent = false) {}

        /** "sqlite", "postgres" or "mysql". */
        public function backend(): string {}

        /**
         * Apply the migrations the database lacks.
         * @return array{0: int, 1: int} [from, to] schema versions
         */
        public function migrate(): array {}

        /** The database clock, epoch milliseconds. */
        public function now(): int {}

        /**
         * Take $name for $ttl, waiting up to $wait for it to free up (with
         * a pcntl handler for SIGTERM or SIGINT, that signal ends the wait:
         * the handler runs, then CanceledException).
         * $options: 'slots' => N (one of a semaphore's N slots),
         * 'read' => true (a read lease, shared with other readers),
         * 'owner' => string (a random part is always appended).
         * @throws BusyException when it is not ours by the end of the wait
         *         (getHolder() describes the holder)
         */
        public function acquire(string $name, int|float|string $ttl, int|float|string $wait = 0, array $options = []): Lease {}

        /** As acquire() without a wait; null when it is held elsewhere. */
        public function tryAcquire(string $name, int|float|string $ttl, array $options = []): ?Lease {}

        /**
         * The current state of $name: ['name', 'owner' ("" when free),
         * 'token', 'acquiredAt', 'expiresAt', 'now'] (times in epoch ms), or
         * null if it was never acquired.
         */
        public function lease(string $name): ?array {}

        /** Admin: free $name whoever holds it.  false: no such lease. */
        public function breakLease(string $name): bool {}

        /**
         * Enqueue a task; returns its id (with 'unique', the live task's id
         * when one has the key already).  $options: 'queue' (string),
         * 'delay' (duration), 'runAt' (DateTimeInterface|int|float epoch
         * seconds), 'unique' (string), 'priority' (int), 'timeout'
         * (duration), 'maxAttempts' (int), 'every' (duration), 'cron'
         * (string), 'tz' (string, for cron); flow control:
         * 'concurrencyKey' (string: tasks sharing it share its limit,
         * setLimit()), 'partition' (string: claims serve a queue's
         * partitions round-robin); for a recurring task 'overlap' ("skip",
         * "queue" or "cancel-previous"), 'catchUp' (int, 1 to 100 missed
         * occurrences run after downtime) and 'alertAfter' (duration: the
         * schedule is overdue past it without a success).
         */
        public function add(string $name, ?string $payload = null, array $options = []): int {}

        /**
         * Enqueue several tasks in one transaction, all or none.  Each item
         * is ['name' => ..., 'payload' => ..., + add()'s options].
         * @return list<int> the ids, in order
         */
        public function addMany(array $tasks): array {}

        /**
         * Claim up to $limit due tasks of $queue.  At-least-once: finish
         * each with ack(), fail() or release(), keep it with heartbeat().
         * At-most-once: the task is gone once claimed.
         * @return list<Task> [] when nothing is due
         */
        public function claim(string $queue = "default", int $limit = 1, bool $atLeastOnce = true, int|float|string $claimTtl = 30): array {}

        /** The claimed task succeeded.  @throws LostException */
        public function ack(Task $task): void {}

        /** The claimed task failed with $error (retried, or dead when out of attempts). */
        public function fail(Task $task, string $error): void {}

        /** Hand a claimed task back unrun; the attempt does not count. */
        public function release(Task $task): void {}

        /** Extend an at-least-once claim by $claimTtl.  @throws LostException */
        public function heartbeat(Task $task, int|float|string $claimTtl = 30): void {}

        /** One task by id, live or dead; null if neither. */
        public function task(int $id): ?Task {}

        /**
         * The progress a handler reported under the claim holding live task
         * $id now, or null.
         * @return array{percent: int, message: string, at: int}|null
         */
        public function progress(int $id): ?array {}

        /**
         * The result (bytes) the newest successful run of task $id stored,
         * also after the task is gone, or null.
         */
        public function result(int $id): ?string {}

        /**
         * Tasks by id, without their payloads.  $queue null: every queue.
         * @return list<Task>
         */
        public function tasks(?string $queue = null, bool $dead = false, bool $due = false): array {}

        /**
         * The run history, newest first.  $filter: 'taskId' (int), 'queue',
         * 'name' (string), 'since' (duration: ended within it), 'limit' (int,
         * default 100).  Each row: ['id', 'taskId', 'runAt', 'queue', 'name',
         * 'worker', 'attempt', 'startedAt', 'endedAt', 'outcome' ("done",
         * "failed", "timed_out", "dead"), 'error' (?string)].
         */
        public function history(array $filter = []): array {}

        /**
         * The queues that have tasks or were paused: each ['name', 'paused'
         * (bool), 'tasks', 'due', 'dead', 'nextRunAt' (epoch ms, 0 if none)].
         */
        public function queues(): array {}

        /**
         * End what this handle is waiting for (a lease wait, a worker's idle
         * wait) with a CanceledException; safe in a signal handler.
         */
        public function cancel(): void {}

        /**
         * Delete a task, live or dead, by id (lq_task_rm), whatever its
         * state: a claim on it is then lost (ack() of it throws
         * LostException).  false when there is no such task, as task()
         * answers null for it.  An id below 1 is a ValueError.
         */
        public function remove(int $id): bool {}

        /**
         * Cancel task $id (lq_task_cancel): it never runs again and its
         * history gets a "cancelled" run whose error is $reason (one line).
         * true when it was running under an at-least-once claim: that
         * worker's next heartbeat, ack() or fail() throws RevokedException
         * (a Worker throws it inside the handler) and changes nothing.
         * false when it was not running.  null when no live task has that id
         * (finished, dead, unknown, or running at-most-once, which cannot be
         * stopped), as remove() answers false rather than throwing.  A
         * recurring task's schedule ends (pauseTask() skips occurrences
         * instead).  Not cancel(), which ends a wait.
         */
        public function cancelTask(int $id, ?string $reason = null): ?bool {}

        /**
         * The partition of live task $id (add()'s 'partition'): "" when it
         * has none, null when no live task has that id.
         */
        public function partition(int $id): ?string {}

        /**
         * Create or replace the limit of $key (a task's 'concurrencyKey', or
         * "queue:Q" for every task of queue Q): at most $concurrency running
         * at once; at most N starts per DUR with $rate "N/DUR" (e.g.
         * "10/1s", as leasectl limit set --rate) or [N, duration].  At least
         * one of them.
         */
        public function setLimit(string $key, ?int $concurrency = null, string|array|null $rate = null): void {}

        /**
         * The limit of $key, or null: ['key', 'concurrency' (0: none),
         * 'rateN' (0: no rate), 'ratePeriodMs', 'running' (live claims of
         * the key), 'tokens' (starts the rate allows now), 'now'].
         */
        public function limit(string $key): ?array {}

        /**
         * Every limit, by key, as limit() describes them.
         * @return list<array>
         */
        public function limits(): array {}

        /** Remove the limit of $key.  false when there was none. */
        public function removeLimit(string $key): bool {}

        /**
         * Pause ($paused true) or resume one live task or schedule: a paused
         * task is not claimed.  false when there is no live task $id.
         */
        public function pauseTask(int $id, bool $paused = true): bool {}

        /**
         * One extra occurrence of recurring task $id, due now (its schedule
         * is not shifted); a one-off task becomes due now.  false when there
         * is no live task $id.
         * @throws BusyException when an occurrence is due or running, a
         *         run-now is pending, or the task is paused
         */
        public function runNow(int $id): bool {}

        /**
         * Replace the schedule of recurring task $id: $every (duration) or
         * $cron (in $tz, default UTC).  Returns the new schedule's first
         * occurrence (epoch ms), or null when there is no live task $id.
         * A task that is not recurring is a ValueError.
         */
        public function editSchedule(int $id, int|float|string|null $every = null, ?string $cron = null, ?string $tz = null): ?int {}

        /**
         * The schedule of recurring task $id, or null: ['id', 'queue',
         * 'name', 'everyMs' (0: cron), 'cron' (?string), 'tz' (?string),
         * 'paused', 'overlap' ("default", "skip", "queue",
         * "cancel-previous"), 'catchUp', 'alertAfterMs' (0: none),
         * 'lastSuccessAt' (0: never), 'sinceSuccessMs', 'overdue' (bool),
         * 'runAt', 'nextAt' (0: none), 'createdAt', 'now'] (times in epoch
         * ms).
         */
        public function schedule(int $id): ?array {}

        /**
         * Every recurring task's schedule, by id, as schedule() describes
         * them; $alerted: only those with an 'alertAfter'.
         * @return list<array>
         */
        public function schedules(bool $alerted = false): array {}

        /**
         * Close the connection; a persistent one goes back to the process's
         * pool for the next request instead (unless it must not be reused).
         * Using the Db afterwards is an Error.  Idempotent.
         */
        public function close(): void {}
    }

    /**
     * A held lease; released when the object dies if it is still held by
     * this process (no exception from that, ever), unless detach()ed.
     * @strict-properties
     * @not-serializable
     */
    final class Lease
    {
        public readonly string $name;
        public readonly string $owner;
        /** The fencing token: strictly increasing per name. */
        public readonly int $token;
        /** "exclusive", "slot" or "read". */
        public readonly string $kind;
        /** A semaphore's N; 0 otherwise. */
        public readonly int $slots;
        /** A semaphore's slot (0..N-1), a reader's slot (>= 1); else 0. */
        public readonly int $slot;
        /** Epoch ms on the database clock; updated by renew(). */
        public readonly int $expiresAt;

        private function __construct() {}

        /**
         * Extend to now + $ttl (null: the TTL it was taken with; a decoded
         * lease: the first TTL given here).
         * @throws LostException when it expired and was taken, or was broken
         */
        public function renew(int|float|string|null $ttl = null): void {}

        /** Hand it back.  false when it was no longer ours. */
        public function release(): bool {}

        /** Whether it is still ours (asks the database). */
        public function isHeld(): bool {}

        /** Read -> write.  @throws BusyException while other readers hold it */
        public function promote(): void {}

        /** Write -> read. */
        public function demote(): void {}

        /** The handle as one shell-safe word another process can decode(). */
        public function encode(): string {}

        /**
         * From now on the object's death does not release the lease: it is
         * held until its TTL ends, or until release() (of this object, or of
         * a decode() of its handle in any process).  renew(), release() and
         * the rest still work on this object.  For a lease that must outlive
         * the object or the process that took it.
         */
        public function detach(): void {}

        /**
         * A lease encoded by encode(), to renew or release it here.  The
         * object does not release it when it dies (the process that took it
         * decides that); release() does.
         */
        public static function decode(Db $db, string $handle): Lease {}
    }

    /**
     * A task as claimed or read.  Times in epoch ms.
     * @strict-properties
     * @not-serializable
     */
    final class Task
    {
        public readonly int $id;
        public readonly string $name;
        public readonly string $queue;
        /** null when the task has none (or an empty one), and in tasks() */
        public readonly ?string $payload;
        public readonly int $attempts;
        public readonly int $maxAttempts;
        public readonly int $priority;
        /** Due time (of this occurrence, for a claimed task). */
        public readonly int $runAtMs;
        public readonly ?string $uniqueKey;
        public readonly ?string $lastError;
        public readonly bool $atLeastOnce;
        /** A recurring task (every or cron), or a claimed occurrence of one. */
        public readonly bool $recurring;
        /** The task's own time limit; 0: the worker's default. */
        public readonly int $timeoutMs;
        /** Out of attempts, kept among the dead tasks. */
        public readonly bool $dead;
        public readonly int $createdAtMs;
        /** Recurring every this many ms; 0 when not interval-recurring. */
        public readonly int $everyMs;
        /** Recurring on this 5-field cron expression; null when not. */
        public readonly ?string $cron;
        /** The cron expression's time zone; null: UTC (or no cron). */
        public readonly ?string $tz;
        /** The concurrency key (its limit: Db::limit()); null when none. */
        public readonly ?string $concurrencyKey;
        /** The partition whose turn it takes (fair share); null when none. */
        public readonly ?string $partition;

        private function __construct() {}
    }

    /**
     * Runs PHP callables for the tasks of some queues, in this process.
     * @not-serializable
     */
    final class Worker
    {
        /**
         * $options: 'atLeastOnce' (bool, default true), 'claimTtl' (duration,
         * default 30 s; the claim is kept alive while a handler runs),
         * 'timeout' (duration: how long a handler may run when the task
         * sets none; default none), 'batch' (int, tasks per claim),
         * 'signals' (bool, default true: SIGTERM and SIGINT stop run()
         * after the current task).
         */
        public function __construct(Db $db, array $queues = ["default"], array $options = []) {}

        /**
         * Run $handler(Task $task) for tasks named $name ("*": any task
         * without its own handler).  A handler that returns succeeded; one
         * that throws failed, with the exception's message as the error.
         * $handler is resolved here, in the caller's scope (a private method
         * of the caller's class is fine).  exit() in a handler is a failed
         * attempt, and run() stops; so is a fatal error, after which the
         * handle is not kept as a persistent one.
         */
        public function handle(string $name, callable $handler): static {}

        /**
         * Claim and run tasks until stop() or a signal; $drain: return once
         * nothing is due.
         * @return array{ran: int, failed: int, claimed: int, stopped: string}
         */
        public function run(bool $drain = false): array {}

        /** Stop run() after the current task; safe in a signal handler. */
        public function stop(): void {}

        /**
         * From inside a handler: report how far the running task is (0-100
         * and a message of at most 200 bytes; needs at-least-once).  False
         * when the claim was lost: stop working.
         */
        public static function progress(int $percent, ?string $message = null): bool {}

        /**
         * From inside a handler: when it returns, run the task again after
         * $delay (seconds or "5m"), this attempt not counted.
         */
        public static function snooze(int|float|string $delay): void {}

        /**
         * From inside a handler: store $data (at most 64 KiB) as the running
         * task's result, with its ack when the handler returns.
         */
        public static function setResult(string $data): void {}
    }

    final class Runner
    {
        /**
         * One pseudo-cron tick: if no other runner is active, run the due
         * tasks of the queue for at most $budget.  $handlers: task name =>
         * callable(Task $task).  $options: 'queue' (default "default"),
         * 'leaseTtl' (runner lease, default 3 s), 'atLeastOnce' (bool,
         * default false), 'claimTtl', 'timeout'.  Call it after
         * fastcgi_finish_request() so the visitor does not wait.
         * @return array{ran: int, failed: int, claimed: int, stopped: string}
         *         stopped "held" when another runner is active
         */
        public static function tick(Db $db, array $handlers, int|float|string $budget = 1, array $options = []): array {}
    }

    /** Root of the library's failures: getCode() is the lq_status. */
    class Exception extends \RuntimeException
    {
        /**
         * The status' name, lower case, as in lq_status without LQ_: "busy",
         * "lost", "notfound", "eschema", "econn", "eunknown", "etimedout",
         * "ecanceled", ...
         */
        public function getStatusName(): string {}
    }

    /** LQ_BUSY: held elsewhere. */
    final class BusyException extends Exception
    {
        private ?array $holder = null;

        /** The holder ['name', 'owner', 'token', 'expiresAt', ...], when known. */
        public function getHolder(): ?array {}
    }

    /** LQ_LOST: the lease or claim is no longer ours. */
    final class LostException extends Exception {}

    /** LQ_NOTFOUND. */
    final class NotFoundException extends Exception {}

    /** LQ_ESCHEMA: no schema yet (call migrate()), or a newer one. */
    final class SchemaException extends Exception {}

    /** LQ_ECONN: the database could not be reached or the connection was lost. */
    final class ConnectionException extends Exception {}

    /** LQ_EUNKNOWN: the connection was lost during a commit; the outcome is unknown. */
    final class UnknownOutcomeException extends Exception {}

    /** LQ_ETIMEDOUT; also thrown into a Worker handler past its time limit. */
    final class TimeoutException extends Exception {}

    /** LQ_ECANCELED: Db::cancel() ended the wait. */
    final class CanceledException extends Exception {}

    /** LQ_ETXOPEN: not allowed inside the application's open transaction. */
    final class TransactionOpenException extends Exception {}

    /** LQ_ENODB: no such database file. */
    final class NoDatabaseException extends Exception {}

    /** LQ_ECREATE: the database file cannot be created. */
    final class CreateException extends Exception {}

    /** LQ_EPERM: permission denied. */
    final class PermissionException extends Exception {}

    /** LQ_ENOTDB: not a database file. */
    final class NotDatabaseException extends Exception {}

    /**
     * LQ_REVOKED: the claimed task was cancelled (Db::cancelTask(), leasectl
     * task cancel): stop working on it.  A Worker throws it inside the
     * running handler at its next heartbeat.
     */
    final class RevokedException extends Exception {}
}
