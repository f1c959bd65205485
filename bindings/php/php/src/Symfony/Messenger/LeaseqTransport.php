<?php

/*
 * Leaseq\Symfony\Messenger\LeaseqTransport - a Symfony Messenger transport
 * on ext-leaseq: a message is a leaseq task in one queue.
 *
 * send() enqueues (Leaseq\Db::add), DelayStamp as the task's delay on the
 * database clock.  get() claims one task at least once with a claim TTL
 * (claim_ttl, default one hour: longer than any handler should run); a
 * consumer that dies leaves the claim to expire and the message is
 * delivered again.  Every get() renews the claims this transport still
 * holds, and heartbeat() renews one from inside a long handler.  ack()
 * finishes the task (a "done" run in its history), reject() deletes it
 * (Leaseq\Db::remove: no run recorded).  A message find() returned
 * (messenger:failed:remove ID, messenger:failed:retry ID) is settled by
 * deleting it, without a claim.  Messenger's own retries
 * (RedeliveryStamp + DelayStamp) are new sends, so retry strategies and
 * failure transports (another leaseq queue) work as with any transport.
 *
 * The payload is JSON: {"body": ..., "headers": {...}} as the serializer
 * encoded it ("body64", base64, when the body is not UTF-8); the task's
 * name is the message's class (what `leasectl task list` shows).
 */

namespace Leaseq\Symfony\Messenger;

use Leaseq\Db;
use Leaseq\LostException;
use Leaseq\Task;
use Symfony\Component\Messenger\Envelope;
use Symfony\Component\Messenger\Exception\InvalidArgumentException;
use Symfony\Component\Messenger\Exception\LogicException;
use Symfony\Component\Messenger\Exception\MessageDecodingFailedException;
use Symfony\Component\Messenger\Exception\TransportException;
use Symfony\Component\Messenger\Stamp\DelayStamp;
use Symfony\Component\Messenger\Stamp\TransportMessageIdStamp;
use Symfony\Component\Messenger\Transport\Receiver\ListableReceiverInterface;
use Symfony\Component\Messenger\Transport\Receiver\MessageCountAwareInterface;
use Symfony\Component\Messenger\Transport\Serialization\PhpSerializer;
use Symfony\Component\Messenger\Transport\Serialization\SerializerInterface;
use Symfony\Component\Messenger\Transport\SetupableTransportInterface;
use Symfony\Component\Messenger\Transport\TransportInterface;

class LeaseqTransport implements TransportInterface, MessageCountAwareInterface, ListableReceiverInterface, SetupableTransportInterface
{
    public const DEFAULT_OPTIONS = [
        'queue' => 'default',    // the leaseq queue of this transport's messages
        'claim_ttl' => 3600,     // seconds (or "90s", "5m"...) a get() holds a message
        'max_attempts' => 3,     // deliveries of one send (a consumer that died counts)
        'persistent' => false,   // keep the connection for the next request (PHP-FPM)
    ];
    private const BACKENDS = ['sqlite', 'postgres', 'postgresql', 'mysql', 'mariadb'];
    /* Task names are at most 255 bytes (LQ_NAME_MAX). */
    private const NAME_MAX = 255;

    private ?Db $db;
    private ?string $dsn;
    private array $options;
    private SerializerInterface $serializer;
    /** @var array<int, Task> the claims get() handed out and nobody settled yet */
    private array $claimed = [];

    /**
     * @param Db|string|null $db a Leaseq\Db, or a leaseq DSN to open one with on first
     *                           use (null: LEASEQ_DSN, else the library's default)
     */
    public function __construct(Db|string|null $db = null, array $options = [], ?SerializerInterface $serializer = null)
    {
        $unknown = array_diff_key($options, self::DEFAULT_OPTIONS);
        if ($unknown) {
            throw new InvalidArgumentException(sprintf('Unknown option(s) "%s" of the leaseq transport (known: %s).',
                implode('", "', array_keys($unknown)), implode(', ', array_keys(self::DEFAULT_OPTIONS))));
        }
        $options += self::DEFAULT_OPTIONS;
        if (!\is_string($options['queue']) || '' === $options['queue']) {
            throw new InvalidArgumentException('The leaseq transport\'s "queue" must be a queue name.');
        }
        if (is_numeric($options['claim_ttl'])) {
            $options['claim_ttl'] += 0; // "90" from a DSN: seconds
        }
        $attempts = filter_var($options['max_attempts'], \FILTER_VALIDATE_INT);
        if (false === $attempts) {
            throw new InvalidArgumentException('The leaseq transport\'s "max_attempts" must be an integer.');
        }
        $options['max_attempts'] = $attempts;
        $options['persistent'] = filter_var($options['persistent'], \FILTER_VALIDATE_BOOLEAN);
        $this->db = $db instanceof Db ? $db : null;
        $this->dsn = \is_string($db) ? $db : null;
        $this->options = $options;
        $this->serializer = $serializer ?? new PhpSerializer();
    }

