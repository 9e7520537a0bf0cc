# A FUSE daemon whose own work is the wait gets a verdict that names its CPU: fuse_slow with
# FUSE_SLOW_SPIN=1 spins 20 ms of its thread's CPU time before answering each WRITE (as an
# encrypting file system computes; -s: one thread, so its schedstat is the daemon's), dd writes
# 32 records of 128 KiB through it and waits on each.
# The same daemon sleeping instead (FUSE_SLOW_SPIN unset) gets no such verdict: its wait is not CPU.
# witness: the daemon's own CPU time, /proc/DPID/schedstat's first field read by the test before
#   and after the run, against the verdict's cpu_overlap_ns (the daemon on a CPU while dd waited);
#   tolerance: the overlap at most the daemon's whole CPU + 2 ms, and at least half of 32 x 20 ms
#   (the spin is thread CPU time: it cannot take less CPU than that); observed: overlap 0.97-0.99
#   of schedstat's delta, quiet and beside two spinners
# witness: the set-up: 32 WRITEs of 20 ms CPU each; tolerance: the verdict's CPU share plus its
#   run-queue share >= 0.5 (the rule) and <= 1.0, the CPU share >= 0.25 (on a machine loaded with
#   other tests the daemon waited 0.47 of dd's wait for a CPU); the sleeping control has no
#   fuse-daemon-cpu verdict (exact)
need_root
source tests/integration/lib_fuse.sh
SLOW=${OUT:-build}/fuse_slow
[ -x "$SLOW" ] || make -s "$SLOW" >/dev/null 2>&1 || skip "cannot build $SLOW (libfuse3-dev)"
N=32
for mode in spin sleep; do
	mnt=$TMPROOT/mnt-$mode J=$TMPROOT/$mode.json
	mkdir -p "$mnt"
	spin=; [ $mode = spin ] && spin=1
	FUSE_SLOW_SPIN=$spin FUSE_SLOW_MS=20 "$SLOW" -f -s "$mnt" &
	DPID=$!
	on_exit "fuse_teardown $mnt $DPID"
	fuse_mount_wait "$mnt" "$DPID" || { fail "$mode: fuse_slow mounted"; continue; }
	c0=$(awk '{ print $1 }' "/proc/$DPID/schedstat")
	"$IOWHY" run --json "$J" -o "$TMPROOT/$mode.txt" -- \
		dd if=/dev/zero of="$mnt/f" bs=128k count=$N status=none
	rc=$?
	c1=$(awk '{ print $1 }' "/proc/$DPID/schedstat")
	check "$mode: iowhy run exits 0 (got $rc)" test "$rc" = 0
	v='[.verdicts[] | select(.kind == "fuse-daemon-cpu")]'
	if [ $mode = sleep ]; then
		check "sleep: no fuse-daemon-cpu verdict for a daemon that sleeps" \
			test "$(jqr "$J" "$v | length")" = 0
		continue
	fi
	check "spin: one fuse-daemon-cpu verdict" test "$(jqr "$J" "$v | length")" = 1
	check "spin: it names the daemon's pid $DPID" test "$(jqr "$J" "${v}[0].inputs.pid")" = "$DPID"
	check "spin: the text report says it" grep -q "verdict (fuse-daemon-cpu): fuse_slow's CPU: " \
		"$TMPROOT/$mode.txt"
	ov=$(jqr "$J" "${v}[0].inputs.cpu_overlap_ns") share=$(jqr "$J" "${v}[0].inputs.share")
	rq=$(jqr "$J" "${v}[0].inputs.runq_share")
	echo "  daemon CPU while dd waited $ov ns; its own schedstat delta $((c1 - c0)) ns;" \
		"share $share, waiting for a CPU $rq"
	check "spin: overlap $ov ns <= the daemon's own CPU $((c1 - c0)) ns + 2 ms" \
		fcmp "$ov <= $((c1 - c0)) + 2e6"
	check "spin: overlap $ov ns >= half of $N x 20 ms" fcmp "$ov >= 0.5 * $N * 20e6"
	check "spin: CPU share $share + run-queue share $rq within [0.5, 1], CPU >= 0.25" \
		fcmp "$share + $rq >= 0.5 && $share + $rq <= 1.001 && $share >= 0.25"
done
