--TEST--
Lease: acquire, tryAcquire, busy with holder, renew, isHeld, release, break, lost, lease()
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$other = lq_db();
$name = lq_unique('lease');

$l = $db->acquire($name, 30, 0, ['owner' => 'me']);
var_dump($l instanceof Leaseq\Lease, $l->name === $name, str_starts_with($l->owner, 'me'));
var_dump($l->kind, $l->slots, $l->token >= 1, $l->expiresAt > $db->now());

var_dump($other->tryAcquire($name, 30));
try {
    $other->acquire($name, 30, '100ms');
} catch (Leaseq\BusyException $e) {
    var_dump($e->getCode() === 1, $e->getStatusName(), $e instanceof Leaseq\Exception,
        $e instanceof RuntimeException);
    var_dump($e->getHolder()['owner'] === $l->owner, $e->getHolder()['token'] === $l->token);
    var_dump(str_contains($e->getMessage(), $name));
}

$before = $l->expiresAt;
$l->renew(60);
var_dump($l->expiresAt > $before);
$l->renew('90s');
$l->renew();      // the TTL it was taken with
$l->renew(0.5);
var_dump($l->isHeld());

$row = $db->lease($name);
var_dump($row['owner'] === $l->owner, $row['token'] === $l->token, $row['expiresAt'] === $l->expiresAt);
var_dump($db->lease(lq_unique('never')));

var_dump($l->release(), $l->isHeld());
$t1 = $l->token;

// Break: the holder has lost it.
$l2 = $db->acquire($name, 30);
var_dump($l2->token > $t1);
var_dump($other->breakLease($name), $other->breakLease(lq_unique('never')));
try {
    $l2->renew();
} catch (Leaseq\LostException $e) {
    var_dump($e->getCode() === 2, $e->getStatusName());
}
$l3 = $other->acquire($name, 30);
var_dump($l3->token > $l2->token);
var_dump($l2->release(), $l2->isHeld());  // false: someone else holds it now
var_dump($l3->isHeld());

// Readonly properties.
try {
    $l3->token = 5;
} catch (Error $e) {
    echo get_class($e), "\n";
}
try {
    new Leaseq\Lease();
} catch (Error $e) {
    echo get_class($e), "\n";
}
var_dump($l3->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(9) "exclusive"
int(0)
bool(true)
bool(true)
NULL
bool(true)
string(4) "busy"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
string(4) "lost"
bool(true)
bool(false)
bool(false)
bool(true)
Error
Error
bool(true)
