--TEST--
Leases across processes: encode/decode in another php, and a race of several processes
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();

// Another process takes the handle up, renews and releases it.
$name = lq_unique('enc');
$l = $db->acquire($name, 30);
[$st, $out] = lq_run_php('<?php
$db = new Leaseq\Db(getenv("LEASEQ_DSN"));
$l = Leaseq\Lease::decode($db, getenv("H"));
$l->renew(60);
echo $l->token, " ", var_export($l->isHeld(), true), " ", var_export($l->release(), true), "\n";
', ['H' => $l->encode()]);
var_dump($st, trim($out) === "{$l->token} true true");
var_dump($l->isHeld(), $db->lease($name)['owner']);

// A race: 4 processes take the lease 10 times each; each holder logs
// enter/exit while it holds it.  One holder at a time, tokens increasing.
$name = lq_unique('race');
$log = tempnam(sys_get_temp_dir(), 'lqrace');
$code = '<?php
$db = new Leaseq\Db(getenv("LEASEQ_DSN"));
for ($i = 0; $i < 10; $i++) {
    $l = $db->acquire(getenv("NAME"), 30, 60);
    file_put_contents(getenv("LOG"), "enter " . getmypid() . " " . $l->token . "\n", FILE_APPEND | LOCK_EX);
    usleep(2000);
    file_put_contents(getenv("LOG"), "exit " . getmypid() . " " . $l->token . "\n", FILE_APPEND | LOCK_EX);
    if (!$l->release()) { echo "lost\n"; exit(1); }
}
';
$f = tempnam(sys_get_temp_dir(), 'lqphp');
file_put_contents($f, $code);
$procs = [];
for ($i = 0; $i < 4; $i++) {
    $procs[] = proc_open(lq_php($f), [], $pipes, null, ['NAME' => $name, 'LOG' => $log] + getenv());
}
$fails = 0;
foreach ($procs as $p) {
    $fails += proc_close($p) !== 0;
}
unlink($f);
$lines = file($log, FILE_IGNORE_NEW_LINES);
unlink($log);
$holder = null;
$last = 0;
$bad = 0;
foreach ($lines as $line) {
    [$what, $pid, $token] = explode(' ', $line);
    if ($what === 'enter') {
        if ($holder !== null || (int)$token <= $last) $bad++;
        $holder = $pid;
        $last = (int)$token;
    } else {
        if ($holder !== $pid) $bad++;
        $holder = null;
    }
}
var_dump($fails, count($lines), $bad);
?>
--EXPECT--
int(0)
bool(true)
bool(false)
string(0) ""
int(0)
int(80)
int(0)
