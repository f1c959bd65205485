<?php

/*
 * The leaseq Messenger transport on the backend of LEASEQ_DSN: its DSNs,
 * send/get/ack/reject with counts, list and find; and a real MessageBus
 * with two Worker processes: every message handled exactly once, none
 * before its DelayStamp, a throwing handler retried by Messenger then
 * found in the failure transport (another leaseq queue).
 */

namespace Leaseq\Tests;

use Leaseq\Db;
use Leaseq\Symfony\Messenger\LeaseqReceivedStamp;
use Leaseq\Symfony\Messenger\LeaseqTransport;
use Leaseq\Symfony\Messenger\LeaseqTransportFactory;
use Leaseq\Tests\Messenger\Setup;
use Leaseq\Tests\Messenger\TestMessage;
use PHPUnit\Framework\TestCase;
use Symfony\Component\Messenger\Envelope;
use Symfony\Component\Messenger\Exception\InvalidArgumentException;
use Symfony\Component\Messenger\Exception\MessageDecodingFailedException;
use Symfony\Component\Messenger\Stamp\DelayStamp;
use Symfony\Component\Messenger\Stamp\RedeliveryStamp;
use Symfony\Component\Messenger\Stamp\SentToFailureTransportStamp;
use Symfony\Component\Messenger\Stamp\TransportMessageIdStamp;
use Symfony\Component\Messenger\Transport\Serialization\PhpSerializer;

/**
 * @requires function Symfony\Component\Messenger\Envelope::wrap
 */
class MessengerTest extends TestCase
{
    private string $queue;

    protected function setUp(): void
    {
        $this->queue = 'messenger-'.bin2hex(random_bytes(6));
    }

    private function transport(string $suffix = '', array $options = []): LeaseqTransport
    {
        return new LeaseqTransport(Support::dsn(), ['queue' => $this->queue.$suffix] + $options);
    }

    public function testDsns()
    {
        $this->assertSame([null, ['queue' => 'jobs']], LeaseqTransport::parseDsn('leaseq://?queue=jobs'));
        $this->assertSame([null, []], LeaseqTransport::parseDsn('leaseq:'));
        $this->assertSame(['postgresql://u:p@h/db?sslmode=disable', ['queue' => 'a b', 'claim_ttl' => '5m']],
            LeaseqTransport::parseDsn('leaseq://?dsn='.urlencode('postgresql://u:p@h/db?sslmode=disable').'&queue=a+b&claim_ttl=5m'));
        $this->assertSame(['sqlite:var/app.db?synchronous=normal', ['queue' => 'q', 'max_attempts' => '5']],
            LeaseqTransport::parseDsn('leaseq+sqlite:var/app.db?queue=q&synchronous=normal&max_attempts=5'));
        $this->assertSame(['mysql://u:p@h:3306/db', ['persistent' => '1']], LeaseqTransport::parseDsn('leaseq+mysql://u:p@h:3306/db?persistent=1'));
        $factory = new LeaseqTransportFactory();
        $this->assertTrue($factory->supports('leaseq://', []));
        $this->assertTrue($factory->supports('leaseq+postgres://h/db', []));
        $this->assertFalse($factory->supports('doctrine://default', []));
        foreach (['leaseq://db?queue=q', 'leaseq://?queu=q', 'leaseq+redis://h', 'sqlite:x.db'] as $bad) {
            try {
                LeaseqTransport::parseDsn($bad);
                $this->fail("$bad was taken");
            } catch (InvalidArgumentException $e) {
            }
        }
        $this->expectException(InvalidArgumentException::class);
        new LeaseqTransport(null, ['queue_name' => 'x']);
    }

