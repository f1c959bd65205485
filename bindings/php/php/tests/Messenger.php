<?php

/*
 * The Messenger set-up of the transport's tests, shared by the tests and
 * the consumer processes they start (messenger-consumer.php): a message
 * class, a PSR-11 locator, the routing bus, and a Worker with Messenger's
 * own retry and failure-transport listeners.
 */

namespace Leaseq\Tests\Messenger;

use Leaseq\Symfony\Messenger\LeaseqTransport;
use Psr\Container\ContainerInterface;
use Symfony\Component\EventDispatcher\EventDispatcher;
use Symfony\Component\Messenger\Event\WorkerRunningEvent;
use Symfony\Component\Messenger\EventListener\SendFailedMessageForRetryListener;
use Symfony\Component\Messenger\EventListener\SendFailedMessageToFailureTransportListener;
use Symfony\Component\Messenger\Handler\HandlersLocator;
use Symfony\Component\Messenger\MessageBus;
use Symfony\Component\Messenger\Middleware\HandleMessageMiddleware;
use Symfony\Component\Messenger\Middleware\SendMessageMiddleware;
use Symfony\Component\Messenger\Retry\MultiplierRetryStrategy;
use Symfony\Component\Messenger\Transport\Sender\SendersLocator;
use Symfony\Component\Messenger\Worker;

final class TestMessage
{
    /**
     * @param int  $notBefore the database clock (epoch ms) before which it must not be handled
     * @param bool $poison    its handler always throws
     */
    public function __construct(public int $n, public int $notBefore = 0, public bool $poison = false)
    {
    }
}

final class Locator implements ContainerInterface
{
    public function __construct(private array $services)
    {
    }

    public function get(string $id): mixed
    {
        return $this->services[$id];
    }

    public function has(string $id): bool
    {
        return isset($this->services[$id]);
    }
}

final class Setup
{
    public const RETRIES = 2;
    public const RETRY_DELAY_MS = 200;

    /** A bus that sends TestMessage to the transport "async" and hands received ones to $handler. */
    public static function bus(LeaseqTransport $async, ?callable $handler = null): MessageBus
    {
        return new MessageBus([
            new SendMessageMiddleware(new SendersLocator([TestMessage::class => ['async']], new Locator(['async' => $async]))),
            new HandleMessageMiddleware(new HandlersLocator([TestMessage::class => $handler ? [$handler] : []]), null === $handler),
        ]);
    }

    /**
     * A Worker on $async: a failed message is retried RETRIES times after
     * RETRY_DELAY_MS (Messenger re-sends it), then sent to $failed; the
     * worker stops when it is idle and $async has no task left.
     */
    public static function worker(LeaseqTransport $async, LeaseqTransport $failed, callable $handler, callable $empty): Worker
    {
        $events = new EventDispatcher();
        $events->addSubscriber(new SendFailedMessageForRetryListener(new Locator(['async' => $async]),
            new Locator(['async' => new MultiplierRetryStrategy(self::RETRIES, self::RETRY_DELAY_MS, 1)])));
        $events->addSubscriber(new SendFailedMessageToFailureTransportListener(new Locator(['async' => $failed])));
        $worker = new Worker(['async' => $async], self::bus($async, $handler), $events);
        $events->addListener(WorkerRunningEvent::class, static function (WorkerRunningEvent $e) use ($empty) {
            if ($e->isWorkerIdle() && $empty()) {
                $e->getWorker()->stop();
            }
        });

        return $worker;
    }
}
