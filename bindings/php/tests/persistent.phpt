--TEST--
Persistent handles: reused across the requests of one process, never after a broken request
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
lq_db()->close(); // the schema
$dir = sys_get_temp_dir() . '/' . lq_unique('srv');
mkdir($dir);
file_put_contents("$dir/index.php", '<?php
$db = new Leaseq\Db(getenv("LEASEQ_DSN"), true);
$reused = (int)preg_replace("/.*\[reused\] => (\d+).*/s", "$1", print_r($db, true));
$op = $_GET["op"] ?? "";
if ($op === "two") {
    // A second persistent Db of the same request gets a handle of its own.
    $b = new Leaseq\Db(getenv("LEASEQ_DSN"), true);
    echo str_contains(print_r($b, true), "[persistent] => 1") ? "two-persistent " : "two-own ";
}
if ($op === "fatal") {
    // A fatal error inside a call on the handle (a handler of a tick):
    // the handle must not serve the next request.
    $q = "srv-" . getmypid();
    $db->add("die", null, ["queue" => $q]);
    Leaseq\Runner::tick($db, ["die" => function () { trigger_error("fatal in handler", E_USER_ERROR); }],
        5, ["queue" => $q]);
}
if ($op === "kill") {
    // The server drops this connection: the handle sees a lost connection
    // mid-request and must not serve the next request.
    $dsn = getenv("LEASEQ_DSN");
    if (str_starts_with($dsn, "postgres") && function_exists("pg_connect")) {
        $pg = pg_connect($dsn);
        pg_query($pg, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND usename = current_user");
    } elseif (preg_match("~^(?:mysql|mariadb)://([^:@]+):([^@]*)@([^:/]+):(\\d+)/([^?]+)~", $dsn, $m)
            && function_exists("mysqli_connect")) {
        $my = mysqli_connect($m[3], urldecode($m[1]), urldecode($m[2]), $m[5], (int)$m[4]);
        $ids = mysqli_query($my, "SELECT id FROM information_schema.processlist
            WHERE db = DATABASE() AND id <> CONNECTION_ID() AND user = SUBSTRING_INDEX(CURRENT_USER(), \'@\', 1)");
        foreach (mysqli_fetch_all($ids) as [$id]) {
            mysqli_query($my, "KILL CONNECTION $id");
        }
    } else {
        echo "n/a\n";
        exit;
    }
    try {
        $db->now();
        echo "no error\n";
    } catch (Leaseq\ConnectionException | Leaseq\UnknownOutcomeException $e) {
        echo "lost\n";
    }
    exit;
}
$l = $db->acquire("srv-" . getmypid(), 30);
echo "reused=$reused token-ok=", (int)($l->token > 0), " released=", (int)$l->release(), "\n";
');
$sock = stream_socket_server('tcp://127.0.0.1:0');
$port = (int)substr(strrchr(stream_socket_get_name($sock, false), ':'), 1);
fclose($sock);
// pgsql and mysqli, where installed, to drop the server's connection.
$more = [];
foreach (['pgsql', 'mysqlnd', 'mysqli'] as $e) {
    if (is_file(ini_get('extension_dir') . "/$e.so")) {
        array_push($more, '-d', "extension=$e");
    }
}
$srv = proc_open(lq_php(...$more, ...['-S', "127.0.0.1:$port", '-t', $dir]), [1 => ['file', '/dev/null', 'w'],
    2 => ['file', '/dev/null', 'w']], $pipes, $dir, getenv() + ['PHP_CLI_SERVER_WORKERS' => '1']);
for ($i = 0; $i < 100 && !@fsockopen('127.0.0.1', $port); $i++) {
    usleep(50000);
}
$ctx = stream_context_create(['http' => ['ignore_errors' => true]]);
$get = fn($op = '') => trim((string)@file_get_contents("http://127.0.0.1:$port/index.php?op=$op", false, $ctx));
echo $get(), "\n", $get(), "\n", $get('two'), "\n", $get(), "\n";
$fatal = $get('fatal');
echo str_contains($fatal, 'fatal in handler') ? "fatal\n" : "no fatal: $fatal\n";
echo $get(), "\n", $get(), "\n";
// After a lost connection: a new handle (on SQLite there is no server
// to drop the connection).
$kill = $get('kill');
$next = $get();
echo ($kill === 'n/a' && $next === 'reused=3 token-ok=1 released=1') ||
    ($kill === 'lost' && $next === 'reused=0 token-ok=1 released=1') ? "kill ok\n" : "kill: $kill, then $next\n";
proc_terminate($srv);
proc_close($srv);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
reused=0 token-ok=1 released=1
reused=1 token-ok=1 released=1
two-own reused=2 token-ok=1 released=1
reused=3 token-ok=1 released=1
fatal
reused=0 token-ok=1 released=1
reused=1 token-ok=1 released=1
kill ok
