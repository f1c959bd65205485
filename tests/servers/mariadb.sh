#!/usr/bin/env bash
# mariadb.sh - a throwaway MariaDB server for the tests.
#
#   mariadb.sh start DIR   install a fresh server into DIR (data, socket, log,
#                          pid all inside DIR), start it on a free 127.0.0.1
#                          port, create databases leaseq_test and leaseq_test_b
#                          (ctest's second slot) and user leaseq
#                          with a random password, and print as the last line
#                          LEASEQ_TEST_MYSQL_DSN=mysql://leaseq:PASS@127.0.0.1:PORT/leaseq_test
#                          (also kept in DIR/dsn).  Starting a running server
#                          again only prints the line again.
#   mariadb.sh start DIR --binlog
#                          the same with binary logging on (log_bin, and
#                          log_bin_trust_function_creators off, as on a
#                          managed server or a Galera node): what a user
#                          without SUPER may then create is narrower.
#   mariadb.sh stop DIR    stop it; safe to call twice.
#
# Works as root (the server runs with --user=root) and as a normal user.
# Installs nothing: mariadb-server must already be there.
set -euo pipefail

die() {
	echo "mariadb.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: mariadb.sh start DIR [--binlog] | stop DIR" >&2
	exit 64
}

[ $# -eq 2 ] || [ $# -eq 3 ] || usage
cmd=$1
dir=$2
opts=()
if [ $# -eq 3 ]; then
	[ "$cmd" = start ] && [ "$3" = --binlog ] || usage
	opts=(--log-bin=binlog --log-bin-trust-function-creators=0 --server-id=1)
fi

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ports.sh
. "$here/ports.sh"
# shellcheck source=mariadb_lib.sh
. "$here/mariadb_lib.sh"

stop_server() {
	my_stop "$dir"
}

case "$cmd" in
stop) my_stop_cmd stop_server ;;
start) ;;
*) usage ;;
esac

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sock=$dir/mysqld.sock
# sun_path holds 108 bytes; fail clearly instead of a cryptic bind error.
[ ${#sock} -lt 100 ] || die "socket path $sock is too long; use a shorter DIR"

# shellcheck disable=SC2034 # used by mariadb_lib.sh
MY_CLIENT=$(my_client)

# Already running from an earlier start: answer with the same DSN.
pid=$(my_read_pid "$dir")
if pid_alive "$pid" && [ -f "$dir/dsn" ] && my_answers "$dir"; then
	cat "$dir/dsn"
	exit 0
fi
stop_server

rm -rf "$dir/dsn" "$dir/error.log"
my_install "$dir" || die "could not install the system tables"

started=
for _ in 1 2 3 4 5; do
	port=$(pick_port) || die "could not find a free port"
	rc=0
	my_launch "$dir" "$port" "${opts[@]}" || rc=$?
	if [ $rc -eq 0 ]; then
		started=1
		break
	fi
done
[ -n "$started" ] || {
	my_log_tail "$dir"
	die "could not find a free port"
}

pass=$(my_password)
if ! my_create_user "$dir" "$pass"; then
	cat "$dir/setup.log" >&2
	stop_server
	die "could not create the test database and user"
fi

line="LEASEQ_TEST_MYSQL_DSN=mysql://leaseq:$pass@127.0.0.1:$port/leaseq_test"
(umask 077 && echo "$line" >"$dir/dsn")
echo "$line"
