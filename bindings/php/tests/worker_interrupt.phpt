--TEST--
Worker: the time limit may pass anywhere: before a string interpolation, or in a loop made of one
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
lq_db()->close();
// In a fresh process, so that what lies in the handler's frame is what a
// worker would have there.  The limit passes during one long internal
// call; the next op starts a string built from parts (ROPE_INIT), where
// the TimeoutException is thrown.  Then a loop every check of which lands
// on the start of such a string.
[$st, $out] = lq_run_php('<?php
$db = new Leaseq\Db(getenv("LEASEQ_DSN"));
$q = "rope-" . getmypid();
$a = $db->add("after-call", null, ["queue" => $q, "timeout" => "300ms", "maxAttempts" => 1]);
$b = $db->add("rope-loop", null, ["queue" => $q, "timeout" => "300ms", "maxAttempts" => 1]);
$w = new Leaseq\Worker($db, [$q]);
$w->handle("after-call", function ($t) {
    exec("sleep 1", $out, $st);
    echo "slept: $st\n";
    $end = microtime(true) + 5;
    while (microtime(true) < $end) {
        usleep(10000);
    }
});
$w->handle("rope-loop", function ($t) {
    $n = 0;
    while (true) {
        $s = "{$t->name}-{$n}";
        $n++;
    }
});
$r = $w->run(true);
echo "failed ", $r["failed"], "\n";
foreach ([$a, $b] as $id) {
    $h = $db->history(["taskId" => $id])[0];
    echo $h["outcome"], " ", (int)str_contains($h["error"], "time limit"), "\n";
}
');
echo $out;
var_dump($st);
?>
--EXPECT--
failed 2
dead 1
dead 1
int(0)
