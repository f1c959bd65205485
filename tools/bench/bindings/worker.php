<?php

/*
 * worker.php - a PHP worker of tools/bench-bindings: Leaseq\Worker with an
 * empty handler on one queue, one process, one connection; the same
 * arguments and output as worker.py (SIGTERM stops run() after the
 * current task).
 *
 * Usage: php -d extension=leaseq.so worker.php DSN QUEUE drain|serve
 */

[, $dsn, $queue, $mode] = $argv;
$db = new Leaseq\Db($dsn);
$db->now();
$serve = 'serve' === $mode;
$worker = new Leaseq\Worker($db, [$queue]);
$worker->handle('*', function (Leaseq\Task $task) use ($serve) {
    if ($serve) {
        fwrite(STDOUT, sprintf("%d %.6f\n", $task->id, microtime(true)));
    }
});
fwrite(STDOUT, "ready\n");
fgets(STDIN);
$report = $worker->run(!$serve);
fwrite(STDOUT, sprintf("done %.6f %d\n", microtime(true), $report['ran']));
