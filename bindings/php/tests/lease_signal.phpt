--TEST--
Lease wait: with a pcntl handler, SIGTERM ends acquire()'s wait with CanceledException after the handler ran
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; if (!function_exists('proc_terminate')) die('skip no proc_terminate'); ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$name = lq_unique('wait');
$held = $db->acquire($name, 60);
$f = tempnam(sys_get_temp_dir(), 'lqphp');
file_put_contents($f, '<?php
pcntl_async_signals(true);
pcntl_signal(SIGTERM, function () { echo "pcntl handler\n"; });
$db = new Leaseq\Db(getenv("LEASEQ_DSN"));
echo "waiting\n";
try {
    $db->acquire(getenv("NAME"), 30, 60);
    echo "acquired?\n";
} catch (Leaseq\CanceledException $e) {
    echo "canceled\n";
}
// The next wait waits again (a cancel ends one wait).
try {
    $db->acquire(getenv("NAME"), 30, "300ms");
} catch (Leaseq\BusyException $e) {
    echo "busy\n";
}
');
$p = proc_open(lq_php($f), [1 => ['pipe', 'w']], $pipes, null, ['NAME' => $name] + getenv());
echo fgets($pipes[1]);
usleep(300000);
proc_terminate($p, 15);
// The application's handler runs first: pcntl would drop it once the
// CanceledException is pending.
echo stream_get_contents($pipes[1]);
var_dump(proc_close($p));
unlink($f);
var_dump($held->isHeld());
?>
--EXPECT--
waiting
pcntl handler
canceled
busy
int(0)
bool(true)
