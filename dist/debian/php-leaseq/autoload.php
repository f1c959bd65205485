<?php

/*
 * Autoloader of the leaseq PHP classes as Debian's php-* library packages
 * install them (/usr/share/php/Leaseq, on PHP's default include_path):
 *     require_once 'Leaseq/autoload.php';
 * PSR-4, as the Composer package's composer.json says: Leaseq\X\Y ->
 * Leaseq/X/Y.php here.  The classes of ext-leaseq (Leaseq\Db, ...) are the
 * extension's and are never looked up here.
 */

spl_autoload_register(static function (string $class): void {
    if (0 === strncmp($class, 'Leaseq\\', 7)) {
        $file = __DIR__.'/'.str_replace('\\', '/', substr($class, 7)).'.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
