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
# find. Witness: /sys/block's I/O count (dd's writes and whatever the file system read or wrote
# meanwhile), which must equal counted + missed exactly: the loop device's own missed count
# (devices[].missed_completions; io.lost.complete_missed also has other disks', vda's writeback).
# Control (IOWHY_TEST_NO_END_WAIT=1: the end's sweep as before): one write short.
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 64
ph='.phases[] | select(.kind == "work") | .io'
for mode in wait control; do
	J=$TMPROOT/$mode.json ctl=0
	[ $mode = control ] && ctl=1
	rm -f "$MNT/f"
	sync
	IOWHY_TEST_MISS_COMPLETIONS=1 IOWHY_TEST_NO_END_WAIT=$ctl "$IOWHY" run --json "$J" -o "$TMPROOT/$mode.txt" -- \
		dd if=/dev/zero of="$MNT/f" bs=4k count=2000 oflag=direct status=none >/dev/null 2>"$TMPROOT/err"
	check "$mode: iowhy run exits 0" test $? = 0
	writes=$(jqr "$J" "$ph.devices[] | select(.name == \"$LOOPNAME\") | .stat.write_ios")
	read -r reqs missed ios < <(io_witness "$J" "$LOOPNAME")
	all=$(jqr "$J" "$ph.lost.complete_missed")
	swept=$(jqr "$J" "$ph.lost.complete_swept")
	echo "  $mode: $reqs counted + $missed missed ($swept by the sweep; $all on every disk);" \
		"/sys/block: $ios I/Os, $writes writes"
	check "$mode: the disk's missed completions are a part of all ($missed of $all)" \
		fcmp "$missed <= $all"
	check "$mode: dd's 2,000 writes reached the disk (/sys/block: $writes)" fcmp "$writes >= 2000"
	if [ $mode = wait ]; then
		check "every completion missed: none counted" test "$reqs" = 0
		check "counted + missed = /sys/block's I/Os, exactly ($reqs + $missed vs $ios)" \
			test "$((reqs + missed))" = "$ios"
		check "the last found by the end's sweep ($swept swept)" fcmp "$swept >= 1"
		n=$(echo "$missed" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
		check "the text report's device line says how many it did not see ($n)" \
			grep -qE "^  $LOOPNAME .*; $n more whose completion iowhy did not see" "$TMPROOT/$mode.txt"
	else
		check "control: without the wait the last dispatch goes uncounted ($reqs + $missed vs $ios)" \
			test "$((reqs + missed))" -lt "$ios"
	fi
done
