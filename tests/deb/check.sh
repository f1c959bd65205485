#!/usr/bin/env bash
# tests/deb/check.sh BUILD_DIR - the Debian packages:
# cpack builds libleaseqN (N: the SONAME's version), libleaseq-dev and
# leasectl, and php-leaseq and python3-leaseq when BUILD_DIR builds the
# bindings, from BUILD_DIR (a tree
# configured with -DCMAKE_INSTALL_PREFIX=/usr), apt-get installs them on this
# machine, then from the installed files only: leasectl migrates a SQLite
# database and a worker runs a task; a program builds against the library
# through pkg-config and runs; the worker unit verifies; the system user
# exists; Debian's php (the extension enabled by the postinst) and Debian's
# python3 take and release a lease and add, claim and ack a task.  Then the
# packages are purged and nothing of them is left (the ini and its conf.d
# links, byte-code included).
# Needs root (or sudo without a password) and apt-get: tests/run runs it on
# the CI machine.  Exit 0 all ok, 1 a check failed, 77 cannot run here.
set -euo pipefail
B=${1:?usage: tests/deb/check.sh BUILD_DIR}
B=$(cd "$B" && pwd)
fail=0
ok() { echo "ok - $*"; }
bad() { echo "not ok - $*"; fail=1; }

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    if sudo -n true 2>/dev/null; then SUDO=(sudo -n); else echo "# not root and no passwordless sudo"; exit 77; fi
fi
command -v apt-get >/dev/null && command -v dpkg >/dev/null || { echo "# not a Debian system"; exit 77; }
[[ "$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$B/CMakeCache.txt")" == /usr ]] ||
    { echo "# $B is not configured with CMAKE_INSTALL_PREFIX=/usr"; exit 1; }
# The library package is named after the SONAME, as Debian's policy asks.
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$B/CMakeCache.txt")
lib_pkg=libleaseq$(sed -n -E 's/^set\(LEASEQ_SOVERSION ([0-9]+)\)$/\1/p' "$src/CMakeLists.txt")
pkgs=(leasectl "$lib_pkg" libleaseq-dev)
# The bindings' packages: those of the components this tree's CPack makes.
components=$(sed -n 's/^set(CPACK_COMPONENTS_ALL "\(.*\)")$/;\1;/p' "$B/CPackConfig.cmake")
with_php=0 with_py=0
[[ $components == *";php;"* ]] && with_php=1 && pkgs+=(php-leaseq)
[[ $components == *";python;"* ]] && with_py=1 && pkgs+=(python3-leaseq)
for p in "${pkgs[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        echo "# $p is installed already: not touching this machine's packages"
        exit 1
    fi
done

T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-deb.XXXXXX")
purge() { "${SUDO[@]}" apt-get purge -y -q "${pkgs[@]}" >"$T/purge.log" 2>&1; }
trap 'purge || true; rm -rf "$T"' EXIT

# ------------------------------------------------------------------ build
rm -f "$B"/*.deb
if (cd "$B" && cpack -G DEB) >"$T/cpack.log" 2>&1; then
    debs=()
    for p in "${pkgs[@]}"; do debs+=("$B/$p"_*.deb); done
    ok "cpack built ${debs[*]##*/}"
else
    bad "cpack failed: $(tail -5 "$T/cpack.log" | tr '\n' '|')"
    exit 1
fi
dep=$(dpkg-deb -f "$B"/leasectl_*.deb Depends)
[[ "$dep" == *libsqlite3-0* ]] && ok "leasectl depends on: $dep" || bad "leasectl's Depends lacks libsqlite3-0: $dep"
# The bindings: the library, and the PHP ABI / the one CPython the .so is for.
if [[ $with_php == 1 ]]; then
    dep=$(dpkg-deb -f "$B"/php-leaseq_*.deb Depends)
    phpapi=$(php-config --phpapi)
    [[ "$dep" == *"$lib_pkg "* && "$dep" == *"phpapi-$phpapi"* ]] && ok "php-leaseq depends on: $dep" ||
        bad "php-leaseq's Depends lacks $lib_pkg or phpapi-$phpapi: $dep"
fi
if [[ $with_py == 1 ]]; then
    dep=$(dpkg-deb -f "$B"/python3-leaseq_*.deb Depends)
    pyv=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    [[ "$dep" == *"$lib_pkg "* && "$dep" == *"python3 (>= $pyv~)"* && "$dep" == *"python3 (<< ${pyv%.*}.$((${pyv#*.} + 1)))"* ]] &&
        ok "python3-leaseq depends on: $dep" || bad "python3-leaseq's Depends lacks $lib_pkg or python3 $pyv only: $dep"
fi

# ------------------------------------------------------------------ install
if "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}" >"$T/install.log" 2>&1; then
    ok "apt-get install of ${pkgs[*]}"
