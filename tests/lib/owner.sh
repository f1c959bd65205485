# shellcheck shell=sh
# tests/lib/owner.sh - sourced (POSIX sh) by the PostgreSQL server scripts
# in tests/servers/: PostgreSQL refuses to run as root, so as root its
# commands run as the "postgres" system user.

# as_owner COMMAND ARGS...: the command as the server's owner (postgres
# when we are root, else ourselves).
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		if command -v runuser >/dev/null 2>&1; then
			runuser -u postgres -- "$@"
		else
			# su needs one string: quote every argument.
			q=
			for a in "$@"; do
				q="$q '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
			done
			su postgres -s /bin/sh -c "$q"
		fi
	else
		"$@"
	fi
}
