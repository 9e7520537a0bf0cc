# A dispatch whose completion no program saw, issued in the last 10 ms before its phase ended: the
# sweep at the phase's end looks only at dispatches at least 10 ms old (the kernel marks a request
# in flight just after the issue program ran: a younger one may be on its way there), so such a
# dispatch went uncounted and unreported, neither a request nor a missed completion (a fresh-clone
# run once counted 126 of dd's 128 writes with nothing lost). Now the end's sweep also notes the
# young dispatches whose request the kernel holds idle, waits until they are 10 ms old (at most
# that, and only when there are some), and sweeps again.
# IOWHY_TEST_MISS_COMPLETIONS=1: both completion programs skip every completion. dd writes 4 KiB
# O_DIRECT blocks one at a time on a loop device: each request is used again by the next write
# (the last dispatch ended there, counted missed), all but the last, which only the end's sweep can
# find. Witness: the test's own reads of /sys/block's I/O count (dd's writes and whatever the
# file system read or wrote meanwhile) over dd's run (calib witness between iowhy and dd: inside
# the phase) and around the iowhy run (the phase inside): counted + missed must lie between them,
# the loop device's own missed count (devices[].missed_completions; io.lost.complete_missed also
# has other disks', vda's writeback). Observed (6 runs, 2 beside two spinners): counted + missed
# = the read over dd (2,001-2,004) every time, the read around the run up to 12 more; tolerance:
# none (was: equal to iowhy's own read). Control (IOWHY_TEST_NO_END_WAIT=1: the end's sweep as
# before): short of dd's writes (in none of those runs: the phases ended 10 ms or more after the
# last write, and the part was skipped).
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 64
ph='.phases[] | select(.kind == "work") | .io'
for mode in wait control; do
	J=$TMPROOT/$mode.json W=$TMPROOT/$mode.witness ctl=0
	[ $mode = control ] && ctl=1
	rm -f "$MNT/f"
	sync
	o0=$(dev_read "$LOOPNAME")
	IOWHY_TEST_MISS_COMPLETIONS=1 IOWHY_TEST_NO_END_WAIT=$ctl "$IOWHY" run --json "$J" -o "$TMPROOT/$mode.txt" -- \
		"$CALIB" witness "$W" "$LOOPNAME" -- \
		dd if=/dev/zero of="$MNT/f" bs=4k count=2000 oflag=direct status=none >/dev/null 2>"$TMPROOT/err"
	check "$mode: iowhy run exits 0" test $? = 0
	o1=$(dev_read "$LOOPNAME")
	writes=$(wit_dev "$W" "$LOOPNAME" 5)
	read -r reqs missed ios ios_out < <(io_witness "$J" "$LOOPNAME" "$W" "$o0" "$o1")
	all=$(jqr "$J" "$ph.lost.complete_missed")
	swept=$(jqr "$J" "$ph.lost.complete_swept")
	echo "  $mode: $reqs counted + $missed missed ($swept by the sweep; $all on every disk);" \
		"the test's /sys/block: $ios I/Os ($writes writes) over dd, $ios_out around iowhy"
	check "$mode: the disk's missed completions are a part of all ($missed of $all)" \
		fcmp "$missed <= $all"
	check "$mode: dd's 2,000 writes reached the disk (/sys/block: $writes)" fcmp "$writes >= 2000"
	if [ $mode = wait ]; then
		check "every completion missed: none counted" test "$reqs" = 0
		check "counted + missed between /sys/block's I/Os over dd and around the run ($reqs + $missed vs $ios, $ios_out)" \
			fcmp "$reqs + $missed >= $ios && $reqs + $missed <= $ios_out"
		check "the last found by the end's sweep ($swept swept)" fcmp "$swept >= 1"
		n=$(echo "$missed" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
		check "the text report's device line says how many it did not see ($n)" \
			grep -qE "^  $LOOPNAME .*; $n more whose completion iowhy did not see" "$TMPROOT/$mode.txt"
	else
		# (the old end sweep finds the last dispatch too when the phase ends 10 ms or more after
		# it: on a loaded host iowhy's drain of the tree's last events takes that long)
		if fcmp "$reqs + $missed < $ios"; then
			pass "control: without the wait the last dispatch goes uncounted ($reqs + $missed vs $ios)"
		else
			skip_part "control: the old end sweep found the last dispatch too ($reqs + $missed vs $ios): the phase ended 10 ms or more after it"
		fi
	fi
done
