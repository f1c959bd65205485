<?php

/*
 * loop.php - the PHP side of tools/bench-bindings: loop.c's loops through
 * ext-leaseq, one process and one connection; the same commands on
 * standard input and the same answers (see loop.c), plus the Symfony Lock
 * store on the extension against Symfony's own PdoStore on the same
 * database, save()+delete() of a new Key each time:
 *
 *   sf-leaseq NAME SECONDS   Leaseq\Symfony\LeaseqStore
 *   sf-pdo NAME SECONDS      Symfony\Component\Lock\Store\PdoStore
 *
 * The Symfony commands need Debian's php-symfony-lock and the package's
 * classes: the directory of Leaseq\Symfony\... in LEASEQ_BENCH_PHP_CLASSES
 * (bindings/php/php/src).  Usage: php -d extension=leaseq.so loop.php DSN
 */

const PAYLOAD = 'leaseq bench 16b';

/* This process's CPU time, user + system, in seconds. */
function cpu(): float
{
    $r = getrusage();

    return $r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec'] + ($r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec']) / 1e6;
}

function answer(string $line): void
{
    fwrite(STDOUT, $line."\n");
}

function lease(Leaseq\Db $db, string $name, float $secs): void
{
    $n = 0;
    $c0 = cpu();
    $t0 = hrtime(true);
    $ns = $secs * 1e9;
    do {
        $l = $db->tryAcquire($name, 30);
        if (null === $l) {
            throw new RuntimeException("lease $name is held elsewhere");
        }
        $l->release();
        ++$n;
    } while (($t = hrtime(true)) - $t0 < $ns);
    answer(sprintf('ok %d %.6f %.6f', $n, ($t - $t0) / 1e9, cpu() - $c0));
}

function enqueue(Leaseq\Db $db, string $queue, float $secs): void
{
    $n = 0;
    $c0 = cpu();
    $t0 = hrtime(true);
    $ns = $secs * 1e9;
    $options = ['queue' => $queue];
    do {
        $db->add('bench', PAYLOAD, $options);
        ++$n;
    } while (($t = hrtime(true)) - $t0 < $ns);
    answer(sprintf('ok %d %.6f %.6f', $n, ($t - $t0) / 1e9, cpu() - $c0));
}

function claim(Leaseq\Db $db, string $queue, float $secs): void
{
    $n = 0;
    $empty = '';
    $c0 = cpu();
    $t0 = hrtime(true);
    $ns = $secs * 1e9;
    do {
        $tasks = $db->claim($queue, 1);
        if (!$tasks) {
            $empty = ' empty';
            $t = hrtime(true);
            break;
        }
        $db->ack($tasks[0]);
        ++$n;
    } while (($t = hrtime(true)) - $t0 < $ns);
    answer(sprintf('ok %d %.6f %.6f%s', $n, ($t - $t0) / 1e9, cpu() - $c0, $empty));
}

/* PDO's arguments for the database of a leaseq DSN. */
function pdo_for(string $dsn): PDO
{
    $options = [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION];
    if (str_starts_with($dsn, 'sqlite:')) {
        return new PDO(preg_replace('/\?.*$/', '', $dsn), null, null, $options);
    }
    $u = parse_url($dsn);
    $db = ltrim($u['path'] ?? '', '/');
    $user = isset($u['user']) ? urldecode($u['user']) : null;
    $pass = isset($u['pass']) ? urldecode($u['pass']) : null;
    if (preg_match('/^postgres(ql)?:/', $dsn)) {
        return new PDO(sprintf('pgsql:host=%s;port=%d;dbname=%s', $u['host'], $u['port'] ?? 5432, $db), $user, $pass, $options);
    }

    return new PDO(sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', $u['host'], $u['port'] ?? 3306, $db),
        $user, $pass, $options);
}

function symfony_store(string $which, string $dsn): object
{
    static $stores = [];
    if (isset($stores[$which])) {
        return $stores[$which];
    }
    $classes = getenv('LEASEQ_BENCH_PHP_CLASSES');
    if (!stream_resolve_include_path('Symfony/Component/Lock/autoload.php') || !$classes
        || !is_file("$classes/Symfony/LeaseqStore.php")) {
        throw new RuntimeException('Symfony Lock or Leaseq\Symfony\LeaseqStore not found');
    }
    require_once 'Symfony/Component/Lock/autoload.php';
    spl_autoload_register(static function (string $class) use ($classes): void {
        if (0 === strncmp($class, 'Leaseq\\', 7)) {
            $file = $classes.'/'.str_replace('\\', '/', substr($class, 7)).'.php';
            if (is_file($file)) {
                require $file;
            }
        }
    });
    if ('sf-leaseq' === $which) {
        return $stores[$which] = new Leaseq\Symfony\LeaseqStore($dsn);
    }
    $store = new Symfony\Component\Lock\Store\PdoStore(pdo_for($dsn), ['db_table' => 'leaseq_bench_lock_keys']);
    try {
        $store->createTable();
    } catch (PDOException $e) {
        // made by an earlier run
    }

    return $stores[$which] = $store;
}

function symfony(object $store, string $resource, float $secs): void
{
    $n = 0;
    $c0 = cpu();
    $t0 = hrtime(true);
    $ns = $secs * 1e9;
    do {
        $key = new Symfony\Component\Lock\Key($resource);
        $store->save($key);
        $store->delete($key);
        ++$n;
    } while (($t = hrtime(true)) - $t0 < $ns);
    answer(sprintf('ok %d %.6f %.6f', $n, ($t - $t0) / 1e9, cpu() - $c0));
}

$dsn = $argv[1] ?? null;
if (null === $dsn) {
    fwrite(STDERR, "usage: php loop.php DSN  (commands on standard input)\n");
    exit(64);
}
$db = new Leaseq\Db($dsn);
$db->now();   // connect now, not in the first timed call
while (false !== ($line = fgets(STDIN))) {
    $w = preg_split('/\s+/', trim($line));
    try {
        match ($w[0]) {
            'quit' => exit(0),
            'lease' => lease($db, $w[1], (float) $w[2]),
            'enqueue' => enqueue($db, $w[1], (float) $w[2]),
            'claim' => claim($db, $w[1], (float) $w[2]),
            'sf-leaseq', 'sf-pdo' => symfony(symfony_store($w[0], $dsn), $w[1], (float) $w[2]),
            default => answer('err unknown command: '.trim($line)),
        };
    } catch (Throwable $e) {
        answer('err '.get_class($e).': '.strtr($e->getMessage(), "\n", ' '));
    }
}
