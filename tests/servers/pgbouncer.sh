#!/bin/sh
# pgbouncer.sh - a throwaway PgBouncer in transaction pooling mode for the tests.
#
#   pgbouncer.sh start DIR [SERVER_DSN]
#                           PgBouncer on 127.0.0.1 on a free port, pool_mode
#                           transaction, a small pool (default_pool_size 5),
#                           in front of SERVER_DSN (a postgresql:// URI with
#                           user, password, 127.0.0.1 and port), else of a
#                           private server that tests/servers/postgres.sh
#                           starts in DIR/pg.  The last line on standard
#                           output is
#                           LEASEQ_TEST_PGBOUNCER_DSN=postgresql://USER:PASS@127.0.0.1:PORT/DB
#   pgbouncer.sh stop DIR   stop it, and the private server (safe to call twice).
#
# PgBouncer refuses to run as root: as root it runs as the "postgres" system
# user, as postgres.sh does.  Nothing is installed here (tests/run installs
# packages).
set -eu

die() {
	echo "pgbouncer.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: pgbouncer.sh start DIR [SERVER_DSN] | stop DIR" >&2
	exit 64
}

[ $# -ge 2 ] && [ $# -le 3 ] || usage
cmd=$1
dir=$2
upstream=${3:-}
case $dir in
/*) ;;
*) dir=$(pwd)/$dir ;;
esac
here=$(cd "$(dirname "$0")" && pwd)

# shellcheck source=../lib/owner.sh
. "$here/../lib/owner.sh"

stop() {
	if [ -f "$dir/pgbouncer.pid" ]; then
		pid=$(cat "$dir/pgbouncer.pid" 2>/dev/null || true)
		if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
			kill -INT "$pid" 2>/dev/null || true
			i=0
			while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
				sleep 0.1
				i=$((i + 1))
			done
			kill -KILL "$pid" 2>/dev/null || true
		fi
		rm -f "$dir/pgbouncer.pid"
	fi
	if [ -d "$dir/pg" ]; then
		sh "$here/postgres.sh" stop "$dir/pg" >/dev/null 2>&1 || true
	fi
	return 0
}

# shellcheck source=ports.sh
. "$here/ports.sh"

start() {
	command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] ||
		die "pgbouncer is not installed (apt-get install pgbouncer)"
	bin=$(command -v pgbouncer 2>/dev/null || echo /usr/sbin/pgbouncer)
	stop
	mkdir -p "$dir"
	if [ -z "$upstream" ]; then
		line=$(sh "$here/postgres.sh" start "$dir/pg" | tail -n 1) || die "its PostgreSQL server did not start"
		upstream=${line#*=}
	fi
	# postgresql://USER:PASS@HOST:PORT/DB (what postgres.sh prints)
	rest=${upstream#*://}
	cred=${rest%%@*}
	user=${cred%%:*}
	pass=${cred#*:}
	hostport=${rest#*@}
	hostport=${hostport%%/*}
	db=${rest#*/}
	db=${db%%\?*}
	shost=${hostport%:*}
	sport=${hostport##*:}
	[ -n "$user" ] && [ -n "$pass" ] && [ -n "$sport" ] && [ -n "$db" ] ||
		die "cannot read user, password, port and database from the server DSN"

	if [ "$(id -u)" -eq 0 ]; then
		id postgres >/dev/null 2>&1 || die "running as root and there is no 'postgres' user to run pgbouncer as"
		chown postgres "$dir"
	fi
	chmod 700 "$dir"
	umask 077
	printf '"%s" "%s"\n' "$user" "$pass" >"$dir/userlist.txt"
	tries=0
	while :; do
		tries=$((tries + 1))
		port=$(pick_port) || die "no free TCP port found"
		cat >"$dir/pgbouncer.ini" <<EOF
[databases]
$db = host=$shost port=$sport dbname=$db

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
pool_mode = transaction
default_pool_size = 5
max_client_conn = 500
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
log_connections = 0
log_disconnections = 0
EOF
		if [ "$(id -u)" -eq 0 ]; then
			chown postgres "$dir/pgbouncer.ini" "$dir/userlist.txt"
			[ -f "$dir/pgbouncer.log" ] && chown postgres "$dir/pgbouncer.log"
		fi
		if as_owner "$bin" -d -q "$dir/pgbouncer.ini" >>"$dir/start.log" 2>&1; then
			i=0
			while [ $i -lt 50 ]; do
				if ! port_free "$port"; then
					break
				fi
				sleep 0.1
				i=$((i + 1))
			done
			if ! port_free "$port" && [ -f "$dir/pgbouncer.pid" ]; then
				break
			fi
		fi
		if [ $tries -ge 3 ]; then
			tail -n 20 "$dir/pgbouncer.log" "$dir/start.log" >&2 2>/dev/null || true
			stop
			die "pgbouncer did not start"
		fi
	done
	dsn="postgresql://$user:$pass@127.0.0.1:$port/$db"
	echo "$dsn" >"$dir/dsn"
	echo "$("$bin" --version | head -n 1) (transaction pooling) in $dir on 127.0.0.1:$port, in front of $shost:$sport" >&2
	echo "LEASEQ_TEST_PGBOUNCER_DSN=$dsn"
}

case $cmd in
start) start ;;
stop) stop ;;
*) usage ;;
esac
