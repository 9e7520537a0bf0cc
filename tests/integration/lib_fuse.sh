# FUSE helpers for the integration tests (sourced after lib.sh). Every mount made here is
# unmounted on exit, also on failure: fusermount3 -u, else umount -l.

source tests/lib_local_servers.sh

# fuse_teardown MNT [PID]: unmount MNT (lazily if busy or if its daemon is gone), stop PID.
fuse_teardown() {
	fusermount3 -u "$1" 2>/dev/null || umount -l "$1" 2>/dev/null
	[ -n "$2" ] && kill "$2" 2>/dev/null
	[ -n "$2" ] && { sleep 0.2; kill -9 "$2" 2>/dev/null; }
	return 0
}

# fuse_row J FIELD OPCODE [FOR]: sum of FIELD over the work phase's FUSE rows of OPCODE charged
# to FOR (default "workload").
fuse_row() {
	jqr "$1" "[.phases[] | select(.kind == \"work\") | .fuse.requests[] |
		select(.opcode == \"$3\" and .for == \"${4:-workload}\") | .$2] | add // 0"
}

# fuse_daemon J PID FIELD: a field of the daemon PID's entry in the work phase ("" if absent).
fuse_daemon() {
	jqr "$1" "[.phases[] | select(.kind == \"work\") | .fuse.daemons[] |
		select(.pid == $2) | .$3] | first // empty"
}

# fuse_handoff_build: build tests/fuse_handoff.c (a daemon whose WRITEs are answered by another
# thread than the reader) as $TMPROOT/fuse_handoff; skip the test without libfuse3-dev.
fuse_handoff_build() {
	# shellcheck disable=SC2046 # pkg-config prints several flags
	gcc -O2 -Wall -Werror $(pkg-config --cflags fuse3 2>/dev/null) -o "$TMPROOT/fuse_handoff" \
		tests/fuse_handoff.c $(pkg-config --libs fuse3 2>/dev/null) -lpthread ||
		skip "cannot build fuse_handoff (libfuse3-dev)"
}
