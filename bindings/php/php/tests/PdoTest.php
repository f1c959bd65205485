<?php

/*
 * Leaseq\Pdo: the documented INSERT through the application's own PDO, on
 * the backend of LEASEQ_DSN.  What the application's transaction decides
 * is what leaseq runs (checked with `leasectl worker --drain`, and with
 * ext-leaseq's claim when it is loaded); options land in the row as
 * leaseq's own enqueue writes them; bad arguments change nothing.
 */

namespace Leaseq\Tests;

use Leaseq\Pdo;
use PHPUnit\Framework\TestCase;

class PdoTest extends TestCase
{
    private string $queue;
    private string $dir;

    protected function setUp(): void
    {
        $this->queue = 'pdo-'.bin2hex(random_bytes(6));
        $this->dir = sys_get_temp_dir().'/'.$this->queue;
        mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->dir.'/*'));
        rmdir($this->dir);
    }

    /* Runs this test's queue dry with leasectl; each run writes its payload to DIR/<task id>. */
    private function drain(string $name = 'job'): array
    {
        [$rc, , $err] = Support::leasectl(['worker', '--drain', '--at-least-once', '--queue', $this->queue,
            '--handler', $name.'=cat > "'.$this->dir.'/$LEASEQ_TASK_ID"']);
        $this->assertSame(0, $rc, $err);
        $ran = [];
        foreach (glob($this->dir.'/*') as $f) {
            $ran[(int) basename($f)] = file_get_contents($f);
        }
        ksort($ran);

        return $ran;
    }

    private function live(): array
    {
        return Support::json(['task', 'list', '--queue', $this->queue]);
    }

    private function show(int $id): array
    {
        return Support::json(['task', 'show', (string) $id]);
    }

    public function testCommittedRunsOnceRolledBackNever()
    {
        $pdo = Support::pdo();
        $pdo->beginTransaction();
        Pdo::enqueue($pdo, 'job', 'rolled back', ['queue' => $this->queue]);
        $pdo->rollBack();

        $payloads = ['{"to":"a@example.com"}', "bin\x00\xff\xfe\x01", '', null];
        $pdo->beginTransaction();
        $ids = [];
        foreach ($payloads as $p) {
            $ids[] = Pdo::enqueue($pdo, 'job', $p, ['queue' => $this->queue]);
        }
        $this->assertCount(4, array_unique($ids));
        $pdo->commit();

        $ran = $this->drain();
        $this->assertSame($ids, array_keys($ran), 'each committed task ran once, the rolled back one never');
        $this->assertSame(['{"to":"a@example.com"}', "bin\x00\xff\xfe\x01", '', ''], array_values($ran));
        $this->assertSame([], $this->live());
        $this->assertCount(4, $this->drain(), 'a second worker found nothing more to run');
    }

    /**
     * @requires extension leaseq
     */
    public function testClaimedByTheExtension()
    {
        $pdo = Support::pdo();
        $pdo->beginTransaction();
        $id = Pdo::enqueue($pdo, 'ext-job', "p\x00q", ['queue' => $this->queue, 'priority' => 3]);
        $pdo->commit();

        $db = new \Leaseq\Db(Support::dsn());
        $tasks = $db->claim($this->queue, 10);
        $this->assertCount(1, $tasks);
        $this->assertSame($id, $tasks[0]->id);
        $this->assertSame('ext-job', $tasks[0]->name);
        $this->assertSame("p\x00q", $tasks[0]->payload);
        $this->assertSame(3, $tasks[0]->priority);
        $db->ack($tasks[0]);
        $this->assertSame([], $db->claim($this->queue, 10));
    }

    public function testDelayIsOnTheDatabaseClock()
    {
        $pdo = Support::pdo();
        $a = Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue, 'delay' => 3600]);
        $b = Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue, 'delay' => '90m']);
        // Fractional seconds, and far enough ahead that a slow machine's
        // drain below never finds it due.
        $c = Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue, 'delay' => 90.5]);
        $now = Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue]);
        // created_at is the same clock read by the column default (on
        // PostgreSQL a separate read that moves within the statement, each
        // rounded to the millisecond).
        foreach ([$a => 3600000, $b => 5400000, $c => 90500, $now => 0] as $id => $delay) {
            $t = $this->show($id);
            $this->assertGreaterThanOrEqual($t['created_at'] + $delay - 2, $t['run_at'], "task $id");
            $this->assertLessThan($t['created_at'] + $delay + 1000, $t['run_at'], "task $id");
        }
        $this->assertSame([$now], array_keys($this->drain()), 'only the task without delay was due');
    }

    public function testRunAtAndOptionsAreStored()
    {
        $pdo = Support::pdo();
        $at = Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue, 'runAt' => new \DateTimeImmutable('@1900000000.123')]);
        $epoch = Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue, 'runAt' => 1900000000.5, 'delay' => 60]);
        $opts = Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue, 'priority' => -7, 'timeout' => '30s',
            'maxAttempts' => 5, 'unique' => $this->queue.'-u']);
        $this->assertSame(1900000000123, $this->show($at)['run_at']);
        $this->assertSame(1900000000500, $this->show($epoch)['run_at'], 'runAt wins over delay');
        $t = $this->show($opts);
        $this->assertSame([$this->queue, 'job', -7, 30000, 5, $this->queue.'-u', 0, 0],
            [$t['queue'], $t['name'], $t['priority'], $t['timeout_ms'], $t['max_attempts'], $t['unique_key'], $t['attempts'], $t['payload_len']]);
        $d = $this->show(Pdo::enqueue($pdo, 'job', null, ['queue' => $this->queue, 'timeout' => 0]));
        $this->assertSame([3, 0, null], [$d['max_attempts'], $d['priority'], $d['timeout_ms']], 'the defaults');
    }

    public function testUniqueKeyInsideTheApplicationsTransaction()
    {
        $key = $this->queue.'-key';
        $pdo = Support::pdo();
        $pdo->beginTransaction();
        $first = Pdo::enqueue($pdo, 'job', 'first', ['queue' => $this->queue, 'unique' => $key]);
        $again = Pdo::enqueue($pdo, 'job', 'second', ['queue' => $this->queue, 'unique' => $key]);
        $this->assertSame($first, $again);
        // The transaction is still usable (PostgreSQL aborts it on a failed statement).
        $other = Pdo::enqueue($pdo, 'job', 'other', ['queue' => $this->queue]);
        $this->assertSame('1', (string) $pdo->query('SELECT 1')->fetchColumn());
        $pdo->commit();

        // Another connection meets the committed holder.
        $this->assertSame($first, Pdo::enqueue(Support::pdo(), 'job', 'third', ['queue' => $this->queue, 'unique' => $key]));
        $this->assertSame([$first => 'first', $other => 'other'], $this->drain());
        // Once it ran, the key is free again.
        $this->assertGreaterThan($other, Pdo::enqueue($pdo, 'job', 'fourth', ['queue' => $this->queue, 'unique' => $key]));
    }

    /* Client-side (emulated) and server-side prepares: PDO's defaults differ per driver, PgBouncer needs the first. */
    public function testEmulatedAndNativePrepares()
    {
        $ids = [];
        foreach ([true, false] as $emulate) {
            $pdo = Support::pdo();
            if ('sqlite' !== Support::backend()) {
                $pdo->setAttribute(\PDO::ATTR_EMULATE_PREPARES, $emulate);
            }
            $key = $this->queue.($emulate ? '-e' : '-n');
            $id = Pdo::enqueue($pdo, 'job', "e\x00\xff".(int) $emulate, ['queue' => $this->queue, 'unique' => $key, 'delay' => 0]);
            $this->assertSame($id, Pdo::enqueue($pdo, 'job', 'again', ['queue' => $this->queue, 'unique' => $key]));
            $ids[$id] = "e\x00\xff".(int) $emulate;
        }
        $this->assertSame($ids, $this->drain());
    }

    public function testTheApplicationsErrorModeIsKept()
    {
        $pdo = Support::pdo(\PDO::ERRMODE_SILENT);
        $id = Pdo::enqueue($pdo, 'job', 'x', ['queue' => $this->queue, 'unique' => $this->queue]);
        $this->assertSame($id, Pdo::enqueue($pdo, 'job', 'x', ['queue' => $this->queue, 'unique' => $this->queue]));
        $this->assertSame(\PDO::ERRMODE_SILENT, $pdo->getAttribute(\PDO::ATTR_ERRMODE));
        $this->assertFalse(@$pdo->query('SELECT * FROM lq_no_such_table'));
    }

    public static function badArguments(): array
    {
        $long = str_repeat('n', 256);

        return [
            'empty name' => ['', null, [], \ValueError::class, 'task name is empty'],
            'long name' => [$long, null, [], \ValueError::class, 'task name is 256 bytes, over the 255-byte limit'],
            'not UTF-8' => ["bad\xff", null, [], \ValueError::class, 'task name is not valid UTF-8'],
            'NUL' => ["a\0b", null, [], \ValueError::class, 'task name contains a NUL byte'],
            'empty queue' => ['job', null, ['queue' => ''], \ValueError::class, 'queue name is empty'],
            'long unique key' => ['job', null, ['unique' => $long], \ValueError::class, 'unique key is 256 bytes'],
            'payload' => ['job', str_repeat('p', 8 * 1024 * 1024 + 1), [], \ValueError::class, 'payload is 8388609 bytes, over the 8388608-byte limit'],
            'max attempts' => ['job', null, ['maxAttempts' => 1001], \ValueError::class, 'max attempts must be 1 to 1000'],
            'negative delay' => ['job', null, ['delay' => -1], \ValueError::class, 'delay must not be negative'],
            'bad duration' => ['job', null, ['delay' => '5 minutes'], \ValueError::class, '"5 minutes" is not a duration'],
            'long delay' => ['job', null, ['delay' => '36501d'], \ValueError::class, 'delay must be between 0 and 100 years'],
            'long timeout' => ['job', null, ['timeout' => '367d'], \ValueError::class, 'timeout must be between 0 and a year'],
            'priority' => ['job', null, ['priority' => 2 ** 31], \ValueError::class, 'priority must be a 32-bit integer'],
            'negative runAt' => ['job', null, ['runAt' => -5], \ValueError::class, 'run_at must not be negative'],
            'unknown option' => ['job', null, ['max_attempts' => 3], \ValueError::class, 'unknown option "max_attempts"'],
            'recurring' => ['job', null, ['every' => '5m'], \ValueError::class, 'needs Leaseq\Db::add'],
            'priority type' => ['job', null, ['priority' => '1'], \TypeError::class, 'option "priority" must be an int'],
            'runAt type' => ['job', null, ['runAt' => '2030-01-01'], \TypeError::class, 'option "runAt" must be a DateTimeInterface'],
        ];
    }

    /**
     * @dataProvider badArguments
     */
    public function testBadArgumentsChangeNothing(string $name, ?string $payload, array $options, string $class, string $message)
    {
        $pdo = Support::pdo();
        $options += ['queue' => $this->queue];
        try {
            Pdo::enqueue($pdo, $name, $payload, $options);
            $this->fail('no exception');
        } catch (\Throwable $e) {
            $this->assertInstanceOf($class, $e);
            $this->assertStringContainsString($message, $e->getMessage());
        }
        try {
            Pdo::enqueueMany($pdo, [['name' => 'job', 'queue' => $this->queue], ['name' => $name, 'payload' => $payload] + $options]);
            $this->fail('no exception');
        } catch (\Throwable $e) {
            $this->assertInstanceOf($class, $e);
            $this->assertStringStartsWith('tasks[1]: ', $e->getMessage());
        }
        $this->assertSame([], $this->live());
    }

    public function testEnqueueManyAllOrNothing()
    {
        $pdo = Support::pdo();
        $key = $this->queue.'-k';
        $ids = Pdo::enqueueMany($pdo, [
            ['name' => 'job', 'payload' => 'a', 'queue' => $this->queue],
            ['name' => 'job', 'payload' => 'b', 'queue' => $this->queue, 'unique' => $key],
            ['name' => 'job', 'payload' => 'c', 'queue' => $this->queue, 'unique' => $key],
            ['name' => 'job', 'payload' => 'd', 'queue' => $this->queue, 'delay' => '1h'],
        ]);
        $this->assertCount(4, $ids);
        $this->assertSame($ids[1], $ids[2], 'a key repeated in the batch goes to its first task');
        $this->assertTrue($ids[0] < $ids[1] && $ids[1] < $ids[3], 'ids ascend in the order given');
        $this->assertFalse($pdo->inTransaction());
        $this->assertSame([], Pdo::enqueueMany($pdo, []));

        // Inside the application's transaction: its rollback takes them all.
        $pdo->beginTransaction();
        Pdo::enqueueMany($pdo, [['name' => 'job', 'payload' => 'e', 'queue' => $this->queue]]);
        $this->assertTrue($pdo->inTransaction());
        $pdo->rollBack();

        // A database failure half way: nothing of the batch stays, and the
        // application's transaction goes on (a savepoint) with what it did before.
        foreach ([false, true] as $inTransaction) {
            $failing = Support::pdo();
            $failing->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [FailingStatement::class]);
            if ($inTransaction) {
                $failing->beginTransaction();
                Pdo::enqueue($failing, 'job', 'kept', ['queue' => $this->queue]);
            }
            FailingStatement::$failAfter = 2;
            try {
                Pdo::enqueueMany($failing, [
                    ['name' => 'job', 'payload' => 'x', 'queue' => $this->queue],
                    ['name' => 'job', 'payload' => 'y', 'queue' => $this->queue],
                ]);
                $this->fail('no failure');
            } catch (\PDOException $e) {
                $this->assertSame('injected failure', $e->getMessage());
            }
            $this->assertSame($inTransaction, $failing->inTransaction());
            if ($inTransaction) {
                $failing->commit();
            }
        }
        $this->assertSame(['a', 'b', 'kept'], array_values($this->drain()));
    }
}

/* A statement whose execute() of an INSERT fails at the $failAfter-th call (a database failure in mid-batch). */
class FailingStatement extends \PDOStatement
{
    public static int $failAfter = 0;

    protected function __construct()
    {
    }

    public function execute(?array $params = null): bool
    {
        if (str_starts_with($this->queryString, 'INSERT') && 0 === --self::$failAfter) {
            throw new \PDOException('injected failure');
        }

        return parent::execute($params);
    }
}
