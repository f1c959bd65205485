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
        echo get_class($e), ' ', $e->getCode(), "\n";
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
    echo "caught $caught\n";
});
$w->handle('fast', fn() => null);
$r = $w->run(true);
var_dump($r['ran'], $r['failed']);
foreach ([$own, $dflt] as $id) {
    $h = $db->history(['taskId' => $id])[0];
    var_dump($h['outcome'], str_contains($h['error'], 'time limit'));
}
var_dump($db->history(['taskId' => $fast])[0]['outcome']);
?>
--EXPECT--
Leaseq\TimeoutException 11
caught 3
int(1)
int(2)
string(9) "timed_out"
bool(true)
string(9) "timed_out"
bool(true)
string(4) "done"
