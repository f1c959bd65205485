# ports.sh - sourced by the server scripts: a free TCP port on loopback.

# A TCP port nothing listens on now (a start retries if it loses a race).
port_free() {
	# /proc/net/tcp{,6} hold local ports in hex, in column 2 after ':'.
	hex=$(printf '%04X' "$1")
	! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '{print $2}' | grep -qi ":$hex\$"
}

pick_port() {
	i=0
	while [ $i -lt 200 ]; do
		p=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 30000 + 20000 ))
		if port_free "$p"; then
			echo "$p"
			return 0
		fi
		i=$((i + 1))
	done
	return 1
}
