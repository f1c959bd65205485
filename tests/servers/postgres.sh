#!/bin/sh
# postgres.sh - a throwaway PostgreSQL server for the tests.
#
#   postgres.sh start DIR   initdb + start a server whose data directory and
#                           unix socket live in DIR, listening on 127.0.0.1 on
#                           a free port, with databases leaseq_test and
#                           leaseq_test_b (ctest's second slot) and a
#                           password-authenticated role.  The last line on
#                           standard output is
#                           LEASEQ_TEST_PG_DSN=postgresql://USER:PASS@127.0.0.1:PORT/leaseq_test
#   postgres.sh stop DIR    stop it (safe to call twice, or after a failed start).
#
# PostgreSQL refuses to run as root: as root, DIR is handed to the "postgres"
# system user and the server runs as that user.  Nothing is installed here
# (tests/run installs packages).
set -eu

die() {
	echo "postgres.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: postgres.sh start|stop DIR" >&2
	exit 64
}

[ $# -eq 2 ] || usage
cmd=$1
dir=$2
case $dir in
/*) ;;
*) dir=$(pwd)/$dir ;;
esac

# Newest installed server (Debian layout), else whatever is on PATH.
find_bindir() {
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5 -n -r); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			echo "$d"
			return 0
		fi
	done
	if command -v pg_ctl >/dev/null 2>&1; then
		dirname "$(command -v pg_ctl)"
		return 0
	fi
	return 1
}

# shellcheck source=../lib/owner.sh
. "$(cd "$(dirname "$0")" && pwd)/../lib/owner.sh"

log_tail() {
	if [ -f "$dir/server.log" ]; then
		echo "---- last lines of $dir/server.log ----" >&2
		tail -n 30 "$dir/server.log" >&2
	fi
}

stop() {
	bindir=$(find_bindir) || die "no PostgreSQL server binaries found (/usr/lib/postgresql/*/bin)"
	if [ -f "$dir/data/postmaster.pid" ]; then
		as_owner "$bindir/pg_ctl" stop -D "$dir/data" -m immediate -w -t 30 >/dev/null 2>&1 || true
	fi
	# A socket directory outside DIR (long paths) is recorded there.
	if [ -f "$dir/sockdir" ]; then
		s=$(cat "$dir/sockdir")
		case $s in
		/tmp/lqpgsock.*) rm -rf "$s" ;;
		esac
		rm -f "$dir/sockdir"
	fi
	return 0
}

# shellcheck source=ports.sh
. "$(cd "$(dirname "$0")" && pwd)/ports.sh"

start() {
	bindir=$(find_bindir) || die "no PostgreSQL server binaries found (/usr/lib/postgresql/*/bin)"
	if [ -e "$dir/data/PG_VERSION" ]; then
		stop
	fi
	rm -rf "$dir/data" "$dir/server.log" "$dir/dsn"
	mkdir -p "$dir"
	if [ "$(id -u)" -eq 0 ]; then
		id postgres >/dev/null 2>&1 || die "running as root and there is no 'postgres' user to run the server as"
		chown postgres "$dir"
		chmod 700 "$dir"
		as_owner test -w "$dir" ||
			die "user postgres cannot write $dir (is a parent directory private?); use a directory under /tmp"
	fi

	# The socket path must fit in sun_path (107 bytes).
	sockdir=$dir
	if [ ${#dir} -gt 80 ]; then
		sockdir=$(mktemp -d /tmp/lqpgsock.XXXXXX)
		echo "$sockdir" >"$dir/sockdir"
		if [ "$(id -u)" -eq 0 ]; then
			chown postgres "$sockdir"
		fi
	fi

	user=leaseq
	pass=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	pwfile=$dir/superuser.pw
	od -An -N12 -tx1 /dev/urandom | tr -d ' \n' >"$pwfile"
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres "$pwfile"
	fi

	# Local socket: trust (the admin steps below); TCP: passwords only.
	if ! as_owner "$bindir/initdb" -D "$dir/data" -U postgres --pwfile="$pwfile" -E UTF8 \
		--locale=C --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1; then
		tail -n 30 "$dir/initdb.log" >&2
		die "initdb failed (log: $dir/initdb.log)"
	fi

	tries=0
	while :; do
		tries=$((tries + 1))
		port=$(pick_port) || die "no free TCP port found"
		if as_owner "$bindir/pg_ctl" start -D "$dir/data" -l "$dir/server.log" -w -t 60 -o \
			"-c port=$port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$sockdir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c log_min_messages=warning" \
			>/dev/null 2>&1; then
			break
		fi
		if [ $tries -ge 3 ] || ! grep -q "could not bind\|Address already in use" "$dir/server.log" 2>/dev/null; then
			log_tail
			stop
			die "the server did not start"
		fi
	done

	# Wait until it accepts connections (pg_ctl -w usually did already).
	i=0
	until "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -d postgres; do
		i=$((i + 1))
		if [ $i -ge 60 ]; then
			log_tail
			stop
			die "the server does not accept connections on 127.0.0.1:$port"
		fi
		sleep 0.5
	done

	if ! as_owner "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$sockdir" -p "$port" -U postgres -d postgres \
		-c "CREATE ROLE $user LOGIN CREATEROLE PASSWORD '$pass'" \
		-c "CREATE DATABASE leaseq_test OWNER $user" \
		-c "CREATE DATABASE leaseq_test_b OWNER $user" >"$dir/setup.log" 2>&1; then
		cat "$dir/setup.log" >&2
		log_tail
		stop
		die "could not create the test role and database"
	fi

	dsn="postgresql://$user:$pass@127.0.0.1:$port/leaseq_test"
	echo "$dsn" >"$dir/dsn"
	echo "PostgreSQL $("$bindir/pg_ctl" --version | awk '{print $3}') running in $dir on 127.0.0.1:$port" >&2
	echo "LEASEQ_TEST_PG_DSN=$dsn"
}

case $cmd in
start) start ;;
stop) stop ;;
*) usage ;;
esac
