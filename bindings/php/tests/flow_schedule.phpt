--TEST--
Db::schedule / schedules / editSchedule / runNow / pauseTask, and the add() options overlap, catchUp, alertAfter
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('sched');
$id = $db->add('tick', null, ['queue' => $q, 'every' => 3600, 'overlap' => 'queue', 'catchUp' => 2, 'alertAfter' => '2h']);
$s = $db->schedule($id);
var_dump([$s['id'] === $id, $s['queue'] === $q, $s['name'], $s['everyMs'], $s['cron'], $s['paused']]);
var_dump([$s['overlap'], $s['catchUp'], $s['alertAfterMs'], $s['overdue'], $s['lastSuccessAt']]);
var_dump(in_array($id, array_column($db->schedules(), 'id'), true),
         in_array($id, array_column($db->schedules(true), 'id'), true));

$next = $db->editSchedule($id, cron: '0 3 * * *', tz: 'Europe/Paris');
var_dump($next > $db->now());
$s = $db->schedule($id);
var_dump([$s['everyMs'], $s['cron'], $s['tz']]);
var_dump($db->editSchedule($id, '90m') > $db->now(), $db->schedule($id)['everyMs']);

var_dump($db->runNow($id));
var_dump($db->schedule($id)['nextAt'] > 0);    // the regular occurrence set aside
try {
    $db->runNow($id);                           // a run-now is pending
} catch (Leaseq\BusyException $e) {
    echo get_class($e), "\n";
}
[$t] = $db->claim($q);
var_dump($t->id === $id);
$db->ack($t);
var_dump($db->schedule($id)['lastSuccessAt'] > 0);

var_dump($db->pauseTask($id), $db->schedule($id)['paused']);
try {
    $db->runNow($id);
} catch (Leaseq\BusyException $e) {
    echo get_class($e), "\n";
}
var_dump($db->pauseTask($id, false), $db->schedule($id)['paused']);

$one = $db->add('once', null, ['queue' => $q, 'delay' => '1h']);
var_dump($db->schedule($one));
try {
    $db->editSchedule($one, 60);                // not recurring: the library refuses it
} catch (ValueError $e) {
    echo get_class($e), "\n";
}
var_dump($db->runNow($one));
var_dump($db->claim($q, 1, false)[0]->id === $one);
var_dump($db->cancelTask($id));
var_dump($db->schedule($id), $db->runNow($id), $db->pauseTask($id), $db->editSchedule($id, 60));

// Bad arguments.
$id = $db->add('tick', null, ['queue' => $q, 'every' => 3600]);
$bad = [[null, null, null], [60, '* * * * *', null], [0, null, null], [null, 'not cron', null],
        [null, '* * * * *', 'Nowhere/Else'], [60, null, 'UTC']];
foreach ($bad as [$e, $c, $z]) {
    try {
        $db->editSchedule($id, $e, $c, $z);
        echo "no error\n";
    } catch (ValueError $ex) {
        echo 'V';
    }
}
echo "\n";
foreach ([['overlap' => 'sometimes', 'every' => 60], ['catchUp' => 0, 'every' => 60], ['catchUp' => 101, 'every' => 60],
          ['alertAfter' => 0, 'every' => 60], ['overlap' => 'skip'], ['catchUp' => 2], ['alertAfter' => '1h']] as $o) {
    try {
        $db->add('x', null, $o + ['queue' => $q]);
        echo "no error\n";
    } catch (ValueError $ex) {
        echo 'V';
    }
}
echo "\n";
foreach ([fn () => $db->add('x', null, ['overlap' => 1, 'every' => 60]), fn () => $db->editSchedule($id, [])] as $f) {
    try {
        $f();
        echo "no error\n";
    } catch (TypeError $ex) {
        echo 'T';
    }
}
echo "\n";
try {
    $db->schedule(0);
} catch (ValueError $ex) {
    echo "ValueError\n";
}
var_dump($db->schedule($id)['everyMs']);
$db->cancelTask($id);
?>
--EXPECT--
array(6) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  string(4) "tick"
  [3]=>
  int(3600000)
  [4]=>
  NULL
  [5]=>
  bool(false)
}
array(5) {
  [0]=>
  string(5) "queue"
  [1]=>
  int(2)
  [2]=>
  int(7200000)
  [3]=>
  bool(false)
  [4]=>
  int(0)
}
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  int(0)
  [1]=>
  string(9) "0 3 * * *"
  [2]=>
  string(12) "Europe/Paris"
}
bool(true)
int(5400000)
bool(true)
bool(true)
Leaseq\BusyException
bool(true)
bool(true)
bool(true)
bool(true)
Leaseq\BusyException
bool(true)
bool(false)
NULL
ValueError
bool(true)
bool(true)
bool(false)
NULL
bool(false)
bool(false)
NULL
VVVVVV
VVVVVVV
TT
ValueError
int(3600000)
