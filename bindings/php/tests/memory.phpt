--TEST--
Memory: open/close, acquire/release, add/claim/ack and the worker in a loop keep memory flat
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('mem');
$name = lq_unique('mem');
$round = function () use ($db, $q, $name) {
    $x = new Leaseq\Db(lq_dsn());
    $x->close();
    $p = new Leaseq\Db(lq_dsn(), true);
    unset($p);
    $l = $db->acquire($name, 30);
    $h = Leaseq\Lease::decode($db, $l->encode());
    $l->renew();
    $l->release();
    unset($l, $h);
    $db->tryAcquire($name, 30);   // released by its destructor at once
    try {
        $db->acquire($name, -1);
    } catch (ValueError $e) {
    }
    $db->add('m', str_repeat('p', 100), ['queue' => $q]);
    foreach ($db->claim($q) as $t) {
        $db->ack($t);
    }
    $db->addMany([['name' => 'w', 'queue' => $q], ['name' => 'w', 'queue' => $q, 'payload' => 'x']]);
    $w = new Leaseq\Worker($db, [$q]);
    $w->handle('w', function ($t) use ($w) {
        if ($t->payload) throw new RuntimeException('x');
    });
    $w->run(true);
    $db->tasks($q, true);
    $db->history(['queue' => $q, 'limit' => 5]);
};
for ($i = 0; $i < 20; $i++) {
    $round();
}
gc_collect_cycles();
$before = memory_get_usage();
for ($i = 0; $i < 100; $i++) {
    $round();
}
gc_collect_cycles();
$grew = memory_get_usage() - $before;
echo $grew < 32768 ? "flat\n" : "grew by $grew bytes\n";
?>
--EXPECT--
flat
