#!/bin/sh
# pg_failover.sh - a throwaway PostgreSQL primary with a synchronous
# streaming standby, both on 127.0.0.1, for the failover tests.
#
#   pg_failover.sh start DIR     the primary (tests/servers/postgres.sh in
#                                DIR/primary, synchronous_commit on for the
#                                test database, synchronous_standby_names
#                                'standby') and a standby made by
#                                pg_basebackup in DIR/standby, streaming and
#                                synchronous before this returns.  The last
#                                line on standard output is
#                                LEASEQ_TEST_PG_FAILOVER_DSN=postgresql://USER:PASS@127.0.0.1:P1,127.0.0.1:P2/leaseq_test?target_session_attrs=read-write
#   pg_failover.sh failover DIR  what failover tooling does: the primary and
#                                its processes SIGKILLed, the standby
#                                promoted and its synchronous_standby_names
#                                cleared (it has no standby of its own:
#                                left set, every COMMIT would wait forever)
#   pg_failover.sh stop DIR      stop both (safe to call twice)
#
# Environment: LEASEQ_STANDBY_FAKETIME (e.g. "+30s" or "-30s"): the standby
# runs under libfaketime with that offset (what server clock skew does to
# leases after a failover).
set -eu

die() {
	echo "pg_failover.sh: $*" >&2
	exit 1
}

