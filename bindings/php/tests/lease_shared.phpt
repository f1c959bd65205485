--TEST--
Lease: semaphore slots, read leases, promote and demote, encode and decode
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$sem = lq_unique('sem');
$a = $db->acquire($sem, 30, 0, ['slots' => 2]);
$b = $db->acquire($sem, 30, 0, ['slots' => 2]);
var_dump($a->kind, $a->slots, $a->slot !== $b->slot);
var_dump($db->tryAcquire($sem, 30, ['slots' => 2]));
try {
    $db->acquire($sem, 30); // a semaphore is not an exclusive lease
} catch (ValueError $e) {
    var_dump($e->getCode());
}
var_dump($a->release());
var_dump($db->tryAcquire($sem, 30, ['slots' => 2]) instanceof Leaseq\Lease);

$rw = lq_unique('rw');
$r1 = $db->acquire($rw, 30, 0, ['read' => true]);
$r2 = $db->acquire($rw, 30, 0, ['read' => true]);
var_dump($r1->kind, $r1->slot >= 1);
var_dump($db->tryAcquire($rw, 30));           // a writer waits for the readers
try {
    $r1->promote();                           // another reader holds it
} catch (Leaseq\BusyException $e) {
    echo "busy\n";
}
var_dump($r2->release());
$t = $r1->token;
$r1->promote();
var_dump($r1->kind, $r1->token > $t);
$r1->demote();
var_dump($r1->kind);
var_dump($r1->release());

// encode/decode in one process: the decoded one renews and releases it.
$x = $db->acquire(lq_unique('enc'), 30);
$h = $x->encode();
var_dump(is_string($h) && !str_contains($h, ' '));
$y = Leaseq\Lease::decode($db, $h);
var_dump($y->name === $x->name, $y->token === $x->token, $y->owner === $x->owner);
try {
    $y->renew();   // a decoded lease does not know its TTL
} catch (ValueError $e) {
    echo "ValueError\n";
}
$y->renew(20);
var_dump($y->release(), $x->isHeld());
try {
    Leaseq\Lease::decode($db, 'nonsense');
} catch (ValueError $e) {
    echo "ValueError\n";
}
try {
    $db->acquire(lq_unique('x'), 30, 0, ['slots' => 0]);
} catch (ValueError $e) {
    echo "ValueError\n";
}
?>
--EXPECT--
string(4) "slot"
int(2)
bool(true)
NULL
int(5)
bool(true)
bool(true)
string(4) "read"
bool(true)
NULL
busy
bool(true)
string(9) "exclusive"
bool(true)
string(4) "read"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
ValueError
bool(true)
bool(false)
ValueError
ValueError
