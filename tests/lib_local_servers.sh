# shellcheck shell=bash
# Local servers for the FUSE tests and bench/seeds_fuse.sh: helpers only (no traps, no side
# effects until called); every server binds 127.0.0.1 only.

# free_port: a free TCP port on 127.0.0.1
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
