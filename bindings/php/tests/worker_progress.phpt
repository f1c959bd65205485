--TEST--
Worker: progress, snooze and a result from inside a handler; Db::progress() and Db::result()
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('p');
$export = $db->add('export', null, ['queue' => $q]);
$later = $db->add('later', null, ['queue' => $q, 'maxAttempts' => 1]);

$w = new Leaseq\Worker($db, [$q]);
$w->handle('export', function (Leaseq\Task $t) {
    var_dump(Leaseq\Worker::progress(40, 'exporting rows'));
    $p = lq_db()->progress($t->id);          // another handle: a web page polling
    var_dump($p['percent'], $p['message'], $p['at'] > 0);
    try {
        Leaseq\Worker::progress(101);
    } catch (ValueError $e) {
        echo "ValueError\n";
    }
    Leaseq\Worker::setResult("id,total\n7,42\n");
})->handle('later', function (Leaseq\Task $t) {
    Leaseq\Worker::snooze('1h');
});
var_dump($w->run(true)['ran']);
var_dump($db->task($export), $db->progress($export));
var_dump($db->result($export));
var_dump($db->result($later));
$t = $db->task($later);
var_dump($t->attempts, $t->dead, $db->history(['taskId' => $later]));
try {
    Leaseq\Worker::progress(1);
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
int(40)
string(14) "exporting rows"
bool(true)
ValueError
int(2)
NULL
NULL
string(14) "id,total
7,42
"
NULL
int(0)
bool(false)
array(0) {
}
Error: Worker::progress(): not inside a handler (it is for the task running now)
