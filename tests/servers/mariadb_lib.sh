# shellcheck shell=bash
# mariadb_lib.sh - sourced (bash) by mariadb.sh and galera.sh: one throwaway
# mariadbd whose data, socket, log and pid all live in one directory.
# The caller defines die().

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

my_read_pid() { # DIR
	if [ -f "$1/mysqld.pid" ]; then
		tr -dc '0-9' <"$1/mysqld.pid"
	fi
}

my_log_tail() { # DIR
	if [ -f "$1/error.log" ]; then
		echo "--- last lines of $1/error.log:" >&2
		tail -n 30 "$1/error.log" >&2
	fi
}

# The client program: the caller sets MY_CLIENT=$(my_client) once.
my_client() {
	find_prog mariadb mysql || die "no mariadb client found (is mariadb-server installed?)"
}

# Root over the server's socket; extra arguments go to the client.
# shellcheck disable=SC2153 # MY_CLIENT is the caller's
my_sql() { # DIR CLIENT-ARGS...
	local d=$1
	shift
	"$MY_CLIENT" --no-defaults --socket="$d/mysqld.sock" -uroot "$@"
}

my_answers() { # DIR
	my_sql "$1" -e 'SELECT 1' >/dev/null 2>&1
}

my_stop() { # DIR
	local d=$1 pid admin
	pid=$(my_read_pid "$d")
	if ! pid_alive "$pid"; then
		rm -f "$d/mysqld.pid"
		return 0
	fi
	admin=$(find_prog mariadb-admin mysqladmin || true)
	if [ -n "$admin" ] && [ -S "$d/mysqld.sock" ]; then
		timeout 30 "$admin" --no-defaults --socket="$d/mysqld.sock" -uroot shutdown >/dev/null 2>&1 || true
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
	rm -f "$d/mysqld.pid" "$d/mysqld.sock"
}

# The scripts' "stop DIR": FN stops what $dir holds; no DIR, nothing to do.
my_stop_cmd() { # FN
	[ -d "$dir" ] || exit 0
	dir=$(cd "$dir" && pwd)
	"$1"
	exit 0
}

# mariadbd refuses to run as root unless told so explicitly; MY_RUN_AS
# names another user (who then owns DIR).
my_user_opt() {
	if [ "$(id -u)" -eq 0 ]; then
		echo "--user=${MY_RUN_AS:-root}"
	fi
}

# A fresh, empty data directory (DIR/data) with the system tables.
my_install() { # DIR
	local d=$1 installdb
	installdb=$(find_prog mariadb-install-db mysql_install_db) || die "no mariadb-install-db found"
	rm -rf "$d/data" "$d/tmp"
	mkdir -p "$d/data" "$d/tmp"
	chmod 700 "$d/data"
	# normal: root@localhost logs in over the socket without a password.
	# shellcheck disable=SC2046
	if ! "$installdb" --no-defaults $(my_user_opt) --datadir="$d/data" \
		--auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
		>"$d/install.log" 2>&1; then
		echo "mariadb-install-db failed:" >&2
		tail -n 30 "$d/install.log" >&2
		return 1
	fi
}

# Start mariadbd for DIR on PORT with the settings of a fast, small test
# server (still InnoDB and strict) plus extra options, in its own session.
# Waits until it answers on its socket (WAIT_S seconds, default 60).
# Returns 0 when up, 2 when the port was taken (try another), dies otherwise.
# Sets MY_SPID.
my_launch() { # DIR PORT [OPTION...]
	local d=$1 port=$2 mariadbd up=
	shift 2
	mariadbd=$(find_prog mariadbd mysqld) || die "no mariadbd found (is mariadb-server installed?)"
	mkdir -p "$d/tmp"
	: >"$d/error.log"
	[ -z "${MY_RUN_AS:-}" ] || chown -R "$MY_RUN_AS" "$d"
	# shellcheck disable=SC2046
	setsid "$mariadbd" --no-defaults $(my_user_opt) \
		--datadir="$d/data" --tmpdir="$d/tmp" \
		--socket="$d/mysqld.sock" --pid-file="$d/mysqld.pid" --log-error="$d/error.log" \
		--port="$port" --bind-address=127.0.0.1 --skip-name-resolve \
		--character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
		--default-storage-engine=InnoDB --max-connections=300 --max-allowed-packet=64M \
		--innodb-buffer-pool-size=64M \
		--innodb-flush-log-at-trx-commit=2 --innodb-doublewrite=0 \
		--skip-log-bin --skip-performance-schema "$@" \
		</dev/null >>"$d/mysqld.out" 2>&1 &
	MY_SPID=$!
	for _ in $(seq 1 $((${WAIT_S:-60} * 10))); do
		pid_alive "$MY_SPID" || break
		if my_answers "$d"; then
			up=1
			break
		fi
		sleep 0.1
	done
	if [ -n "$up" ]; then
		# mariadbd writes the pid file itself; make sure stop can find it.
		[ -s "$d/mysqld.pid" ] || echo "$MY_SPID" >"$d/mysqld.pid"
		return 0
	fi
	if pid_alive "$MY_SPID"; then
		kill -KILL "$MY_SPID" 2>/dev/null || true
		my_log_tail "$d"
		die "server did not answer within ${WAIT_S:-60} s"
	fi
	# A port taken between our check and the bind: try another one.
	grep -q -i "bind on tcp/ip port\|address already in use" "$d/error.log" 2>/dev/null && return 2
	my_log_tail "$d"
	die "server exited during start"
}

# The test databases and user leaseq with password PASS; only the socket
# root stays.  Test databases are leaseq_test and leaseq_test_*.
my_create_user() { # DIR PASS
	local d=$1 pass=$2 host
	host=$(hostname 2>/dev/null || uname -n)
	my_sql "$d" >"$d/setup.log" 2>&1 <<SQL
DROP USER IF EXISTS ''@'localhost', ''@'$host', 'root'@'127.0.0.1', 'root'@'::1', 'root'@'$host';
CREATE DATABASE IF NOT EXISTS leaseq_test CHARACTER SET utf8mb4;
CREATE DATABASE IF NOT EXISTS leaseq_test_b CHARACTER SET utf8mb4;
CREATE USER 'leaseq'@'127.0.0.1' IDENTIFIED BY '$pass';
CREATE USER 'leaseq'@'localhost' IDENTIFIED BY '$pass';
GRANT ALL ON leaseq_test.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost';
GRANT ALL ON \`leaseq\\_test\\_%\`.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost';
-- tests/cli_roles.sh creates least-privilege users and grants them table rights.
GRANT CREATE USER ON *.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost';
-- tests/test_backend_mysql.c counts the rows a claim's read holds locked
-- (information_schema.INNODB_TRX).
GRANT PROCESS ON *.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost';
GRANT ALL ON leaseq_test.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost' WITH GRANT OPTION;
GRANT ALL ON \`leaseq\\_test\\_%\`.* TO 'leaseq'@'127.0.0.1', 'leaseq'@'localhost' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
}

my_password() {
	head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n'
}
