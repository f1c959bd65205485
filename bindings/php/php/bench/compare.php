<?php

/*
 * bench/compare.php - the PHP classes against Symfony's own database
 * components on the same database, one process:
 *   lock:      LeaseqStore save()+delete() per second, against PdoStore
 *   messenger: the leaseq:// transport's send() and get()+ack() messages per
 *              second, against the Doctrine transport (Debian's
 *              php-symfony-doctrine-messenger and php-doctrine-dbal)
 *
 *   LEASEQ_DSN=postgresql://... php -d extension=path/to/leaseq.so \
 *       bindings/php/php/bench/compare.php [SECONDS [MESSAGES]]
 *
 *   enqueue:   Leaseq\Pdo::enqueue() per second (the application's PDO,
 *              autocommit), against ext-leaseq's Db::add()
 * Prints CSV: backend,what,implementation,ops_per_s.  The database must
 * be migrated (leasectl migrate); PdoStore's and Doctrine's tables are made
 * here.  A measurement, not a test: nothing is asserted.
 */

require_once __DIR__.'/../tests/bootstrap.php';
require_once 'Doctrine/DBAL/autoload.php';

use Doctrine\DBAL\DriverManager;
use Leaseq\Symfony\LeaseqStore;
use Leaseq\Symfony\Messenger\LeaseqTransport;
use Leaseq\Tests\Messenger\TestMessage;
use Leaseq\Tests\Support;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Store\PdoStore;
use Symfony\Component\Messenger\Bridge\Doctrine\Transport\Connection;
use Symfony\Component\Messenger\Bridge\Doctrine\Transport\DoctrineTransport;
use Symfony\Component\Messenger\Envelope;
use Symfony\Component\Messenger\Transport\Serialization\PhpSerializer;
use Symfony\Component\Messenger\Transport\TransportInterface;

$seconds = (float) ($argv[1] ?? 3);
$messages = (int) ($argv[2] ?? 2000);
$backend = Support::backend();

/* save()+delete() of one resource for $seconds; per second. */
function locks(PersistingStoreInterface $store, float $seconds): float
{
    $resource = 'bench-'.bin2hex(random_bytes(4));
    $n = 0;
    $t0 = microtime(true);
    do {
        $key = new Key($resource);
        $store->save($key);
        $store->delete($key);
        ++$n;
    } while (($t = microtime(true)) - $t0 < $seconds);

    return $n / ($t - $t0);
}

/* [sends per second, get()+ack() per second] of $n messages. */
function messages(TransportInterface $t, int $n): array
{
    $t0 = microtime(true);
    for ($i = 0; $i < $n; ++$i) {
        $t->send(new Envelope(new TestMessage($i)));
    }
    $t1 = microtime(true);
    $got = 0;
    while ($got < $n) {
        foreach ($t->get() as $envelope) {
            $t->ack($envelope);
            ++$got;
        }
    }
    $t2 = microtime(true);

    return [$n / ($t1 - $t0), $n / ($t2 - $t1)];
}

function row(string $backend, string $what, string $impl, float $rate): void
{
    printf("%s,%s,%s,%.0f\n", $backend, $what, $impl, $rate);
}

[$pdoDsn, $user, $pass] = Support::pdoArgs();
$pdo = new PDO($pdoDsn, $user, $pass, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);

echo "backend,what,implementation,ops_per_s\n";
$pdoStore = new PdoStore($pdo, ['db_table' => 'sf_bench_lock_keys']);
try {
    $pdoStore->createTable();
} catch (PDOException $e) {
    // there already
}
/* $fn() for $seconds; per second. */
function rate(callable $fn, float $seconds): float
{
    $n = 0;
    $t0 = microtime(true);
    do {
        $fn();
        ++$n;
    } while (($t = microtime(true)) - $t0 < $seconds);

    return $n / ($t - $t0);
}

$db = new Leaseq\Db(Support::dsn());
$q = 'bench-'.bin2hex(random_bytes(4));
row($backend, 'enqueue', 'Leaseq\Pdo', rate(fn () => Leaseq\Pdo::enqueue($pdo, 'bench', 'payload', ['queue' => $q]), $seconds));
row($backend, 'enqueue', 'Db::add', rate(fn () => $db->add('bench', 'payload', ['queue' => $q]), $seconds));

row($backend, 'lock save+delete', 'leaseq', locks(new LeaseqStore(Support::dsn()), $seconds));
row($backend, 'lock save+delete', 'PdoStore', locks($pdoStore, $seconds));

$queue = 'bench-'.bin2hex(random_bytes(4));
[$send, $consume] = messages(new LeaseqTransport(Support::dsn(), ['queue' => $queue]), $messages);
row($backend, 'messenger send', 'leaseq', $send);
row($backend, 'messenger get+ack', 'leaseq', $consume);

$u = parse_url(Support::dsn());
$params = match ($backend) {
    'sqlite' => ['driver' => 'pdo_sqlite', 'path' => preg_replace('/^sqlite:|\?.*$/', '', Support::dsn())],
    'postgres' => ['driver' => 'pdo_pgsql'],
    'mysql' => ['driver' => 'pdo_mysql', 'charset' => 'utf8mb4'],
};
if ('sqlite' !== $backend) {
    $params += ['host' => $u['host'], 'port' => $u['port'] ?? null, 'dbname' => ltrim($u['path'], '/'),
        'user' => urldecode($u['user'] ?? ''), 'password' => urldecode($u['pass'] ?? '')];
}
$doctrine = new DoctrineTransport(new Connection(['table_name' => 'sf_bench_messages', 'queue_name' => $queue,
    'redeliver_timeout' => 3600, 'auto_setup' => true], DriverManager::getConnection($params)), new PhpSerializer());
[$send, $consume] = messages($doctrine, $messages);
row($backend, 'messenger send', 'Doctrine', $send);
row($backend, 'messenger get+ack', 'Doctrine', $consume);
