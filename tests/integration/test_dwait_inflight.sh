# A sleep in D with no file of its own to name its disk (a major page fault: the task is in no
# syscall) is charged to the disks with workload I/O in flight then (iowhy.bpf.c dwait_disks). The
# in-flight counts are a row per CPU, added at the issue and taken off at the completion wherever
# each runs, summed when read; kernels before 5.19 share one count (IOWHY_TEST_SHARED_INFLIGHT=1
# here). A file on a loop device read through a mapping, no readahead: about one major fault per
# page, most of them a D sleep with its read in flight (a read done before the task sleeps does
# not sleep). Witness: getrusage's major faults (calib).
#
# witness: calib mapread's own major fault count (getrusage, printed at its end); tolerance: >=
#   1000 faults, and D sleeps with its read in flight >= 50% of them (a lower bound, both layouts);
#   observed: not recorded
# witness: none independent (iowhy against itself): such sleeps <= sleeps with no file, >= 80% of
#   the I/O wait on the test's loop device; observed: not recorded
need_root
source tests/integration/lib_dev.sh
LOOP_DIO=1 make_loop_ext4 64
dd if=/dev/urandom of="$MNT/f" bs=1M count=8 status=none || skip "cannot write $MNT/f"
umount "$MNT" && mount -t ext4 "$LOOPDEV" "$MNT" || skip "cannot remount $LOOPDEV" # nothing cached
for mode in rows shared; do
	J=$TMPROOT/$mode.json
	[ $mode = shared ] && export IOWHY_TEST_SHARED_INFLIGHT=1
	"$IOWHY" run --json "$J" -o "$TMPROOT/$mode.txt" -- "$CALIB" mapread "$MNT/f" >"$TMPROOT/$mode.out" 2>&1
	rc=$?
	unset IOWHY_TEST_SHARED_INFLIGHT
	check "$mode: iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
	maj=$(awk '/^majflt/ { print $2 }' "$TMPROOT/$mode.out")
	nofile=$(jqr "$J" '.events.dwait_no_file')
	inf=$(jqr "$J" '.events.dwait_inflight')
	onloop=$(jqr "$J" "[.phases[].iowait_by_device[]? | select(.name == \"$LOOPNAME\") | .ns] | add // 0")
	iow=$(jqr "$J" '[.phases[].wall.iowait_ns] | add // 0')
	echo "  $mode: $maj major faults; D sleeps with no file $nofile, with workload I/O in flight $inf; I/O wait $iow ns, on $LOOPNAME $onloop ns"
	check "$mode: the mapped reads faulted (${maj:-?} major faults)" fcmp "${maj:-0} >= 1000"
	check "$mode: most faults slept with their read counted in flight ($inf of $maj)" \
		fcmp "$inf >= 0.5 * $maj"
	check "$mode: no more such sleeps than sleeps with no file ($inf <= $nofile)" fcmp "$inf <= $nofile"
	check "$mode: most of the I/O wait on $LOOPNAME" fcmp "$onloop >= 0.8 * $iow && $iow > 0"
	# the next run reads the file afresh
	umount "$MNT" && mount -t ext4 "$LOOPDEV" "$MNT" || { check "remount $LOOPDEV" false; break; }
done
