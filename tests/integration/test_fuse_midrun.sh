# exclusive: its unmatched FUSE ends are counted over every connection on the machine (another test's FUSE requests in flight when this run starts end unmatched)
# A FUSE mount that appears after the run started is traced exactly: the request programs
# (fuse_send/fuse_end) are loaded at start even without a FUSE mount, so the workload's first
# requests to a mount made after the run started are all seen (a lazy attach at the mount could
# only come after the daemon's INIT and the workload's first requests: docs/IO.md). Witness: dd's
# 32 records of 128 KiB are 32 WRITE requests of 4 MiB, none unmatched or lost.
need_root
source tests/integration/lib_fuse.sh
SLOW=${OUT:-build}/fuse_slow
[ -x "$SLOW" ] || make -s "$SLOW" >/dev/null 2>&1 || skip "cannot build $SLOW (libfuse3-dev)"
J=$TMPROOT/r.json
N=32
mkdir -p "$TMPROOT/mnt"
# The daemon, outside the traced tree, mounts once the run has started: the workload (released
# only once every probe is attached) says so with a file, and the daemon waits for that file, not
# for a time (up to 60 s; without it, it says so and does not mount). The workload then waits for
# the mount (up to 60 s; it says so when it never came, and writes nothing).
(
	for _ in $(seq 1200); do [ -e "$TMPROOT/started" ] && break; sleep 0.05; done
	[ -e "$TMPROOT/started" ] || { echo "the run never started" >"$TMPROOT/daemon.note"; exit 1; }
	FUSE_SLOW_MS=1 exec "$SLOW" -f "$TMPROOT/mnt"
) &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
"$IOWHY" run --json "$J" -o "$TMPROOT/out.txt" -- bash -c '
	touch "$1/started"
	for _ in $(seq 1200); do
		findmnt -rn -o FSTYPE --mountpoint "$1/mnt" | grep -q "^fuse" && break
		sleep 0.05
	done
	findmnt -rn -o FSTYPE --mountpoint "$1/mnt" | grep -q "^fuse" || { echo no >"$1/nomount"; exit 1; }
	dd if=/dev/zero of="$1/mnt/f" bs=128k count='"$N"' status=none' sh "$TMPROOT"
rc=$?
check "the FUSE mount came after the run started ($(cat "$TMPROOT/daemon.note" 2>/dev/null ||
	{ [ -e "$TMPROOT/nomount" ] && echo "the workload waited 60 s for it"; } || echo mounted))" \
	test ! -e "$TMPROOT/nomount" -a ! -e "$TMPROOT/daemon.note"
check "iowhy run exits 0 (got $rc)" test "$rc" = 0
wreq=$(fuse_row "$J" requests WRITE)
wbytes=$(fuse_row "$J" in_bytes WRITE)
echo "  WRITE: $wreq requests, $wbytes B; unmatched ends $(jqr "$J" '.phases[0].fuse.unmatched_end')," \
	"lost $(jqr "$J" '.phases[0].fuse.lost_inflight') in flight"
check "one WRITE request per 128 KiB dd record ($N)" test "$wreq" = "$N"
check "... of 4 MiB" test "$wbytes" = $((N * 131072))
check "no request ended unmatched" test "$(jqr "$J" '.phases[0].fuse.unmatched_end')" = 0
check "none lost" test "$(jqr "$J" '.phases[0].fuse.lost_inflight')" = 0
