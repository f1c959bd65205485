#!/bin/sh
# bindings/php/build.sh SRC OUT PHPIZE PHP_CONFIG INCDIR LIBDIR [CFLAGS] - build
# ext-leaseq with phpize in OUT (the CMake build tree's bindings/php), from
# the sources in SRC, against leaseq.h in INCDIR and libleaseq.so in LIBDIR
# (linked with an rpath to it, so the module loads from the build tree).
# phpize and configure write many files: they never go into the source tree.
# Files are copied only when they changed, so make rebuilds what it must.
set -eu
src=$1 out=$2 phpize=$3 php_config=$4 inc=$5 lib=$6 cflags=${7:-}
mkdir -p "$out/tests"
copy() { cmp -s "$1" "$2/${1##*/}" || cp "$1" "$2/"; }
for f in "$src"/*.c "$src"/*.h "$src"/config.m4 "$src"/leaseq.stub.php; do copy "$f" "$out"; done
for f in "$src"/tests/*; do [ -f "$f" ] && copy "$f" "$out/tests"; done
cd "$out"
if [ ! -f configure ] || [ config.m4 -nt configure ]; then
    "$phpize" >phpize.log 2>&1 || { cat phpize.log; exit 1; }
    rm -f Makefile
fi
if [ ! -f Makefile ]; then
    if ! LEASEQ_CFLAGS="-I$inc" LEASEQ_LIBS="-L$lib -Wl,-rpath,$lib -lleaseq" CFLAGS="-O2 -g $cflags" \
        ./configure --with-php-config="$php_config" --with-leaseq >configure.log 2>&1; then
        tail -n 30 configure.log
        exit 1
    fi
fi
env -u MAKEFLAGS -u MFLAGS make -s >make.log 2>&1 || { cat make.log; exit 1; }
grep -i "warning" make.log || true
