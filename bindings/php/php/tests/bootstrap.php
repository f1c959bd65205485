<?php

/*
 * PHPUnit bootstrap of the package's tests (tests/symfony/run --suite php):
 * Debian's PHPUnit and Symfony components, the package through its PSR-4
 * autoloader, the tests' helpers.
 */

require_once 'PHPUnit/Autoload.php';
foreach (['Psr/Container', 'Symfony/Component/Lock', 'Symfony/Component/Messenger', 'Symfony/Component/EventDispatcher'] as $package) {
    if (stream_resolve_include_path("$package/autoload.php")) {
        require_once "$package/autoload.php";
    }
}
require_once __DIR__.'/autoload.php';
require_once __DIR__.'/Support.php';
if (interface_exists(Symfony\Component\Messenger\Transport\TransportInterface::class)) {
    require_once __DIR__.'/Messenger.php';
}
