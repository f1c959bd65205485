--TEST--
Worker: SIGTERM and SIGINT stop run() after the current task; pcntl handlers still run
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; if (!function_exists('proc_terminate')) die('skip no proc_terminate'); ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
foreach ([[15, false], [2, false], [15, true]] as [$sig, $pcntl]) {
    $q = lq_unique('sig');
    $first = $db->add('slow', null, ['queue' => $q]);
    $second = $db->add('slow', null, ['queue' => $q]);
    $code = '<?php
$db = new Leaseq\Db(getenv("LEASEQ_DSN"));
if (getenv("PCNTL")) {
    pcntl_async_signals(true);
    pcntl_signal(SIGTERM, function ($s) { echo "pcntl handler $s\n"; });
}
$w = new Leaseq\Worker($db, [getenv("Q")]);
$w->handle("slow", function ($t) {
    echo "started\n";
    $end = microtime(true) + 1;
    while (microtime(true) < $end) usleep(10000);
    echo "finished\n";
});
$r = $w->run();   // no drain: only a signal ends it
echo "stopped ", $r["stopped"], " ran ", $r["ran"], "\n";
';
    $f = tempnam(sys_get_temp_dir(), 'lqphp');
    file_put_contents($f, $code);
    $p = proc_open(lq_php($f), [1 => ['pipe', 'w']], $pipes, null,
        ['Q' => $q, 'PCNTL' => $pcntl ? '1' : ''] + getenv());
    echo fgets($pipes[1]);
    proc_terminate($p, $sig);
    echo stream_get_contents($pipes[1]);
    var_dump(proc_close($p));
    unlink($f);
    // The running task finished; the other one was not started.
    var_dump($db->history(['taskId' => $first])[0]['outcome'], $db->history(['taskId' => $second]));
}

// An idle worker stops too.
$q = lq_unique('sig');
$f = tempnam(sys_get_temp_dir(), 'lqphp');
file_put_contents($f, '<?php
$w = new Leaseq\Worker(new Leaseq\Db(getenv("LEASEQ_DSN")), [getenv("Q")]);
echo "ready\n";
echo $w->run()["stopped"], "\n";
');
$p = proc_open(lq_php($f), [1 => ['pipe', 'w']], $pipes, null, ['Q' => $q] + getenv());
echo fgets($pipes[1]);
usleep(300000);
proc_terminate($p, 15);
echo stream_get_contents($pipes[1]);
var_dump(proc_close($p));
unlink($f);
?>
--EXPECT--
started
finished
stopped signal ran 1
int(0)
string(4) "done"
array(0) {
}
started
finished
stopped signal ran 1
int(0)
string(4) "done"
array(0) {
}
started
pcntl handler 15
finished
stopped signal ran 1
int(0)
string(4) "done"
array(0) {
}
ready
signal
int(0)
