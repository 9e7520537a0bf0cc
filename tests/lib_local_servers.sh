# shellcheck shell=bash
# Local servers for the FUSE tests and bench/seeds_fuse.sh: helpers only (no traps, no side
# effects until called); every server binds 127.0.0.1 only.
#
# A port is never chosen by one process and bound by another (a port found free and released can be
# taken by anyone before the server binds it): a server binds its port itself (s3rver -p 0), or is
# started on a candidate port and kept only once `ss` shows that very process listening on
# 127.0.0.1:PORT; one that failed to bind (the port was taken meanwhile) is stopped and the next
# candidate tried.
#
#   listen_pid_port PID          the TCP port PID listens on at 127.0.0.1 (the first), or nothing
#   local_listen LOG FN [ARGS]   up to 10 candidate ports: runs "FN PORT ARGS..." in the background
#                                (stdout and stderr to LOG; FN must exec the server, so that its
#                                pid is the server's), until that pid listens on 127.0.0.1:PORT
#                                (20 s a try). Sets LISTEN_PID and LISTEN_PORT, and LISTEN_WHY
#                                (which try it was; or why the last failed, then 1 is returned).
#                                The caller stops LISTEN_PID.
#   sshd_local_start DIR         sshd -D on 127.0.0.1 with DIR/host_key and DIR/authorized_keys
#                                (sshd_local_config), log DIR/sshd.log: SSHD_PID, SSHD_PORT
#   s3rver_local_start DIR BUCKET LOG
#                                s3rver on 127.0.0.1 port 0 (it binds a free port itself), data in
#                                DIR, bucket BUCKET made at start: S3RVER_PID, S3RVER_PORT
#   free_port                    (bench/seeds_fuse.sh only) a port that was free a moment ago:
#                                racy, the tests do not use it

# free_port: a TCP port on 127.0.0.1 that was free when asked (another process may bind it before
# the caller's server does: prefer local_listen)
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# fuse_mount_wait MNT PID: wait (up to 10 s) until MNT is a FUSE mount served by PID (alive).
fuse_mount_wait() {
	for _ in $(seq 100); do
		findmnt -rn -o FSTYPE --mountpoint "$1" 2>/dev/null | grep -q '^fuse' && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

listen_pid_port() {
	ss -Hltnp 2>/dev/null | awk -v want="pid=$1," '
		index($0, want) && $4 ~ /^127[.]0[.]0[.]1:[0-9]+$/ { sub(/.*:/, "", $4); print $4; exit }'
}

local_listen() {
	local log=$1 fn=$2 port pid try i got
	shift 2
	LISTEN_PID='' LISTEN_PORT='' LISTEN_WHY=''
	command -v ss >/dev/null || { LISTEN_WHY="ss (iproute2) missing: cannot see who listens"; return 1; }
	for ((try = 1; try <= 10; try++)); do
		# below the kernel's range of ports for outgoing connections, which are never listened on
		port=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
		ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && continue
		"$fn" "$port" "$@" >"$log" 2>&1 &
		pid=$!
		got=''
		for ((i = 0; i < 200; i++)); do
			got=$(listen_pid_port "$pid")
			[ -n "$got" ] && break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if [ "$got" = "$port" ]; then
			LISTEN_PID=$pid LISTEN_PORT=$port LISTEN_WHY="pid $pid, try $try"
			return 0
		fi
		LISTEN_WHY="try $try, port $port: $(if kill -0 "$pid" 2>/dev/null; then
			echo "pid $pid did not listen on it in 20 s${got:+ (it listens on $got)}"
		else
			echo "pid $pid exited: $(tail -n 2 "$log" | tr '\n' ' ')"
		fi)"
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	return 1
}

# sshd_local_config DIR PORT: a throwaway sshd configuration in DIR/sshd_config for 127.0.0.1:PORT
# with DIR/host_key and DIR/authorized_keys (keys only, no PAM, no pid file, internal sftp).
sshd_local_config() {
	cat >"$1/sshd_config" <<CONF
Port $2
ListenAddress 127.0.0.1
HostKey $1/host_key
AuthorizedKeysFile $1/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile none
Subsystem sftp internal-sftp
CONF
	mkdir -p /run/sshd # privilege separation directory sshd insists on
}

_sshd_on() { # PORT DIR
	sshd_local_config "$2" "$1"
	exec /usr/sbin/sshd -f "$2/sshd_config" -D -e
}
sshd_local_start() {
	SSHD_PID='' SSHD_PORT=''
	local_listen "$1/sshd.log" _sshd_on "$1" || return 1
	# shellcheck disable=SC2034 # read by the tests that source this file
	SSHD_PID=$LISTEN_PID SSHD_PORT=$LISTEN_PORT
}

_s3rver_on() { # _ DIR BUCKET
	exec s3rver --directory "$2" --address 127.0.0.1 --port 0 --configure-bucket "$3" --silent
}
s3rver_local_start() {
	local i
	S3RVER_PID='' S3RVER_PORT=''
	# port 0: s3rver binds a free port itself; the port is the one its pid listens on
	_s3rver_on 0 "$1" "$2" >"$3" 2>&1 &
	S3RVER_PID=$!
	for ((i = 0; i < 200; i++)); do
		S3RVER_PORT=$(listen_pid_port "$S3RVER_PID")
		[ -n "$S3RVER_PORT" ] && { LISTEN_WHY="pid $S3RVER_PID"; return 0; }
		kill -0 "$S3RVER_PID" 2>/dev/null || break
		sleep 0.1
	done
	# shellcheck disable=SC2034 # read by the tests that source this file
	LISTEN_WHY="s3rver (pid $S3RVER_PID) did not listen on 127.0.0.1 in 20 s: $(tail -n 2 "$3" | tr '\n' ' ')"
	return 1
}