    /**
     * @requires extension leaseq
     */
    public function testSendGetAckRejectListFind()
    {
        $t = (new LeaseqTransportFactory())->createTransport('leaseq://?queue='.urlencode($this->queue).'&dsn='.urlencode(Support::dsn()),
            ['transport_name' => 'async'], new PhpSerializer());
        $this->assertSame(0, $t->getMessageCount());
        $sent = [];
        foreach ([1, 2, 3] as $n) {
            $sent[$n] = $t->send(new Envelope(new TestMessage($n), 3 === $n ? [new DelayStamp(3600000)] : []));
        }
        $ids = array_map(fn (Envelope $e) => $e->last(TransportMessageIdStamp::class)->getId(), $sent);
        $this->assertSame(2, $t->getMessageCount(), 'the delayed message is not waiting yet');
        $task = (new Db(Support::dsn()))->task($ids[1]);
        $this->assertSame([TestMessage::class, $this->queue], [$task->name, $task->queue]);
        $this->assertGreaterThanOrEqual($task->createdAtMs + 3600000, (new Db(Support::dsn()))->task($ids[3])->runAtMs);

        $listed = iterator_to_array($t->all());
        $this->assertSame([1, 2, 3], array_map(fn (Envelope $e) => $e->getMessage()->n, $listed));
        $this->assertCount(2, iterator_to_array($t->all(2)));
        $found = $t->find($ids[2]);
        $this->assertSame(2, $found->getMessage()->n);
        $this->assertSame($ids[2], $found->last(LeaseqReceivedStamp::class)->getId());
        $this->assertNull($t->find(PHP_INT_MAX));
        $this->assertNull($this->transport('-other')->find($ids[2]), 'another queue\'s message');

        [$first] = $t->get();
        $this->assertSame(1, $first->getMessage()->n);
        $this->assertSame($ids[1], $first->last(TransportMessageIdStamp::class)->getId());
        [$second] = $t->get();
        $this->assertSame(2, $second->getMessage()->n);
        $this->assertSame([], $t->get(), 'the third is not due');
        $t->heartbeat($first);
        $t->ack($first);
        $t->reject($second);
        $this->assertNull($t->find($ids[1]));
        $this->assertNull($t->find($ids[2]));
        $this->assertSame([3], array_map(fn (Envelope $e) => $e->getMessage()->n, iterator_to_array($t->all())));
        $this->assertSame(0, $t->getMessageCount());
    }

    /**
     * What messenger:failed:remove ID and messenger:failed:retry ID do: a
     * message find() returned is rejected or acknowledged; the others stay,
     * in their order, their attempts untouched.
     *
     * @requires extension leaseq
     */
    public function testAFoundMessageCanBeRemoved()
    {
        $t = $this->transport();
        $ids = [];
        foreach ([1, 2, 3, 4] as $n) {
            $ids[$n] = $t->send(new Envelope(new TestMessage($n)))->last(TransportMessageIdStamp::class)->getId();
        }
        $t->reject($t->find($ids[3]));
        $this->transport()->ack($this->transport()->find($ids[1]));
        $this->assertNull($t->find($ids[3]));
        $this->assertNull($t->find($ids[1]));
        $this->assertSame(2, $t->getMessageCount());
        $db = new Db(Support::dsn());
        $this->assertSame([0, 0], [$db->task($ids[2])->attempts, $db->task($ids[4])->attempts]);
        $got = [];
        while ($envelopes = $t->get()) {
            $got[] = $envelopes[0]->getMessage()->n;
            $t->ack($envelopes[0]);
        }
        $this->assertSame([2, 4], $got);
    }

    /**
     * reject() deletes the message: the run history records no "done" run
     * for it (ack() does), whether get() claimed it or find() returned it
     * (messenger:failed:remove ID), and a found message is removed without
     * claiming the others of the queue.
     *
     * @requires extension leaseq
     */
    public function testARejectedMessageIsNotRecordedAsDone()
    {
        $t = $this->transport();
        $ids = [];
        foreach ([1, 2, 3] as $n) {
            $ids[$n] = $t->send(new Envelope(new TestMessage($n)))->last(TransportMessageIdStamp::class)->getId();
        }
        [$first] = $t->get();
        $this->assertSame(1, $first->getMessage()->n);
        $t->reject($first);
        $this->transport()->reject($this->transport()->find($ids[3]));
        [$second] = $t->get();
        $t->ack($second);
        $db = new Db(Support::dsn());
        foreach ([1, 3] as $n) {
            $this->assertNull($db->task($ids[$n]));
            $this->assertSame([], array_column($db->history(['taskId' => $ids[$n]]), 'outcome'), "message $n was rejected");
        }
        $this->assertSame(['done'], array_column($db->history(['taskId' => $ids[2]]), 'outcome'));
        $this->assertSame(0, $t->getMessageCount());
    }