else
    bad "apt-get install failed: $(tail -5 "$T/install.log" | tr '\n' '|')"
    exit 1
fi

# ------------------------------------------------------------------ use
L=/usr/bin/leasectl
why=""
[[ -x $L ]] || why+="no $L; "
ver=$(cd "$T" && "$L" version 2>&1 | head -1) || why+="leasectl version failed; "
(cd "$T" && "$L" --db "sqlite:$T/q.db" migrate >/dev/null && "$L" --db "sqlite:$T/q.db" task add hello >/dev/null &&
    "$L" --db "sqlite:$T/q.db" worker --drain --handler "hello=echo ran >> '$T/ran'" 2>"$T/worker.err") ||
    why+="migrate/task add/worker failed: $(tr '\n' ' ' <"$T/worker.err"); "
[[ "$(cat "$T/ran" 2>/dev/null)" == ran ]] || why+="the task did not run; "
[[ -z "$why" ]] && ok "installed leasectl ($ver): migrate, task add, worker --drain ran the task" || bad "$why"
for page in /usr/share/man/man1/leasectl.1 /usr/share/man/man3/leaseq.3; do
    [[ -s $page ]] || bad "no manual page $page"
done

cat >"$T/c.c" <<'C'
#include <leaseq.h>
#include <stdio.h>
int main(void)
{
	lq_db *db = NULL;
	int from = 0, to = 0;
	if (lq_open("sqlite:c.db", &db) != LQ_OK || lq_migrate(db, &from, &to) != LQ_OK)
		return 1;
	printf("%s %d\n", lq_version(), to);
	lq_close(db);
	return 0;
}
C
if (cd "$T" && cc c.c -o c $(pkg-config --cflags --libs leaseq) && ./c >c.out) 2>"$T/c.err"; then
    ok "a program built with \$(pkg-config --cflags --libs leaseq) runs: $(cat "$T/c.out")"
else
    bad "the pkg-config consumer failed: $(tr '\n' ' ' <"$T/c.err")"
fi
# FILE loads the installed libleaseq.so.N, not a build tree's.  (ldd's output
# is taken whole first: grep -q leaving early would fail a pipefail pipe.)
loads_installed_lib() {
    local out
    out=$(ldd "$1" 2>&1) || true
    grep -q -E "libleaseq.so.${lib_pkg#libleaseq} => /(usr/)?lib/" <<<"$out" ||
        bad "$1 does not load the installed libleaseq.so.${lib_pkg#libleaseq}: $(grep libleaseq <<<"$out" | tr -s ' \t' ' ')"
}
loads_installed_lib "$T/c"

if command -v systemd-analyze >/dev/null 2>&1; then
    if out=$(systemd-analyze verify --man=no /usr/lib/systemd/system/leasectl-worker@check.service 2>&1) && [[ -z "$out" ]]; then
        ok "the installed leasectl-worker@.service verifies"
    else
        bad "systemd-analyze verify: $(tr '\n' '|' <<<"$out")"
    fi
fi
if command -v systemd-sysusers >/dev/null 2>&1; then
    getent passwd leaseq >/dev/null && ok "postinst created the system user leaseq" || bad "no user leaseq after install"
fi

# A binding's module: no rpath (to a build tree), libleaseq from the system.
module_links() {
    local rpath
    rpath=$(readelf -d "$1" 2>&1 | grep -E 'R(UN)?PATH') && bad "$1 has an rpath: $(tr -s ' ' <<<"$rpath")"
    loads_installed_lib "$1"
}
# Debian's interpreters with nothing of this environment (PYTHONPATH, PHPRC,
# a pyenv python3 first on PATH ...), in the scratch directory.
run_clean() { (cd "$T" && env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 "$@"); }

