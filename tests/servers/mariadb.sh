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
	echo "usage: mariadb.sh start|stop DIR" >&2
	exit 64
}

[ $# -eq 2 ] || usage
cmd=$1
dir=$2

# First program found on PATH or in the usual sbin directories.
find_prog() {
	local p d
	for p in "$@"; do
		if command -v "$p" >/dev/null 2>&1; then
			command -v "$p"
			return 0
		fi
		for d in /usr/sbin /usr/local/sbin /usr/libexec /usr/local/libexec; do
			if [ -x "$d/$p" ]; then
				echo "$d/$p"
				return 0
			fi
		done
	done
	return 1
}

pid_alive() {
	[ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null
}

read_pid() {
	if [ -f "$dir/mysqld.pid" ]; then
		tr -dc '0-9' <"$dir/mysqld.pid"
	fi
}

log_tail() {
	if [ -f "$dir/error.log" ]; then
		echo "--- last lines of $dir/error.log:" >&2
		tail -n 30 "$dir/error.log" >&2
	fi
}

stop_server() {
	local pid
	pid=$(read_pid)
	if ! pid_alive "$pid"; then
		rm -f "$dir/mysqld.pid"
		return 0
	fi
	admin=$(find_prog mariadb-admin mysqladmin || true)
	if [ -n "$admin" ] && [ -S "$dir/mysqld.sock" ]; then
		timeout 30 "$admin" --no-defaults --socket="$dir/mysqld.sock" -uroot shutdown >/dev/null 2>&1 || true
	fi
	if pid_alive "$pid"; then
		kill -TERM "$pid" 2>/dev/null || true
	fi
	for _ in $(seq 1 300); do
		pid_alive "$pid" || break
		sleep 0.1
	done
	if pid_alive "$pid"; then
		kill -KILL "$pid" 2>/dev/null || true
		sleep 0.2
	fi
	rm -f "$dir/mysqld.pid" "$dir/mysqld.sock"
}

case "$cmd" in
stop)
	[ -d "$dir" ] || exit 0
	dir=$(cd "$dir" && pwd)
	stop_server
	exit 0
	;;
start) ;;
*) usage ;;
esac

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sock=$dir/mysqld.sock
# sun_path holds 108 bytes; fail clearly instead of a cryptic bind error.
[ ${#sock} -lt 100 ] || die "socket path $sock is too long; use a shorter DIR"

client=$(find_prog mariadb mysql) || die "no mariadb client found (is mariadb-server installed?)"

# Already running from an earlier start: answer with the same DSN.
pid=$(read_pid)
if pid_alive "$pid" && [ -f "$dir/dsn" ]; then
	if "$client" --no-defaults --socket="$sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
		cat "$dir/dsn"
		exit 0
	fi
fi
stop_server

mariadbd=$(find_prog mariadbd mysqld) || die "no mariadbd found (is mariadb-server installed?)"
installdb=$(find_prog mariadb-install-db mysql_install_db) || die "no mariadb-install-db found"

user_opt=()
if [ "$(id -u)" -eq 0 ]; then
	# mariadbd refuses to run as root unless told so explicitly.
	user_opt=(--user=root)
fi

rm -rf "$dir/data" "$dir/tmp" "$dir/dsn" "$dir/error.log"
mkdir -p "$dir/data" "$dir/tmp"
chmod 700 "$dir/data"
# normal: root@localhost logs in over the socket without a password.
if ! "$installdb" --no-defaults "${user_opt[@]}" --datadir="$dir/data" \
	--auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
	>"$dir/install.log" 2>&1; then
	echo "mariadb.sh: mariadb-install-db failed:" >&2
	tail -n 30 "$dir/install.log" >&2
	exit 1
fi

port_in_use() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

started=
for _ in 1 2 3 4 5; do
	port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
	port_in_use "$port" && continue
	: >"$dir/error.log"
	# Settings for a fast, small test server; still InnoDB and strict.
	setsid "$mariadbd" --no-defaults "${user_opt[@]}" \
		--datadir="$dir/data" --tmpdir="$dir/tmp" \
		--socket="$sock" --pid-file="$dir/mysqld.pid" --log-error="$dir/error.log" \
		--port="$port" --bind-address=127.0.0.1 --skip-name-resolve \
		--character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
		--default-storage-engine=InnoDB --max-connections=300 --max-allowed-packet=64M \
		--innodb-buffer-pool-size=64M \
		--innodb-flush-log-at-trx-commit=2 --innodb-doublewrite=0 \
		--skip-log-bin --skip-performance-schema \
		</dev/null >>"$dir/mysqld.out" 2>&1 &
	spid=$!
	for _ in $(seq 1 600); do
		if ! pid_alive "$spid"; then
			break
		fi
		if "$client" --no-defaults --socket="$sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
			started=1
			break
		fi
		sleep 0.1
	done
	[ -n "$started" ] && break
	if pid_alive "$spid"; then
		kill -KILL "$spid" 2>/dev/null || true
		log_tail
		die "server did not answer within 60 s"
	fi
	# A port taken between our check and the bind: try another one.
	grep -q -i "bind on tcp/ip port\|address already in use" "$dir/error.log" 2>/dev/null && continue
	log_tail
	die "server exited during start"
done
[ -n "$started" ] || {
	log_tail
	die "could not find a free port"
}
# mariadbd writes the pid file itself; make sure stop can find the server.
[ -s "$dir/mysqld.pid" ] || echo "$spid" >"$dir/mysqld.pid"

host=$(hostname 2>/dev/null || uname -n)
pass=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
# Only the socket root stays; test databases are leaseq_test and leaseq_test_*.
if ! "$client" --no-defaults --socket="$sock" -uroot >"$dir/setup.log" 2>&1 <<EOF; then
DROP USER IF EXISTS ''@'localhost', ''@'$host', 'root'@'127.0.0.1', 'root'@'::1', 'root'@'$host';
CREATE DATABASE IF NOT EXISTS leaseq_test CHARACTER SET utf8mb4;
CREATE DATABASE IF NOT EXISTS leaseq_test_b CHARACTER SET utf8mb4;
CREATE USER 'leaseq'@'127.0.0.1' IDENTIFIED BY '$pass';
CREATE USER 'leaseq'@'localhost' IDENTIFIED BY '$pass';
GRANT ALL ON leaseq_test.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost';
GRANT ALL ON \`leaseq\\_test\\_%\`.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost';
-- tests/cli_roles.sh creates least-privilege users and grants them table rights.
GRANT CREATE USER ON *.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost';
GRANT ALL ON leaseq_test.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost' WITH GRANT OPTION;
GRANT ALL ON \`leaseq\\_test\\_%\`.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost' WITH GRANT OPTION;
FLUSH PRIVILEGES;
EOF
	cat "$dir/setup.log" >&2
	stop_server
	die "could not create the test database and user"
fi

line="LEASEQ_TEST_MYSQL_DSN=mysql://leaseq:$pass@127.0.0.1:$port/leaseq_test"
(umask 077 && echo "$line" >"$dir/dsn")
echo "$line"
