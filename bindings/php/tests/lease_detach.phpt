--TEST--
Lease::detach: the object's death no longer releases; renew and release still work
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();

// Detached: still held after the object is gone.
$name = lq_unique('detach');
$l = $db->acquire($name, 30);
$owner = $l->owner;
$l->detach();
unset($l);
var_dump($db->lease($name)['owner'] === $owner);
var_dump($db->breakLease($name));

// Renew and release still work on a detached object.
$name = lq_unique('detach');
$l = $db->acquire($name, 30);
$l->detach();
$before = $l->expiresAt;
usleep(20000);
$l->renew();
var_dump($l->expiresAt > $before);
var_dump($l->release());
var_dump($db->lease($name)['owner']);

// Taken and detached by a process that then ends: held until another
// process releases it with the handle.
$name = lq_unique('detach');
[$st, $out] = lq_run_php('<?php
$db = new Leaseq\Db(getenv("LEASEQ_DSN"));
$l = $db->acquire(getenv("LQ_NAME"), 30);
$l->detach();
echo $l->encode();
$GLOBALS["kept"] = $l;   // dies at shutdown too: still not released
', ['LQ_NAME' => $name]);
var_dump($st);
var_dump($db->tryAcquire($name, 30));
$there = Leaseq\Lease::decode($db, trim($out));
var_dump($there->isHeld());
var_dump($there->release());
var_dump($db->tryAcquire($name, 30) instanceof Leaseq\Lease);

// A decoded lease is never released at its death: detach() changes nothing.
$name = lq_unique('detach');
$l = $db->acquire($name, 30);
$d = Leaseq\Lease::decode(lq_db(), $l->encode());
$d->detach();
unset($d);
var_dump($l->isHeld());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
string(0) ""
int(0)
NULL
bool(true)
bool(true)
bool(true)
bool(true)
