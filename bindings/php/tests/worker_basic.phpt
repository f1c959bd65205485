--TEST--
Worker: handlers run in-process, an exception is a failed attempt with its message; Runner::tick
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('w');
$ok = $db->add('greet', 'world', ['queue' => $q]);
$bad = $db->add('boom', null, ['queue' => $q, 'maxAttempts' => 2]);
$dead = $db->add('boom', null, ['queue' => $q, 'maxAttempts' => 1]);
$any = $db->add('other', 'x', ['queue' => $q]);

$w = new Leaseq\Worker($db, [$q]);
$same = $w->handle('greet', function (Leaseq\Task $t) {
    echo "hello {$t->payload} (attempt {$t->attempts})\n";
    return 'ignored';
})->handle('boom', function (Leaseq\Task $t) {
    throw new DomainException("kaput {$t->id}");
})->handle('*', function (Leaseq\Task $t) {
    echo "any {$t->name}\n";
});
var_dump($same === $w);
$r = $w->run(true);
var_dump($r);

$out = fn($id) => array_map(fn($h) => [$h['outcome'], $h['error']], $db->history(['taskId' => $id]));
var_dump($out($ok), $out($bad) === [['failed', "kaput $bad"]], $out($dead) === [['dead', "kaput $dead"]]);
var_dump($db->task($bad)->lastError === "kaput $bad", $db->task($dead)->dead);

// At-most-once worker.
$amo = $db->add('greet', 'again', ['queue' => $q]);
$w2 = new Leaseq\Worker($db, [$q], ['atLeastOnce' => false, 'batch' => 5]);
$w2->handle('greet', fn($t) => print("amo {$t->payload} {$t->atLeastOnce}|\n"));
var_dump($w2->run(true)['ran']);

// Runner::tick: runs what is due; a tick inside a tick finds the runner
// lease held.
$tq = lq_unique('tick');
$db->add('a', null, ['queue' => $tq]);
$db->add('b', null, ['queue' => $tq]);
$inner = null;
$r = Leaseq\Runner::tick($db, [
    'a' => function ($t) use (&$inner, $tq) {
        $inner = Leaseq\Runner::tick(lq_db(), ['b' => fn() => null], 1, ['queue' => $tq]);
    },
    'b' => fn($t) => print("tick b\n"),
], '5s', ['queue' => $tq]);
var_dump($r, $inner['stopped']);
var_dump(Leaseq\Runner::tick($db, [], 1, ['queue' => $tq])['stopped']);

// A handler cannot close the Db its worker runs on.
$cq = lq_unique('close');
$closer = $db->add('close', null, ['queue' => $cq, 'maxAttempts' => 1]);
$w3 = new Leaseq\Worker($db, [$cq]);
$w3->handle('close', fn() => $db->close());
var_dump($w3->run(true)['failed'], $db->history(['taskId' => $closer])[0]['error']);

// Bad arguments.
foreach ([
    fn() => new Leaseq\Worker($db, []),
    fn() => new Leaseq\Worker($db, ['']),
    fn() => new Leaseq\Worker($db, [$q], ['claimTtl' => 0]),
    fn() => new Leaseq\Worker($db, [$q], ['nope' => 1]),
    fn() => (new Leaseq\Worker($db, [$q]))->handle('', fn() => null),
    fn() => Leaseq\Runner::tick($db, ['a' => fn() => null], 'x'),
    fn() => Leaseq\Runner::tick($db, [fn() => null]),
] as $i => $f) {
    try {
        $f();
        echo "$i no error\n";
    } catch (ValueError $e) {
        echo "$i ValueError\n";
    }
}
try {
    Leaseq\Runner::tick($db, ['a' => 'no_such_function']);
} catch (TypeError $e) {
    echo "TypeError\n";
}
try {
    (new Leaseq\Worker($db, [1]));
} catch (TypeError $e) {
    echo "TypeError\n";
}
?>
--EXPECT--
bool(true)
hello world (attempt 1)
any other
array(4) {
  ["ran"]=>
  int(2)
  ["failed"]=>
  int(2)
  ["claimed"]=>
  int(4)
  ["stopped"]=>
  string(4) "idle"
}
array(1) {
  [0]=>
  array(2) {
    [0]=>
    string(4) "done"
    [1]=>
    NULL
  }
}
bool(true)
bool(true)
bool(true)
bool(true)
amo again |
int(1)
tick b
array(4) {
  ["ran"]=>
  int(2)
  ["failed"]=>
  int(0)
  ["claimed"]=>
  int(2)
  ["stopped"]=>
  string(4) "idle"
}
string(4) "held"
string(4) "idle"
int(1)
string(62) "Leaseq\Db cannot be closed while a Worker or a tick runs on it"
0 ValueError
1 ValueError
2 ValueError
3 ValueError
4 ValueError
5 ValueError
6 ValueError
TypeError
TypeError
