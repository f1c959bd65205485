--TEST--
Lease destructor: releases a lease still held, leaves a lost one alone, never throws
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$other = lq_db();

// Still held: released when the object dies.
$name = lq_unique('d');
$l = $db->acquire($name, 30);
unset($l);
var_dump($db->lease($name)['owner']);

function scoped(Leaseq\Db $db, string $name): int
{
    $l = $db->acquire($name, 30);
    return $l->token;
}
$n2 = lq_unique('d');
scoped($db, $n2);
var_dump($db->lease($n2)['owner']);

// Lost (broken, then taken by another): the object's death does not
// touch the new holder.
$n3 = lq_unique('d');
$l = $db->acquire($n3, 30);
$other->breakLease($n3);
$theirs = $other->acquire($n3, 30);
unset($l);
var_dump($db->lease($n3)['owner'] === $theirs->owner);

// Released explicitly: nothing more at death.
$l = $db->acquire($n3 . 'x', 30);
$l->release();
$again = $other->acquire($n3 . 'x', 30);
unset($l);
var_dump($db->lease($n3 . 'x')['owner'] === $again->owner);

// A decoded lease is not released at its death (the process that took
// it decides); the original still holds it.
$n4 = lq_unique('d');
$orig = $db->acquire($n4, 30);
$dec = Leaseq\Lease::decode($other, $orig->encode());
unset($dec);
var_dump($orig->isHeld());

// The Db closed first: the death of the lease is silent.
$tmp = lq_db();
$n5 = lq_unique('d');
$l = $tmp->acquire($n5, 30);
$tmp->close();
unset($l);
echo "no exception\n";

// During an exception's unwinding too.
function throws(Leaseq\Db $db, string $name)
{
    $l = $db->acquire($name, 30);
    throw new RuntimeException('out');
}
$n6 = lq_unique('d');
try {
    throws($db, $n6);
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}
var_dump($db->lease($n6)['owner']);

// At the end of the script: released at shutdown.
$GLOBALS['kept'] = $db->acquire(lq_unique('end'), 30);
echo "end\n";
?>
--EXPECT--
string(0) ""
string(0) ""
bool(true)
bool(true)
bool(true)
no exception
out
string(0) ""
end
