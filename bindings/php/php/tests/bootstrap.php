<?php

/*
 * PHPUnit bootstrap of the package's tests (bindings/php/php/tests/run):
 * Debian's PHPUnit and Symfony components, the package through its PSR-4
 * autoloader, the tests' helpers.
 */

require_once 'PHPUnit/Autoload.php';
foreach (['Lock', 'Messenger'] as $component) {
    if (stream_resolve_include_path("Symfony/Component/$component/autoload.php")) {
        require_once "Symfony/Component/$component/autoload.php";
    }
}
require_once __DIR__.'/autoload.php';
require_once __DIR__.'/Support.php';
