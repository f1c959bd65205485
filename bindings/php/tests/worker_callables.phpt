--TEST--
Worker: any callable is a handler (a private method from inside its class, static methods, strings)
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';

function plain_handler(Leaseq\Task $t) { echo "function {$t->payload}\n"; }

final class Jobs
{
    public function register(Leaseq\Worker $w): void
    {
        $w->handle('priv', [$this, 'priv'])
          ->handle('stat', [self::class, 'stat'])
          ->handle('str', 'Jobs::stat')
          ->handle('fcc', $this->priv(...))
          ->handle('func', 'plain_handler')
          ->handle('magic', [$this, 'anything']);
    }

    public function tick(Leaseq\Db $db, string $q): array
    {
        return Leaseq\Runner::tick($db, ['priv' => [$this, 'priv'], 'str' => 'Jobs::stat'], 5, ['queue' => $q]);
    }

    private function priv(Leaseq\Task $t): void { echo "private {$t->payload}\n"; }
    public static function stat(Leaseq\Task $t): void { echo "static {$t->payload}\n"; }
    public function __call($name, $args) { echo "__call $name {$args[0]->payload}\n"; }
}

$db = lq_db();
$q = lq_unique('c');
foreach (['priv', 'stat', 'str', 'fcc', 'func', 'magic'] as $n) {
    $db->add($n, $n, ['queue' => $q]);
}
$w = new Leaseq\Worker($db, [$q]);
(new Jobs())->register($w);
$r = $w->run(true);
var_dump($r['ran'], $r['failed']);

// Runner::tick's handlers too.
$tq = lq_unique('t');
$db->add('priv', 'tick', ['queue' => $tq]);
$db->add('str', 'tick', ['queue' => $tq]);
var_dump((new Jobs())->tick($db, $tq)['ran']);
?>
--EXPECT--
private priv
static stat
static str
private fcc
function func
__call anything magic
int(6)
int(0)
private tick
static tick
int(2)
