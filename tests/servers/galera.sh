#!/usr/bin/env bash
# galera.sh - a throwaway three-node MariaDB Galera cluster on 127.0.0.1.
#
#   galera.sh start DIR   nodes DIR/node1..3 (each a mariadbd as mariadb.sh
#                         makes one, plus wsrep with the galera-4 provider,
#                         rsync SST, binlog_format ROW, autoinc lock mode 2):
#                         node 1 bootstraps the cluster and gets the test
#                         databases and user leaseq, nodes 2 and 3 join by
#                         SST one after the other; returns once
#                         wsrep_cluster_size is 3 and every node is Synced.
#                         The last line on standard output is
#                         LEASEQ_TEST_GALERA_DSNS=mysql://…node1… mysql://…node2… mysql://…node3…
#                         (space-separated; also kept in DIR/dsns).
#   galera.sh stop DIR    stop the nodes, 3 to 1; safe to call twice.
#
# Works as root (the servers run with --user=root) and as a normal user.
# Installs nothing: mariadb-server, galera-4 and rsync must be there.
set -euo pipefail

die() {
	echo "galera.sh: $*" >&2
	exit 1
}

[ $# -eq 2 ] || {
	echo "usage: galera.sh start|stop DIR" >&2
	exit 64
}
cmd=$1
dir=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ports.sh
. "$here/ports.sh"
# shellcheck source=mariadb_lib.sh
. "$here/mariadb_lib.sh"

stop_all() {
	local i
	for i in 3 2 1; do
		[ -d "$dir/node$i" ] && my_stop "$dir/node$i"
	done
	return 0
}

case "$cmd" in
stop) my_stop_cmd stop_all ;;
start) ;;
*) die "unknown command $cmd (start|stop)" ;;
esac

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ ${#dir} -lt 80 ] || die "$dir is too long for the nodes' socket paths; use a shorter DIR"
# shellcheck disable=SC2034 # used by mariadb_lib.sh
MY_CLIENT=$(my_client)

provider=
for p in /usr/lib/galera/libgalera_smm.so /usr/lib/libgalera_smm.so; do
	[ -f "$p" ] && provider=$p && break
done
if [ -z "$provider" ] && command -v dpkg >/dev/null 2>&1; then
	provider=$(dpkg -L galera-4 2>/dev/null | grep 'libgalera_smm\.so$' | head -n 1 || true)
fi
[ -n "$provider" ] || die "no libgalera_smm.so (is galera-4 installed?)"
command -v rsync >/dev/null 2>&1 || die "rsync is missing (the SST method)"
if [ "$(id -u)" -eq 0 ]; then
	# The joiner's SST runs an rsync daemon, which, started by root, writes
	# as "nobody" (and mariadbd puts its own bin directory first on the
	# SST script's PATH): so as root the nodes run as the mysql user.
	id mysql >/dev/null 2>&1 || die "running as root needs the mysql user (from mariadb-server)"
	export MY_RUN_AS=mysql
	chmod 755 "$dir"
fi

status_of() { # NODE VARIABLE -> its value in SHOW GLOBAL STATUS
	my_sql "$dir/node$1" -N -B -e "SHOW GLOBAL STATUS LIKE '$2'" 2>/dev/null | awk '{print $2}'
}

# Already running from an earlier start: answer with the same line.
if [ -f "$dir/dsns" ] && [ "$(status_of 1 wsrep_cluster_size)" = 3 ]; then
	cat "$dir/dsns"
	exit 0
fi
stop_all
rm -f "$dir/dsns"

# Each node: a client port, and Galera's group (gmcast), IST and SST ports.
ports=()
for _ in $(seq 1 12); do
	while :; do
		p=$(pick_port) || die "could not find a free port"
		case " ${ports[*]:-} " in *" $p "*) continue ;; esac
		break
	done
	ports+=("$p")
done
gcomm=gcomm://127.0.0.1:${ports[1]},127.0.0.1:${ports[5]},127.0.0.1:${ports[9]}

start_node() { # I [OPTION...]
	local i=$1 b=$(((${1} - 1) * 4))
	shift
	local d=$dir/node$i
	mkdir -p "$d/tmp"
	WAIT_S=300 my_launch "$d" "${ports[$b]}" \
		--wsrep-on=ON --wsrep-provider="$provider" \
		--wsrep-cluster-name=leaseq_test --wsrep-node-name="node$i" \
		--wsrep-cluster-address="$gcomm" --wsrep-node-address="127.0.0.1:${ports[$((b + 1))]}" \
		--wsrep-provider-options="gmcast.listen_addr=tcp://127.0.0.1:${ports[$((b + 1))]};ist.recv_addr=127.0.0.1:${ports[$((b + 2))]};gcache.size=64M" \
		--wsrep-sst-method=rsync --wsrep-sst-receive-address="127.0.0.1:${ports[$((b + 3))]}" \
		--binlog-format=ROW --innodb-autoinc-lock-mode=2 "$@" ||
		die "node $i did not start (a port was taken?)"
}

wait_synced() { # I
	for _ in $(seq 1 1200); do
		[ "$(status_of "$1" wsrep_local_state_comment)" = Synced ] && return 0
		pid_alive "$(my_read_pid "$dir/node$1")" || break
		sleep 0.1
	done
	my_log_tail "$dir/node$1"
	die "node $1 is not Synced"
}

my_install "$dir/node1" || die "could not install the system tables"
start_node 1 --wsrep-new-cluster
wait_synced 1
pass=$(my_password)
if ! my_create_user "$dir/node1" "$pass"; then
	cat "$dir/node1/setup.log" >&2
	stop_all
	die "could not create the test database and user"
fi
# Joiners get everything, users included, from node 1 by SST: one at a
# time, since an rsync donor serves one joiner.
for i in 2 3; do
	rm -rf "$dir/node$i"
	mkdir -p "$dir/node$i/data"
	chmod 700 "$dir/node$i/data"
	start_node "$i"
	wait_synced "$i"
done
for i in 1 2 3; do
	wait_synced "$i"
	[ "$(status_of "$i" wsrep_cluster_size)" = 3 ] || die "node $i sees a cluster of $(status_of "$i" wsrep_cluster_size), not 3"
done

dsns=
for i in 0 1 2; do
	dsns="$dsns${dsns:+ }mysql://leaseq:$pass@127.0.0.1:${ports[$((i * 4))]}/leaseq_test"
done
line="LEASEQ_TEST_GALERA_DSNS=$dsns"
(umask 077 && echo "$line" >"$dir/dsns")
echo "$line"
