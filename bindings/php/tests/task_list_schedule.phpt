--TEST--
Task: recurring, everyMs, cron and tz from tasks(), task() and claim(); tasks() has no payloads
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lq.inc';
$db = lq_db();
$q = lq_unique('sched');
$ids = [
    $db->add('every', 'pe', ['queue' => $q, 'every' => '1h', 'delay' => '1h']),
    $db->add('cron', 'pc', ['queue' => $q, 'cron' => '0 8 * * mon-fri', 'tz' => 'Europe/Paris']),
    $db->add('cron-utc', null, ['queue' => $q, 'cron' => '*/5 * * * *']),
    $db->add('once', 'po', ['queue' => $q]),
];
function show(Leaseq\Task $t): void
{
    printf("%s recurring=%s everyMs=%d cron=%s tz=%s payload=%s\n", $t->name, var_export($t->recurring, true),
        $t->everyMs, var_export($t->cron, true), var_export($t->tz, true), var_export($t->payload, true));
}
echo "tasks():\n";
foreach ($db->tasks($q) as $t) {
    show($t);
}
echo "task():\n";
foreach ($ids as $id) {
    show($db->task($id));
}
echo "claimed:\n";
$db2 = lq_db();
$db->add('every-now', 'pn', ['queue' => $q . 'x', 'every' => '1h', 'runAt' => time() - 60]);
[$t] = $db2->claim($q . 'x', 1, false);
show($t);
?>
--EXPECT--
tasks():
every recurring=true everyMs=3600000 cron=NULL tz=NULL payload=NULL
cron recurring=true everyMs=0 cron='0 8 * * mon-fri' tz='Europe/Paris' payload=NULL
cron-utc recurring=true everyMs=0 cron='*/5 * * * *' tz=NULL payload=NULL
once recurring=false everyMs=0 cron=NULL tz=NULL payload=NULL
task():
every recurring=true everyMs=3600000 cron=NULL tz=NULL payload='pe'
cron recurring=true everyMs=0 cron='0 8 * * mon-fri' tz='Europe/Paris' payload='pc'
cron-utc recurring=true everyMs=0 cron='*/5 * * * *' tz=NULL payload=NULL
once recurring=false everyMs=0 cron=NULL tz=NULL payload='po'
claimed:
every-now recurring=true everyMs=3600000 cron=NULL tz=NULL payload='pn'
