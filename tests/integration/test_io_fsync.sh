# fsync-heavy workload on the journaled ext4: 1000 x (write 4k + fsync) -> 1000 fsyncs counted on
# that file system, journal commits visible with their phases (wait/locked/flushing/logging).
# witness of the journal: /proc/fs/jbd2/loopN-8/info, read by the test before and after the run:
#   its transaction count (the journal's own j_stats.ts_tid, bumped where jbd2_run_stats fires)
#   against iowhy's commits (jbd2_run_stats) and commit_count (start/end pairs); on the fresh
#   mount (nothing committed before the run) its per-transaction averages of handles, blocks and
#   logged blocks (whole-number divisions of its sums) against iowhy's sums divided the same way.
# tolerance: exact; observed: exact in 6 quiet runs and 2 beside two CPU spinners (mostly one fsync,
#   one transaction: 1000; once 1001, iowhy 1001 too).
# witness: calib's own count (1000 fsync) and the file's size by the test's stat (4,096,000
#   bytes); tolerance: exact; observed: exact (9 runs)
# witness: calib witness between iowhy and calib fsync (getrusage, perf task-clock, run-queue
#   wait, elapsed, steal): check_phase_invariants with it (lib.sh, check_cpu_witness; its
#   tolerances there); observed: tree CPU - getrusage -10.6 to +1.9 ms, at most 80% of the
#   tolerance (-8.3 ms against 10.4 ms: its own CPU 6.2 ms + 8% of a run-queue wait of 53 ms)
#   (9 runs, 2 beside two CPU spinners). The scheduler charges a woken task from its wakeup, and
#   this loop is woken 1000 times (each fsync sleeps): about 10 us a wakeup on this host, however
#   short the run-queue wait. So SLACK 20 ms (20 us x 1000 wakeups, 2x the worst seen) below.
# none independent (iowhy against itself): the journal's commit phases present, journal-class
#   writes > 0, I/O wait >= 30% of the wall and >= 80% of it on the loop device.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_witness.sh
make_loop_ext4 128
J=$TMPROOT/r.json WF=$TMPROOT/witness
tx0=$(jbd2_transactions "$LOOPNAME")
check "the journal of $LOOPNAME has a /proc/fs/jbd2 info file ($tx0 transactions before)" is_num "$tx0"
# One process: 1000 times write 4 KiB at the end of the file, then fsync(2).
"$IOWHY" run --json "$J" -- "$CALIB" witness "$WF" -- "$CALIB" fsync "$MNT/f" 1000 >"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
tx1=$(jbd2_transactions "$LOOPNAME")
cp "/proc/fs/jbd2/$LOOPNAME-8/info" "$TMPROOT/jbd2.info"
check "the file is 4000 KiB" test "$(stat -c %s "$MNT/f")" = 4096000
ph='.phases[] | select(.kind == "work") | .io'
n=$(jqr "$J" "[$ph.fsync[] | select(.name == \"$LOOPNAME\") | .fsync + .fdatasync] | add // 0")
c=$(jqr "$J" "[$ph.journal[] | select(.name == \"$LOOPNAME\") | .commits] | add // 0")
lg=$(jqr "$J" "[$ph.journal[] | select(.name == \"$LOOPNAME\") | .logging_ns] | add // 0")
echo "  fsync $n, journal commits $c, logging $lg ns"
check "fsync count is 1000" test "$n" = 1000
tx=$(( ${tx1:-0} - ${tx0:-0} ))
cc=$(jqr "$J" "[.phases[].io.journal[]? | select(.name == \"$LOOPNAME\") | .commit_count] | add // 0")
ca=$(jqr "$J" "[.phases[].io.journal[]? | select(.name == \"$LOOPNAME\") | .commits] | add // 0")
check "journal commits $c (all phases $ca) = the journal's own transactions over the run $tx ($tx0 -> $tx1)" \
	test "$c" = "$tx" -a "$ca" = "$tx"
check "commits timed start to end $cc = the journal's transactions $tx" test "$cc" = "$tx"
if [ "$tx0" = 0 ] && [ "$tx" -gt 0 ]; then
	# /proc/fs/jbd2's averages are its sums over every transaction since the mount, divided by
	# their number in whole numbers: all of them are the run's here
	for f in "handles:handles per transaction" "blocks:blocks per transaction" \
		"blocks_logged:logged blocks per transaction"; do
		k=${f%%:*} label=${f#*:}
		w=$(awk -v l="$label" '{ s = $0; sub(/^ *[0-9]+ /, "", s) } s == l { print $1 }' "$TMPROOT/jbd2.info")
		sum=$(jqr "$J" "[.phases[].io.journal[]? | select(.name == \"$LOOPNAME\") | .$k] | add // 0")
		check "$k per transaction: iowhy's $sum / $tx = the journal's own $w" \
			test "$(( ${sum:-0} / tx ))" = "$w"
	done
else
	skip_part "per-transaction averages: the journal had $tx0 transactions before the run"
fi
check "journal commit phases reported" test "$(jqr "$J" "$ph.journal[0] | has(\"wait_ns\") and has(\"locked_ns\") and has(\"flushing_ns\") and has(\"logging_ns\")")" = true
jw=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .class == \"journal\") | .bytes] | add // 0")
check "journal writes on $LOOPNAME charged to the journal class" fcmp "$jw > 0"
check "the syscall table counts 1000 fsync calls" test "$(sys_count "$J" 0 fsync)" = 1000
iow=$(jqr "$J" '.phases[0].wall.iowait_ns')
dev=$(jqr "$J" "[.phases[0].iowait_by_device[] | select(.name == \"$LOOPNAME\") | .ns] | add // 0")
echo "  I/O wait $iow ns, of it on $LOOPNAME $dev ns"
check "I/O wait is a large part of the wall (fsync waits for the device)" fcmp "$iow >= 0.3 * $(jqr "$J" .phases[0].wall_ns)"
check "I/O wait by device puts >= 80% of it on $LOOPNAME" fcmp "$dev >= 0.8 * $iow"
check_phase_invariants "$J" 0 20000000 "$WF"
