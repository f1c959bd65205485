--TEST--
Tasks: addMany is all or nothing, bad options are ValueError/TypeError before anything is sent
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('q');
$ids = $db->addMany([
    ['name' => 'a', 'queue' => $q],
    ['name' => 'b', 'payload' => 'x', 'queue' => $q, 'priority' => 2],
    ['name' => 'c', 'queue' => $q, 'unique' => $q],
    ['name' => 'c', 'queue' => $q, 'unique' => $q],
]);
var_dump(count($ids), $ids[0] < $ids[1], $ids[2] === $ids[3]);
var_dump($db->addMany([]));
$bad = [
    [['name' => 'ok', 'queue' => $q], ['queue' => $q]],                      // no name
    [['name' => 'ok', 'queue' => $q], ['name' => '', 'queue' => $q]],        // empty name
    [['name' => 'ok', 'queue' => $q], ['name' => 'x', 'maxAttempts' => 0]],
    [['name' => 'ok', 'queue' => $q], ['name' => 'x', 'cron' => 'not cron']],
    [['name' => 'ok', 'queue' => $q], ['name' => 'x', 'delay' => -1]],
    [['name' => 'ok', 'queue' => $q], ['name' => 'x', 'bogus' => 1]],
];
foreach ($bad as $tasks) {
    try {
        $db->addMany($tasks);
        echo "no error\n";
    } catch (ValueError $e) {
        echo "ValueError\n";
    }
}
foreach ([[['name' => 'x', 'priority' => '1']], [['name' => 'x', 'payload' => 1]], ['x']] as $tasks) {
    try {
        $db->addMany($tasks);
    } catch (TypeError $e) {
        echo "TypeError\n";
    }
}
var_dump(count($db->tasks($q)));   // nothing of the bad batches was added

foreach ([
    fn() => $db->add('', null),
    fn() => $db->add(str_repeat('n', 256), null),
    fn() => $db->add('x', null, ['queue' => '']),
    fn() => $db->add('x', null, ['every' => 'soon']),
    fn() => $db->add('x', null, ['tz' => 'Europe/Paris']),
    fn() => $db->add('x', null, ['cron' => '* * *']),
    fn() => $db->add('x', null, ['runAt' => -5]),
    fn() => $db->add("x\0y", null),
    fn() => $db->claim($q, 0),
    fn() => $db->claim($q, 1, true, 'forever'),
    fn() => $db->history(['limit' => 0]),
    fn() => $db->history(['what' => 1]),
] as $i => $f) {
    try {
        $f();
        echo "$i no error\n";
    } catch (ValueError $e) {
        echo "$i ValueError\n";
    }
}
foreach ([
    fn() => $db->add('x', null, ['priority' => 1.5]),
    fn() => $db->add('x', null, ['delay' => []]),
    fn() => $db->add('x', null, ['runAt' => 'tomorrow']),
    fn() => $db->add('x', null, ['maxAttempts' => '3']),
] as $i => $f) {
    try {
        $f();
        echo "$i no error\n";
    } catch (TypeError $e) {
        echo "$i TypeError\n";
    }
}
var_dump(count($db->tasks($q)));
?>
--EXPECT--
int(4)
bool(true)
bool(true)
array(0) {
}
ValueError
ValueError
ValueError
ValueError
ValueError
ValueError
TypeError
TypeError
TypeError
int(3)
0 ValueError
1 ValueError
2 ValueError
3 ValueError
4 ValueError
5 ValueError
6 ValueError
7 ValueError
8 ValueError
9 ValueError
10 ValueError
11 ValueError
0 TypeError
1 TypeError
2 TypeError
3 TypeError
int(3)