    /**
     * Splits a transport DSN into the leaseq DSN and the transport's options.
     *   leaseq://?queue=Q&dsn=URLENCODED_LEASEQ_DSN   (no dsn: LEASEQ_DSN, else the default)
     *   leaseq+sqlite:var/app.db?queue=Q              (leaseq DSN sqlite:var/app.db)
     *   leaseq+postgresql://user:pass@host/db?queue=Q&sslmode=require
     *   leaseq+mysql://user:pass@host:3306/db?queue=Q
     * The transport's options (queue, claim_ttl, max_attempts, persistent)
     * are taken out of the query; the rest of it stays in the leaseq DSN.
     *
     * @return array{0: ?string, 1: array<string, string>}
     */
    public static function parseDsn(string $dsn): array
    {
        if (0 === strncmp($dsn, 'leaseq+', 7)) {
            $rest = substr($dsn, 7);
            $scheme = strstr($rest, ':', true);
            if (!\in_array($scheme, self::BACKENDS, true)) {
                throw new InvalidArgumentException(sprintf('The leaseq transport DSN must start with leaseq: or leaseq+BACKEND: (BACKEND: %s).', implode(', ', self::BACKENDS)));
            }
            [$base, $options] = self::splitQuery($rest, false);

            return [$base, $options];
        }
        if (0 !== strncmp($dsn, 'leaseq:', 7)) {
            throw new InvalidArgumentException('The leaseq transport DSN must start with leaseq: or leaseq+BACKEND:.');
        }
        [$base, $options] = self::splitQuery(substr($dsn, 7), true);
        if ('' !== $base && '//' !== $base) {
            throw new InvalidArgumentException('The leaseq: transport DSN names its database as ?dsn=URLENCODED_DSN (or use leaseq+BACKEND:...).');
        }
        $leaseqDsn = $options['dsn'] ?? null;
        unset($options['dsn']);

        return [$leaseqDsn, $options];
    }

    /* base and ?query; the transport's keys out of the query, others kept in base unless $strict. */
    private static function splitQuery(string $text, bool $strict): array
    {
        $q = strpos($text, '?');
        if (false === $q) {
            return [$text, []];
        }
        $base = substr($text, 0, $q);
        $options = $kept = [];
        foreach (explode('&', substr($text, $q + 1)) as $part) {
            if ('' === $part) {
                continue;
            }
            $kv = explode('=', $part, 2);
            $k = urldecode($kv[0]);
            if (\array_key_exists($k, self::DEFAULT_OPTIONS) || ($strict && 'dsn' === $k)) {
                $options[$k] = urldecode($kv[1] ?? '');
            } elseif ($strict) {
                throw new InvalidArgumentException(sprintf('Unknown option "%s" in the leaseq: transport DSN.', $k));
            } else {
                $kept[] = $part;
            }
        }

        return [$kept ? $base.'?'.implode('&', $kept) : $base, $options];
    }

    public function send(Envelope $envelope): Envelope
    {
        $encoded = $this->serializer->encode($envelope);
        $body = (string) ($encoded['body'] ?? '');
        $doc = preg_match('//u', $body) ? ['body' => $body] : ['body64' => base64_encode($body)];
        $doc['headers'] = $encoded['headers'] ?? [];
        $options = ['queue' => $this->options['queue'], 'maxAttempts' => $this->options['max_attempts']];
        $delay = $envelope->last(DelayStamp::class);
        if (null !== $delay && $delay->getDelay() > 0) {
            $options['delay'] = $delay->getDelay().'ms';
        }
        $name = \get_class($envelope->getMessage());
        if (\strlen($name) > self::NAME_MAX) {
            $name = 'messenger';
        }
        try {
            $id = $this->db()->add($name, json_encode($doc, \JSON_THROW_ON_ERROR | \JSON_UNESCAPED_SLASHES | \JSON_UNESCAPED_UNICODE), $options);
        } catch (\Leaseq\Exception|\JsonException $e) {
            throw new TransportException($e->getMessage(), 0, $e);
        }

        return $envelope->with(new TransportMessageIdStamp($id));
    }

    public function get(): iterable
    {
        $this->heartbeatAll();
        try {
            $tasks = $this->db()->claim($this->options['queue'], 1, true, $this->options['claim_ttl']);
        } catch (\Leaseq\Exception $e) {
            throw new TransportException($e->getMessage(), 0, $e);
        }
        $envelopes = [];
        foreach ($tasks as $task) {
            $this->claimed[$task->id] = $task;
            try {
                $envelopes[] = $this->envelope($task);
            } catch (MessageDecodingFailedException $e) {
                // Never delivered again (ReceiverInterface::get()).
                $this->settle($task->id, false);
                throw $e;
            }
        }

        return $envelopes;
    }

    public function ack(Envelope $envelope): void
    {
        $this->settle($this->id($envelope), true);
    }

