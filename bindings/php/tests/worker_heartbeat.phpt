--TEST--
Worker: heartbeats keep a claim alive while the handler runs longer than the claim TTL
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('hb');
$id = $db->add('long', null, ['queue' => $q]);
$other = lq_db();
$w = new Leaseq\Worker($db, [$q], ['claimTtl' => 1]);
$w->handle('long', function ($t) use ($other, $q) {
    // Three claim TTLs: without heartbeats the claim would have expired
    // and another worker could take the task.
    $end = microtime(true) + 3;
    $stolen = 0;
    while (microtime(true) < $end) {
        usleep(20000);
        foreach ($other->claim($q, 1, true, 30) as $s) {
            $stolen++;
            $other->release($s);
        }
    }
    echo "stolen $stolen\n";
});
$r = $w->run(true);
var_dump($r['ran'], $r['failed']);
$h = $db->history(['taskId' => $id]);
var_dump(count($h), $h[0]['outcome'], $h[0]['attempt']);
?>
--EXPECT--
stolen 0
int(1)
int(0)
int(1)
string(4) "done"
int(1)
