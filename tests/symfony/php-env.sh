# shellcheck shell=bash
# tests/symfony/php-env.sh - sourced by tests/symfony/run and
# bindings/php/tests/docs.sh.
#
#   lq_php_without_installed_leaseq DIR [PHP]
#     A php-leaseq package installed on the machine loads its leaseq.so from
#     PHP's ini scan directory, before (and instead of) the build's one that
#     the tests load with -d extension=: fill DIR with links to every ini
#     file PHP scans but that one, and point PHP_INI_SCAN_DIR at it (the PHP
#     processes the tests start inherit it).  PHP: the php binary whose
#     scan directory that is (default: php).
lq_php_without_installed_leaseq() {
    mkdir -p "$1"
    # shellcheck disable=SC2016  # a PHP program
    "${2:-php}" -r 'foreach (array_filter(array_map("trim", explode(",", (string) php_ini_scanned_files()))) as $f) {
            if (!preg_match("/^\s*extension\s*=\s*\"?leaseq(\.so)?\"?\s*$/mi", (string) file_get_contents($f))) {
                symlink($f, $argv[1]."/".basename($f));
            }
        }' "$1"
    export PHP_INI_SCAN_DIR=$1
}