    public function reject(Envelope $envelope): void
    {
        // The task goes: Messenger re-sends what it retries (a new task).
        $this->settle($this->id($envelope), false);
    }

    /**
     * Renews the claim on a message this transport's get() returned, for
     * claim_ttl from now; for a handler that may run longer than that.
     *
     * @throws TransportException when the claim was lost (it expired and
     *                            another consumer may have the message now)
     */
    public function heartbeat(Envelope $envelope): void
    {
        $id = $this->id($envelope);
        $task = $this->claimed[$id] ?? null;
        if (null === $task) {
            throw new LogicException(sprintf('The leaseq task %d was not claimed by this transport.', $id));
        }
        try {
            $this->db()->heartbeat($task, $this->options['claim_ttl']);
        } catch (\Leaseq\Exception $e) {
            if ($e instanceof LostException) {
                unset($this->claimed[$id]);
            }
            throw new TransportException($e->getMessage(), 0, $e);
        }
    }

    public function getMessageCount(): int
    {
        try {
            foreach ($this->db()->queues() as $q) {
                if ($q['name'] === $this->options['queue']) {
                    return $q['due'];
                }
            }
        } catch (\Leaseq\Exception $e) {
            throw new TransportException($e->getMessage(), 0, $e);
        }

        return 0;
    }

    public function all(?int $limit = null): iterable
    {
        try {
            $tasks = $this->db()->tasks($this->options['queue']);
        } catch (\Leaseq\Exception $e) {
            throw new TransportException($e->getMessage(), 0, $e);
        }
        foreach ($tasks as $listed) {
            if (null !== $limit && $limit-- <= 0) {
                return;
            }
            if (null !== $envelope = $this->find($listed->id)) {
                yield $envelope;
            }
        }
    }

    public function find($id): ?Envelope
    {
        if (!is_numeric($id) || (int) $id <= 0) {
            return null;
        }
        try {
            $task = $this->db()->task((int) $id);
        } catch (\Leaseq\Exception $e) {
            throw new TransportException($e->getMessage(), 0, $e);
        }
        if (null === $task || $task->dead || $task->queue !== $this->options['queue']) {
            return null;
        }
        try {
            return $this->envelope($task);
        } catch (MessageDecodingFailedException $e) {
            return null;
        }
    }

    /** Creates or upgrades leaseq's schema (messenger:setup-transports). */
    public function setup(): void
    {
        try {
            $this->db()->migrate();
        } catch (\Leaseq\Exception $e) {
            throw new TransportException($e->getMessage(), 0, $e);
        }
    }

    private function db(): Db
    {
        return $this->db ??= new Db($this->dsn, $this->options['persistent']);
    }

    private function envelope(Task $task): Envelope
    {
        $doc = json_decode((string) $task->payload, true);
        if (!\is_array($doc) || !\is_array($doc['headers'] ?? null)
            || !\is_string($body = $doc['body'] ?? (isset($doc['body64']) ? base64_decode((string) $doc['body64'], true) : null))) {
            throw new MessageDecodingFailedException(sprintf('The leaseq task %d is not a Messenger message.', $task->id));
        }
        $envelope = $this->serializer->decode(['body' => $body, 'headers' => $doc['headers']]);

        return $envelope->with(new LeaseqReceivedStamp($task->id), new TransportMessageIdStamp($task->id));
    }

    private function id(Envelope $envelope): int
    {
        $stamp = $envelope->last(LeaseqReceivedStamp::class);
        if (null === $stamp) {
            throw new LogicException('No LeaseqReceivedStamp found on the Envelope.');
        }

        return $stamp->getId();
    }

    /**
     * Ends a claim get() handed out: acknowledged ($done, a "done" run in the
     * history) or deleted.  A claim that was lost (it expired and another
     * consumer may have the message now) is a TransportException, and the
     * task is left to that consumer.  A message get() did not hand out (one
     * find() returned) is deleted by id.
     */
    private function settle(int $id, bool $done): void
    {
        $task = $this->claimed[$id] ?? null;
        unset($this->claimed[$id]);
        try {
            if (null === $task) {
                $this->db()->remove($id); // false: gone already, as wanted
            } elseif ($done) {
                $this->db()->ack($task);
            } else {
                // Still ours (LostException if not), then gone.
                $this->db()->heartbeat($task, $this->options['claim_ttl']);
                $this->db()->remove($id);
            }
        } catch (\Leaseq\Exception $e) {
            throw new TransportException($e->getMessage(), 0, $e);
        }
    }

    /* get() renews what this transport still holds: a handler of one may be running on. */
    private function heartbeatAll(): void
    {
        foreach ($this->claimed as $id => $task) {
            try {
                $this->db()->heartbeat($task, $this->options['claim_ttl']);
            } catch (LostException $e) {
                unset($this->claimed[$id]);
            } catch (\Leaseq\Exception $e) {
                throw new TransportException($e->getMessage(), 0, $e);
            }
        }
    }
}