[ $# -eq 2 ] || {
	echo "usage: pg_failover.sh start|failover|stop DIR" >&2
	exit 64
}
cmd=$1
dir=$2
case $dir in
/*) ;;
*) dir=$(pwd)/$dir ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ports.sh
. "$here/ports.sh"

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5 -n -r | head -n 1)
[ -n "$bindir" ] || bindir=$(dirname "$(command -v pg_ctl 2>/dev/null || echo /x/pg_ctl)")

# shellcheck source=../lib/owner.sh
. "$here/../lib/owner.sh"

# psql as the superuser over the unix socket of instance DIR/NAME (port P).
admin() { # SOCKDIR PORT SQL
	as_owner "$bindir/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$1" -p "$2" -U postgres -d postgres -c "$3"
}

port_of() { # DATADIR -> the port in postmaster.pid (line 4)
	sed -n 4p "$1/postmaster.pid" 2>/dev/null
}

stop() {
	if [ -f "$dir/standby/data/postmaster.pid" ]; then
		as_owner "$bindir/pg_ctl" stop -D "$dir/standby/data" -m immediate -w -t 30 >/dev/null 2>&1 || true
	fi
	if [ -d "$dir/primary" ]; then
		sh "$here/postgres.sh" stop "$dir/primary" >/dev/null 2>&1 || true
	fi
	return 0
}

start() {
	stop
	rm -rf "$dir/standby"
	mkdir -p "$dir"
	line=$(sh "$here/postgres.sh" start "$dir/primary" | tail -n 1) || die "the primary did not start"
	dsn=${line#*=}
	p1=$(port_of "$dir/primary/data")
	sock1=$dir/primary
	[ -f "$dir/primary/sockdir" ] && sock1=$(cat "$dir/primary/sockdir")
	# postgres.sh starts the server with synchronous_commit=off; a
	# database setting overrides the command line.
	admin "$sock1" "$p1" "ALTER DATABASE leaseq_test SET synchronous_commit = on" >/dev/null ||
		die "cannot set synchronous_commit on the primary"

	mkdir -p "$dir/standby"
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres "$dir" "$dir/standby"
	fi
	chmod 700 "$dir/standby"
	pw=$(cat "$dir/primary/superuser.pw")
	if ! PGPASSWORD=$pw as_owner env PGPASSWORD="$pw" "$bindir/pg_basebackup" -h 127.0.0.1 -p "$p1" -U postgres \
		-D "$dir/standby/data" -X stream -R -c fast >"$dir/standby/basebackup.log" 2>&1; then
		cat "$dir/standby/basebackup.log" >&2
		stop
		die "pg_basebackup failed"
	fi
	# The standby names itself for synchronous_standby_names.
	cat >>"$dir/standby/data/postgresql.auto.conf" <<EOF
primary_conninfo = 'host=127.0.0.1 port=$p1 user=postgres password=$pw application_name=standby'
EOF
	pre=
	if [ -n "${LEASEQ_STANDBY_FAKETIME:-}" ]; then
		lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
		[ -n "$lib" ] || die "LEASEQ_STANDBY_FAKETIME is set and libfaketime is not installed"
		pre="env LD_PRELOAD=$lib FAKETIME=${LEASEQ_STANDBY_FAKETIME} FAKETIME_DONT_RESET=1"
	fi
	tries=0
	while :; do
		tries=$((tries + 1))
		p2=$(pick_port) || die "no free TCP port found"
		# shellcheck disable=SC2086
		if as_owner $pre "$bindir/pg_ctl" start -D "$dir/standby/data" -l "$dir/standby/server.log" -w -t 60 -o \
			"-c port=$p2 -c listen_addresses=127.0.0.1 -c unix_socket_directories=$sock1 -c fsync=off -c full_page_writes=off -c max_connections=200 -c log_min_messages=warning" \
			>/dev/null 2>&1; then
			break
		fi
		if [ $tries -ge 3 ]; then
			tail -n 30 "$dir/standby/server.log" >&2 || true
			stop
			die "the standby did not start"
		fi
	done
	admin "$sock1" "$p1" "ALTER SYSTEM SET synchronous_standby_names = 'standby'" >/dev/null &&
		admin "$sock1" "$p1" "SELECT pg_reload_conf()" >/dev/null || die "cannot make the standby synchronous"
	i=0
	until [ "$(admin "$sock1" "$p1" "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'" 2>/dev/null)" = sync ]; do
		i=$((i + 1))
		if [ $i -ge 120 ]; then
			tail -n 30 "$dir/standby/server.log" >&2 || true
			stop
			die "the standby is not streaming synchronously after 60 s"
		fi
		sleep 0.5
	done
	echo "$p2" >"$dir/standby/port"
	echo "$sock1" >"$dir/standby/sockdir"
	rest=${dsn#*@}
	fdsn="${dsn%%@*}@127.0.0.1:$p1,127.0.0.1:$p2/${rest#*/}?target_session_attrs=read-write"
	echo "PostgreSQL primary on 127.0.0.1:$p1, synchronous standby on 127.0.0.1:$p2${LEASEQ_STANDBY_FAKETIME:+ (clock $LEASEQ_STANDBY_FAKETIME)}, in $dir" >&2
	echo "LEASEQ_TEST_PG_FAILOVER_DSN=$fdsn"
}

failover() {
	pid=$(head -n 1 "$dir/primary/data/postmaster.pid" 2>/dev/null || true)
	[ -n "$pid" ] || die "no primary running in $dir/primary"
	# The postmaster and every backend at once, as a machine that dies.
	kill -KILL "$pid" $(pgrep -P "$pid" 2>/dev/null || true) 2>/dev/null || true
	p2=$(cat "$dir/standby/port")
	sock=$(cat "$dir/standby/sockdir")
	as_owner "$bindir/pg_ctl" promote -D "$dir/standby/data" -w -t 60 >/dev/null || die "promote failed"
	admin "$sock" "$p2" "ALTER SYSTEM SET synchronous_standby_names = ''" >/dev/null &&
		admin "$sock" "$p2" "SELECT pg_reload_conf()" >/dev/null || die "cannot clear synchronous_standby_names"
	echo "failover: primary (pid $pid) killed, standby on 127.0.0.1:$p2 promoted" >&2
}

case $cmd in
start) start ;;
failover) failover ;;
stop) stop ;;
*) die "unknown command $cmd" ;;
esac