    /**
     * @requires extension leaseq
     */
    public function testAClaimLostToAnExpiryIsDeliveredAgain()
    {
        $a = $this->transport('', ['claim_ttl' => '200ms']);
        $a->send(new Envelope(new TestMessage(7)));
        [$envelope] = $a->get();
        $b = $this->transport();
        for ($deadline = microtime(true) + 10, $again = []; !$again && microtime(true) < $deadline; usleep(50000)) {
            $again = $b->get();
        }
        $this->assertCount(1, $again, 'the message came back once the claim expired');
        $this->assertSame(7, $again[0]->getMessage()->n);
        $b->ack($again[0]);
        $this->expectException(\Symfony\Component\Messenger\Exception\TransportException::class);
        $a->ack($envelope);
    }

    /**
     * @requires extension leaseq
     */
    public function testWhatIsNoMessageIsDroppedOnce()
    {
        $db = new Db(Support::dsn());
        $id = $db->add('not-messenger', 'plain text', ['queue' => $this->queue]);
        $t = $this->transport();
        try {
            $t->get();
            $this->fail('a task that is no message was delivered');
        } catch (MessageDecodingFailedException $e) {
        }
        $this->assertNull($db->task($id));
        $this->assertSame([], $t->get());
    }

    /**
     * @requires extension leaseq
     */
    public function testTwoWorkersHandleEachMessageOnceRetryThenFailureTransport()
    {
        $db = new Db(Support::dsn());
        $bus = Setup::bus($this->transport());
        $expected = $poison = [];
        for ($n = 1; $n <= 30; ++$n) {
            $delay = 0 === $n % 5 ? 1500 : 0;
            $m = new TestMessage($n, $db->now() + $delay, 3 === $n % 10);
            $bus->dispatch($m, $delay ? [new DelayStamp($delay)] : []);
            if ($m->poison) {
                $poison[] = $n;
            } else {
                $expected[] = $n;
            }
        }

        $log = tempnam(sys_get_temp_dir(), 'leaseq-messenger');
        $procs = [];
        foreach ([1, 2] as $i) {
            $procs[] = proc_open([\PHP_BINARY, '-d', 'extension='.getenv('LEASEQ_PHP_EXT'), __DIR__.'/messenger-consumer.php',
                $this->queue, $this->queue.'-failed', $log], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
            $outs[] = $pipes[1];
        }
        $said = '';
        foreach ($procs as $i => $p) {
            $said .= stream_get_contents($outs[$i]);
            $this->assertSame(0, proc_close($p), "consumer $i: $said");
        }
        $lines = file($log, \FILE_IGNORE_NEW_LINES);
        unlink($log);

        $handled = $attempts = [];
        foreach ($lines as $line) {
            [$kind, $n, , $inTime] = explode(' ', $line);
            $this->assertSame('1', $inTime, "message $n was handled before its time");
            if ('ok' === $kind) {
                $handled[] = (int) $n;
            } else {
                $attempts[(int) $n] = ($attempts[(int) $n] ?? 0) + 1;
            }
        }
        sort($handled);
        // Two consumers: the poison messages' first failures come in any order.
        ksort($attempts);
        $this->assertSame($expected, $handled, 'each message handled exactly once');
        $this->assertSame(array_fill_keys($poison, 1 + Setup::RETRIES), $attempts, 'each poison message tried 1 + retries times');

        $async = $this->transport();
        $this->assertSame(0, $async->getMessageCount());
        $this->assertSame([], iterator_to_array($async->all()));
        $failed = $this->transport('-failed');
        $this->assertSame(\count($poison), $failed->getMessageCount());
        $dead = iterator_to_array($failed->all());
        $failedNs = array_map(fn (Envelope $e) => $e->getMessage()->n, $dead);
        sort($failedNs);
        $this->assertSame($poison, $failedNs, 'the poison messages, each once, in the failure transport');
        foreach ($dead as $e) {
            $this->assertNotNull($e->last(SentToFailureTransportStamp::class));
            // One RedeliveryStamp per retry, and the failure transport's own.
            $this->assertCount(Setup::RETRIES + 1, $e->all(RedeliveryStamp::class));
            $this->assertSame($e->getMessage()->n, $failed->find($e->last(TransportMessageIdStamp::class)->getId())->getMessage()->n);
        }
    }
}
