--TEST--
Db: open, backend, migrate, now, LEASEQ_DSN default, debug info, close
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = new Leaseq\Db(lq_dsn());
var_dump(in_array($db->backend(), ['sqlite', 'postgres', 'mysql'], true));
[$from, $to] = $db->migrate();
var_dump($to >= 1 && $from <= $to);
var_dump($db->migrate() === [$to, $to]);
var_dump(is_int($db->now()) && abs($db->now() - (int)(microtime(true) * 1000)) < 600000);

// No DSN: LEASEQ_DSN.
$d2 = new Leaseq\Db();
var_dump($d2->backend() === $db->backend());
$info = print_r($d2, true);
var_dump(str_contains($info, '[persistent] => ') && str_contains($info, '[dsn] => '));

$db->close();
$db->close(); // idempotent
try {
    $db->now();
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    clone $d2;
} catch (Error $e) {
    echo get_class($e), "\n";
}
try {
    serialize($d2);
} catch (Exception $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
Error: Leaseq\Db is closed
Error
Exception
