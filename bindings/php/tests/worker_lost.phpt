--TEST--
Worker: a claim lost while the handler runs (the task was removed) is a LostException in the handler
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; if (!getenv('LEASECTL')) die('skip LEASECTL (leasectl) is not set'); ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('lost');
$id = $db->add('gone', null, ['queue' => $q]);
$w = new Leaseq\Worker($db, [$q], ['claimTtl' => '600ms']);
$w->handle('gone', function (Leaseq\Task $t) {
    try {
        // (On a slow machine the claim may be found lost as soon as
        // exec() returns.)
        exec(escapeshellarg(getenv('LEASECTL')) . ' --db ' . escapeshellarg(lq_dsn()) . " task rm {$t->id}");
        $end = microtime(true) + 10;
        while (microtime(true) < $end) {
            usleep(10000);
        }
        echo "not told\n";
    } catch (Leaseq\LostException $e) {
        echo get_class($e), ' ', $e->getCode(), "\n";
        throw $e;
    }
});
$r = $w->run(true);
var_dump($r['failed'], $db->task($id));
?>
--EXPECT--
Leaseq\LostException 2
int(1)
NULL
