--TEST--
Db::setLimit / limit / limits / removeLimit, and the add() options concurrencyKey and partition
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('limit');
$key = $q . '-k';
var_dump($db->limit($key));
$db->setLimit($key, 1);
$l = $db->limit($key);
var_dump([$l['key'] === $key, $l['concurrency'], $l['rateN'], $l['running']]);
$a = $db->add('a', null, ['queue' => $q, 'concurrencyKey' => $key]);
[$b] = $db->addMany([['name' => 'b', 'queue' => $q, 'concurrencyKey' => $key]]);
var_dump($db->task($a)->concurrencyKey === $key, $db->task($b)->concurrencyKey === $key);
$first = $db->claim($q, 2);
var_dump(count($first), $first[0]->id === $a);
var_dump($db->claim($q));               // the key is at its cap
var_dump($db->limit($key)['running']);
$db->ack($first[0]);
var_dump($db->claim($q)[0]->id === $b);

$db->setLimit($key, rate: '10/1s');
$l = $db->limit($key);
var_dump([$l['concurrency'], $l['rateN'], $l['ratePeriodMs']]);
$db->setLimit("queue:$q", 3, [100, '1m']);
$l = $db->limit("queue:$q");
var_dump([$l['concurrency'], $l['rateN'], $l['ratePeriodMs'], $l['tokens']]);
$keys = array_column($db->limits(), 'key');
var_dump(in_array($key, $keys, true), in_array("queue:$q", $keys, true));
var_dump($db->removeLimit($key), $db->removeLimit($key), $db->removeLimit("queue:$q"));

// Partitions take turns.
$db->addMany([['name' => 'p1', 'queue' => $q, 'partition' => 'one'], ['name' => 'p1', 'queue' => $q, 'partition' => 'one']]);
$p2 = $db->add('p2', null, ['queue' => $q, 'partition' => 'two']);
$none = $db->add('p3', null, ['queue' => $q, 'delay' => '1h']);
var_dump($db->partition($p2), $db->partition($none));
var_dump($db->task($p2)->partition, $db->task($none)->partition);
$db->remove($none);
var_dump($db->partition($none));
$names = [$db->claim($q, 1, false)[0]->name, $db->claim($q, 1, false)[0]->name];
sort($names);
var_dump($names);

// Bad arguments.
$bad = [[null, null], [0, null], [1000001, null], [null, '10'], [null, '0/1s'], [null, 'x/1s'], [null, '10/'],
        [null, '10/0s'], [null, '10/soon'], [null, [0, 1]], [null, [1]]];
foreach ($bad as [$c, $r]) {
    try {
        $db->setLimit($key, $c, $r);
        echo "no error\n";
    } catch (ValueError $e) {
        echo 'V';
    }
}
echo "\n";
foreach ([fn () => $db->setLimit($key, null, 10), fn () => $db->setLimit($key, null, ['x', 1]),
          fn () => $db->add('x', null, ['concurrencyKey' => 5])] as $f) {
    try {
        $f();
        echo "no error\n";
    } catch (TypeError $e) {
        echo 'T';
    }
}
echo "\n";
foreach ([['concurrencyKey' => ''], ['concurrencyKey' => 'queue:x'], ['partition' => '']] as $o) {
    try {
        $db->add('x', null, $o + ['queue' => $q]);
        echo "no error\n";
    } catch (ValueError $e) {
        echo 'V';
    }
}
echo "\n";
try {
    $db->setLimit('', 1);
} catch (ValueError $e) {
    echo "ValueError\n";
}
?>
--EXPECT--
NULL
array(4) {
  [0]=>
  bool(true)
  [1]=>
  int(1)
  [2]=>
  int(0)
  [3]=>
  int(0)
}
bool(true)
bool(true)
int(1)
bool(true)
array(0) {
}
int(1)
bool(true)
array(3) {
  [0]=>
  int(0)
  [1]=>
  int(10)
  [2]=>
  int(1000)
}
array(4) {
  [0]=>
  int(3)
  [1]=>
  int(100)
  [2]=>
  int(60000)
  [3]=>
  int(100)
}
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
string(3) "two"
string(0) ""
string(3) "two"
NULL
NULL
array(2) {
  [0]=>
  string(2) "p1"
  [1]=>
  string(2) "p2"
}
VVVVVVVVVVV
TTT
VVV
ValueError
