--TEST--
Worker: a handler that runs a tick of its own keeps its own time limit afterwards
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('outer');
$iq = lq_unique('inner');
$db->add('inner', null, ['queue' => $iq]);
$outer = $db->add('outer', null, ['queue' => $q, 'timeout' => '1s', 'maxAttempts' => 1]);
$w = new Leaseq\Worker($db, [$q]);
$w->handle('outer', function ($t) use ($iq) {
    $r = Leaseq\Runner::tick(lq_db(), ['inner' => fn() => print("inner ran\n")], 5, ['queue' => $iq]);
    $end = microtime(true) + 10;    // past the outer task's limit
    while (microtime(true) < $end) {
        usleep(5000);
    }
    echo "not stopped\n";
});
$r = $w->run(true);
$h = $db->history(['taskId' => $outer])[0];
var_dump($r['failed'], $h['outcome'], str_contains($h['error'], 'time limit'));
?>
--EXPECT--
inner ran
int(1)
string(4) "dead"
bool(true)
