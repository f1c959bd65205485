<?php

/*
 * A Messenger consumer for MessengerTest: runs a Worker on the leaseq queue
 * $argv[1] (failure transport: the queue $argv[2]) of LEASEQ_DSN until it
 * is idle and the queue is empty.  Each handling appends a line to the
 * file $argv[3]: "ok|poison N PID IN_TIME" (IN_TIME 1: not before the
 * message's time on the database clock); poison messages then throw.
 */

require __DIR__.'/bootstrap.php';

use Leaseq\Db;
use Leaseq\Symfony\Messenger\LeaseqTransport;
use Leaseq\Tests\Messenger\Setup;
use Leaseq\Tests\Messenger\TestMessage;

[, $queue, $failedQueue, $log] = $argv;
$dsn = getenv('LEASEQ_DSN');
$db = new Db($dsn);
$async = new LeaseqTransport($dsn, ['queue' => $queue, 'claim_ttl' => 30]);
$failed = new LeaseqTransport($dsn, ['queue' => $failedQueue]);
$handler = static function (TestMessage $m) use ($db, $log) {
    $line = sprintf("%s %d %d %d\n", $m->poison ? 'poison' : 'ok', $m->n, getmypid(), $db->now() >= $m->notBefore ? 1 : 0);
    file_put_contents($log, $line, \FILE_APPEND | \LOCK_EX);
    if ($m->poison) {
        throw new RuntimeException("poison message $m->n");
    }
};
$empty = static function () use ($db, $queue) {
    foreach ($db->queues() as $q) {
        if ($q['name'] === $queue && $q['tasks'] > 0) {
            return false;
        }
    }

    return true;
};
Setup::worker($async, $failed, $handler, $empty)->run(['sleep' => 50000]);
