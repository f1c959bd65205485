#!/usr/bin/env bash
# tests/deb/check.sh BUILD_DIR - the Debian packages:
# cpack builds libleaseqN (N: the SONAME's version), libleaseq-dev and
# leasectl from BUILD_DIR (a tree
# configured with -DCMAKE_INSTALL_PREFIX=/usr), apt-get installs them on this
# machine, then from the installed files only: leasectl migrates a SQLite
# database and a worker runs a task; a program builds against the library
# through pkg-config and runs; the worker unit verifies; the system user
# exists.  Then the packages are purged and nothing of them is left.
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
lib_pkg=libleaseq$(sed -n -E 's/^set\(LEASEQ_SOVERSION ([0-9]+)\)$/\1/p' "$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$B/CMakeCache.txt")/CMakeLists.txt")
for p in leasectl "$lib_pkg" libleaseq-dev; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        echo "# $p is installed already: not touching this machine's packages"
        exit 1
    fi
done

T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-deb.XXXXXX")
purge() { "${SUDO[@]}" apt-get purge -y -q leasectl libleaseq-dev "$lib_pkg" >"$T/purge.log" 2>&1; }
trap 'purge || true; rm -rf "$T"' EXIT

# ------------------------------------------------------------------ build
rm -f "$B"/*.deb
if (cd "$B" && cpack -G DEB) >"$T/cpack.log" 2>&1; then
    debs=("$B"/leasectl_*.deb "$B"/"$lib_pkg"_*.deb "$B"/libleaseq-dev_*.deb)
    ok "cpack built ${debs[*]##*/}"
else
    bad "cpack failed: $(tail -5 "$T/cpack.log" | tr '\n' '|')"
    exit 1
fi
dep=$(dpkg-deb -f "$B"/leasectl_*.deb Depends)
[[ "$dep" == *libsqlite3-0* ]] && ok "leasectl depends on: $dep" || bad "leasectl's Depends lacks libsqlite3-0: $dep"

# ------------------------------------------------------------------ install
if "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}" >"$T/install.log" 2>&1; then
    ok "apt-get install of the three packages"
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
ldd "$T/c" 2>/dev/null | grep -q -E "libleaseq.so.${lib_pkg#libleaseq} => /(usr/)?lib/" ||
    bad "the consumer does not load the installed libleaseq.so.${lib_pkg#libleaseq}"

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

# ------------------------------------------------------------------ remove
if purge; then
    left=""
    for f in /usr/bin/leasectl /usr/include/leaseq.h /usr/lib/systemd/system/leasectl-worker@.service; do
        [[ -e $f ]] && left+="$f "
    done
    compgen -G "/usr/lib/*/libleaseq.so*" >/dev/null && left+="libleaseq.so* "
    [[ -z "$left" ]] && ok "apt-get purge removed every file" || bad "left after purge: $left"
else
    bad "apt-get purge failed: $(tail -3 "$T/purge.log" | tr '\n' '|')"
fi
exit $fail
