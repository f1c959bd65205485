--TEST--
Claims across processes: several php processes claim the same queue, each task runs once
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
foreach ([true, false] as $alo) {
    $q = lq_unique('race');
    $ids = $db->addMany(array_map(fn($i) => ['name' => 't', 'payload' => "$i", 'queue' => $q], range(1, 200)));
    $code = '<?php
$db = new Leaseq\Db(getenv("LEASEQ_DSN"));
$alo = getenv("ALO") === "1";
$idle = 0;
while ($idle < 3) {
    $ts = $db->claim(getenv("Q"), 5, $alo);
    if (!$ts) { $idle++; usleep(20000); continue; }
    $idle = 0;
    foreach ($ts as $t) {
        echo $t->id, "\n";
        if ($alo) $db->ack($t);
    }
}
';
    $f = tempnam(sys_get_temp_dir(), 'lqphp');
    file_put_contents($f, $code);
    $procs = [];
    for ($i = 0; $i < 4; $i++) {
        $procs[$i] = proc_open(lq_php($f), [1 => ['pipe', 'w']], $pipes[$i], null,
            ['Q' => $q, 'ALO' => $alo ? '1' : '0'] + getenv());
    }
    $seen = [];
    $st = 0;
    foreach ($procs as $i => $p) {
        foreach (explode("\n", trim(stream_get_contents($pipes[$i][1]))) as $id) {
            if ($id !== '') $seen[] = (int)$id;
        }
        $st |= proc_close($p);
    }
    unlink($f);
    sort($seen);
    var_dump($st, count($seen), $seen === $ids, count($db->tasks($q)));
}
?>
--EXPECT--
int(0)
int(200)
bool(true)
int(0)
int(0)
int(200)
bool(true)
int(0)
