<?php

/*
 * PHPUnit bootstrap for tests/symfony/run: Debian's PHPUnit and Symfony Lock
 * component, Symfony's own store tests from LEASEQ_SYMFONY_TESTS (the
 * unpacked Tests/ directory of Debian's symfony source package, never
 * copied into this repository), and our adapters.
 */

require_once 'PHPUnit/Autoload.php';
require_once 'Symfony/Component/Lock/autoload.php';

$tests = getenv('LEASEQ_SYMFONY_TESTS');
if (!$tests || !is_file($tests.'/Store/AbstractStoreTestCase.php')) {
    fwrite(STDERR, "bootstrap.php: LEASEQ_SYMFONY_TESTS must name Symfony Lock's Tests directory\n");
    exit(1);
}
spl_autoload_register(function (string $class) use ($tests) {
    $prefix = 'Symfony\\Component\\Lock\\Tests\\';
    if (0 === strncmp($class, $prefix, \strlen($prefix))) {
        $file = $tests.'/'.str_replace('\\', '/', substr($class, \strlen($prefix))).'.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

// The package (bindings/php/php): LeaseqStore, what both stores share.
require_once __DIR__.'/../../bindings/php/php/tests/autoload.php';
require_once __DIR__.'/LeasectlStore.php';
require_once __DIR__.'/StoreAdapterTestCase.php';
