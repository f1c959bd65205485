--TEST--
Worker: a handler past its time limit gets a TimeoutException and the run is timed_out
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('to');
$own = $db->add('spin', null, ['queue' => $q, 'timeout' => '300ms', 'maxAttempts' => 2]);
$dflt = $db->add('stubborn', null, ['queue' => $q, 'maxAttempts' => 2]);
$fast = $db->add('fast', null, ['queue' => $q, 'timeout' => '30s']);
$w = new Leaseq\Worker($db, [$q], ['timeout' => 0.3]);
$w->handle('spin', function ($t) {
    try {
        while (true) {
            usleep(5000);
        }
    } catch (Leaseq\TimeoutException $e) {
        if ($t->attempts === 1) echo get_class($e), ' ', $e->getCode(), "\n";
        throw $e;
    }
});
// Catching it does not help: it comes again, and the run is timed out.
$w->handle('stubborn', function ($t) {
    $caught = 0;
    while ($caught < 3) {
        try {
            while (true) {
                usleep(5000);
            }
        } catch (Leaseq\TimeoutException $e) {
            $caught++;
        }
    }
    if ($t->attempts === 1) echo "caught $caught\n";
});
$w->handle('fast', fn() => null);
$r = $w->run(true);
// A slow machine may come back to a retried task before the drain ends.
var_dump($r['ran'], $r['failed'] >= 2);
foreach ([$own, $dflt] as $id) {
    $runs = $db->history(['taskId' => $id]);
    $h = end($runs);  // the first attempt
    var_dump($h['outcome'], str_contains($h['error'], 'time limit'));
}
var_dump($db->history(['taskId' => $fast])[0]['outcome']);
?>
--EXPECT--
Leaseq\TimeoutException 11
caught 3
int(1)
bool(true)
string(9) "timed_out"
bool(true)
string(9) "timed_out"
bool(true)
string(4) "done"