if [[ $with_php == 1 ]]; then
    php_v=$(run_clean php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
    so=$(php-config --extension-dir)/leaseq.so
    if [[ -f $so ]]; then module_links "$so"; else bad "no $so"; fi
    why=""
    [[ -f /etc/php/$php_v/mods-available/leaseq.ini ]] || why+="no /etc/php/$php_v/mods-available/leaseq.ini; "
    for d in /etc/php/"$php_v"/*/conf.d; do
        [[ "$(readlink "$d/20-leaseq.ini")" == "/etc/php/$php_v/mods-available/leaseq.ini" ]] || why+="no $d/20-leaseq.ini; "
    done
    grep -q -x leaseq <<<"$(run_clean php -m)" || why+="php -m does not list leaseq; "
    [[ -z "$why" ]] && ok "php-leaseq's postinst enabled the extension for every SAPI (php -m lists leaseq)" || bad "$why"
    if out=$(run_clean php -d display_errors=stderr -r '
        function no(string $m): never { fwrite(STDERR, "$m\n"); exit(1); }
        $db = new Leaseq\Db("sqlite:php.db");
        $db->migrate();
        $lease = $db->acquire("deb-check", 30);
        if (!$lease->release()) no("the lease was not ours at release");
        $id = $db->add("hello", "world");
        $tasks = $db->claim();
        if (count($tasks) !== 1 || $tasks[0]->id !== $id || $tasks[0]->payload !== "world") no("claim: " . var_export($tasks, true));
        $db->ack($tasks[0]);
        if ($db->claim() !== [] || $db->task($id) !== null) no("the task is still there after ack");
        echo phpversion("leaseq");' 2>&1) && [[ $out =~ ^[0-9][0-9A-Za-z.~+-]*$ ]]; then
        ok "php -r: ext-leaseq $out took and released a lease, added, claimed and acked a task"
    else
        bad "php -r with the installed extension: $(tr '\n' ' ' <<<"$out")"
    fi
    # The PHP classes, when this tree has them: through Debian's include_path
    # and autoload.php, beside Debian's Symfony Lock.
    if [[ -d $src/bindings/php/php/src ]]; then
        if out=$(run_clean php -d display_errors=stderr -r '
            require_once "Leaseq/autoload.php";
            $id = Leaseq\Pdo::enqueue(new PDO("sqlite:php.db"), "via-pdo", "p");
            [$t] = (new Leaseq\Db("sqlite:php.db"))->claim();
            if ($t->id !== $id || $t->name !== "via-pdo") { fwrite(STDERR, "claimed the wrong task\n"); exit(1); }
            require_once "Symfony/Component/Lock/autoload.php";
            $lock = (new Symfony\Component\Lock\LockFactory(new Leaseq\Symfony\LeaseqStore("sqlite:php.db")))->createLock("deb-sf");
            if (!$lock->acquire() || !$lock->isAcquired()) { fwrite(STDERR, "the Symfony lock was not acquired\n"); exit(1); }
            $lock->release();
            echo "ok";' 2>&1) && [[ $out == ok ]]; then
            ok "php: require_once 'Leaseq/autoload.php': Leaseq\\Pdo enqueues a task the extension claims, LeaseqStore locks"
        else
            bad "the installed PHP classes: $(tr '\n' ' ' <<<"$out")"
        fi
    fi
fi

if [[ $with_py == 1 ]]; then
    if out=$(run_clean python3 -c '
import leaseq
assert leaseq.__file__.startswith("/usr/lib/python3/dist-packages/leaseq/"), leaseq.__file__
with leaseq.connect("sqlite:py.db") as db:
    db.migrate()
    lease = db.lease("deb-check", ttl=30)
    assert lease.release(), "the lease was not ours at release"
    tid = db.add("hello", "world")
    tasks = db.claim()
    assert len(tasks) == 1 and tasks[0].id == tid and tasks[0].text == "world", tasks
    db.ack(tasks[0])
    assert db.claim() == [] and db.get(tid) is None, "the task is still there after ack"
print(leaseq.__version__, leaseq._leaseq.__file__)' 2>&1); then
        ok "/usr/bin/python3: leaseq ${out%% *} took and released a lease, added, claimed and acked a task"
        module_links "${out#* }"
    else
        bad "python3 -c 'import leaseq': $(tr '\n' ' ' <<<"$out")"
    fi
fi

# ------------------------------------------------------------------ remove
if purge; then
    left=""
    for f in /usr/bin/leasectl /usr/include/leaseq.h /usr/lib/systemd/system/leasectl-worker@.service; do
        [[ -e $f ]] && left+="$f "
    done
    compgen -G "/usr/lib/*/libleaseq.so*" >/dev/null && left+="libleaseq.so* "
    # The bindings: module, ini and its links, the classes, phpenmod's
    # state, ucf's record, byte-code.
    for f in /usr/lib/php/*/leaseq.so /usr/share/php-leaseq /usr/share/php/Leaseq \
        /etc/php/*/mods-available/leaseq.ini /etc/php/*/*/conf.d/*leaseq* /var/lib/php/modules/*/registry/leaseq \
        /var/lib/php/modules/*/*/*/leaseq /usr/lib/python3/dist-packages/leaseq /usr/lib/python3/dist-packages/leaseq-*; do
        [[ -e $f || -L $f ]] && left+="$f "
    done
    ucf_left=$(grep -s -l leaseq /var/lib/ucf/hashfile /var/lib/ucf/registry || true)
    [[ -n $ucf_left ]] && left+="ucf's record of leaseq.ini in $(tr '\n' ' ' <<<"$ucf_left")"
    for p in "${pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q -v 'not-installed' && left+="package $p ($(dpkg-query -W -f='${Status}' "$p")) "
    done
    [[ -z "$left" ]] && ok "apt-get purge removed every file" || bad "left after purge: $left"
else
    bad "apt-get purge failed: $(tail -3 "$T/purge.log" | tr '\n' '|')"
fi
exit $fail
