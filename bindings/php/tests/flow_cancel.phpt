--TEST--
Db::cancelTask: a waiting task, a claimed one (RevokedException), a running Worker handler, a missing id
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$other = new Leaseq\Db(lq_dsn());
$q = lq_unique('cancel');

// Waiting: cancelled, never runs; its history says so.
$id = $db->add('c-wait', null, ['queue' => $q]);
var_dump($db->cancelTask($id, 'not needed'));
var_dump($db->task($id));
$runs = $db->history(['taskId' => $id]);
var_dump(count($runs), $runs[0]['outcome'], $runs[0]['error'], $runs[0]['attempt']);
var_dump($db->cancelTask($id));         // gone: null, as remove() answers false

// Claimed at least once: the claim is revoked.
$id = $db->add('c-claim', null, ['queue' => $q]);
[$t] = $db->claim($q);
var_dump($other->cancelTask($id));
foreach (['heartbeat', 'ack'] as $m) {
    try {
        $db->$m($t);
        echo "$m: no exception\n";
    } catch (Leaseq\RevokedException $e) {
        echo "$m: ", get_class($e), ' ', $e->getCode(), "\n";
    }
}

// Claimed at most once: nothing is left to cancel.
$id = $db->add('c-once', null, ['queue' => $q]);
[$t] = $db->claim($q, 1, false);
var_dump($db->cancelTask($id));

// A Worker's running handler hears of it at its next heartbeat.
$id = $db->add('c-run', null, ['queue' => $q]);
$w = new Leaseq\Worker($db, [$q], ['claimTtl' => '600ms']);
$w->handle('c-run', function (Leaseq\Task $t) use ($other) {
    try {
        var_dump($other->cancelTask($t->id, 'stop it'));
        $end = microtime(true) + 10;
        while (microtime(true) < $end) {
            usleep(10000);
        }
        echo "not told\n";
    } catch (Leaseq\RevokedException $e) {
        echo get_class($e), ' ', $e->getCode(), "\n";
        throw $e;
    }
});
$r = $w->run(true);
var_dump($r['ran'], $db->task($id));
$runs = $db->history(['taskId' => $id]);
var_dump(count($runs), $runs[0]['outcome'], $runs[0]['error']);

// So does an at-most-once Worker's (its run is cancellable while it runs).
$id = $db->add('c-once-run', null, ['queue' => $q]);
$w = new Leaseq\Worker($db, [$q], ['atLeastOnce' => false, 'claimTtl' => '600ms']);
$w->handle('c-once-run', function (Leaseq\Task $t) use ($other) {
    try {
        var_dump($other->cancelTask($t->id, 'stop it too'));
        $end = microtime(true) + 10;
        while (microtime(true) < $end) {
            usleep(10000);
        }
        echo "not told\n";
    } catch (Leaseq\RevokedException $e) {
        echo get_class($e), ' ', $e->getCode(), "\n";
        throw $e;
    }
});
$r = $w->run(true);
$runs = $db->history(['taskId' => $id]);
var_dump($r['ran'], count($runs), $runs[0]['outcome'], $runs[0]['error']);

// Bad arguments.
foreach ([[0, null], [1, "two\nlines"], [1, str_repeat('x', 300)]] as [$i, $why]) {
    try {
        $db->cancelTask($i, $why);
    } catch (ValueError $e) {
        echo get_class($e), "\n";
    }
}
try {
    $db->cancelTask('x');
} catch (TypeError $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
bool(false)
NULL
int(1)
string(9) "cancelled"
string(10) "not needed"
int(0)
NULL
bool(true)
heartbeat: Leaseq\RevokedException 18
ack: Leaseq\RevokedException 18
NULL
bool(true)
Leaseq\RevokedException 18
int(0)
NULL
int(1)
string(9) "cancelled"
string(7) "stop it"
bool(true)
Leaseq\RevokedException 18
int(0)
int(1)
string(9) "cancelled"
string(11) "stop it too"
ValueError
ValueError
ValueError
TypeError
