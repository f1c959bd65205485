--TEST--
Db::remove: deletes a live or dead task by id; false when there is none
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('rm');

// A waiting task.
$id = $db->add('rm-live', 'p', ['queue' => $q]);
var_dump($db->remove($id));
var_dump($db->task($id));
var_dump($db->remove($id));             // gone already: false, as task() answers null

// A dead task.
$dead = $db->add('rm-dead', null, ['queue' => $q, 'maxAttempts' => 1]);
[$t] = $db->claim($q);
$db->fail($t, 'boom');
var_dump($db->task($dead)->dead);
var_dump($db->remove($dead));
var_dump($db->task($dead));

// A claimed one: removed under its claim, whose ack then finds it lost.
$claimed = $db->add('rm-claimed', null, ['queue' => $q]);
[$t] = $db->claim($q);
var_dump($db->remove($claimed));
try {
    $db->ack($t);
} catch (Leaseq\LostException $e) {
    echo "ack: lost\n";
}
var_dump($db->history(['taskId' => $claimed]));

// Not an id: ValueError before anything is sent.
try {
    $db->remove(0);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($db->tasks($q), $db->tasks($q, true));
?>
--EXPECT--
bool(true)
NULL
bool(false)
bool(true)
bool(true)
NULL
bool(true)
ack: lost
array(0) {
}
ValueError: Leaseq\Db::remove(): Argument #1 ($id) must be a task id (> 0)
array(0) {
}
array(0) {
}
