<?php

/*
 * The package's PSR-4 autoloader for running without Composer (the tests,
 * the documentation's examples): Leaseq\X\Y -> src/X/Y.php, as
 * composer.json's "autoload" says.  Classes of ext-leaseq (Leaseq\Db, ...)
 * are the extension's and are never looked up here.
 */

spl_autoload_register(static function (string $class): void {
    if (0 === strncmp($class, 'Leaseq\\', 7)) {
        $file = dirname(__DIR__).'/src/'.str_replace('\\', '/', substr($class, 7)).'.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
