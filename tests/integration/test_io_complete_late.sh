# A request completion the block_rq_complete program does not see (the kernel skips a program's
# run on a CPU where it already runs: one device's completion interrupt inside another's) used to
# leave the request in flight and its device busy until the phase's end. The request's
# block_io_done now completes it (io.lost.complete_late). IOWHY_TEST_SKIP_COMPLETIONS=3 makes every
# third run of that program do nothing. O_DIRECT writes of 16 MiB on a loop device: requests and
# bytes must still agree with /sys/block, and the device's busy time (the union of its requests'
# times) can be no more than their sum. Control: without block_io_done the same checks fail.
# Witnesses, the test's own reads of /sys/block/loopN/stat: over dd's run (calib witness between
# iowhy and dd: inside the phase) and around the iowhy run (the phase inside); iowhy's write
# requests and bytes lie between the two. Observed (6 runs, 2 beside two spinners): inner = outer
# = iowhy, 64 requests, 16 MiB, every time; tolerance: none (bounds; was 1% of iowhy's own read).
# The busy time against the requests' device time: iowhy's own two figures (+ 1 ms).
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 128
ph='.phases[] | select(.kind == "work") | .io'
for mode in recovered control; do
	J=$TMPROOT/$mode.json W=$TMPROOT/$mode.witness skip=''
	[ $mode = control ] && skip=block:block_io_done
	sync
	o0=$(dev_read "$LOOPNAME")
	IOWHY_TEST_SKIP_COMPLETIONS=3 IOWHY_SKIP_PROBES=$skip "$IOWHY" run --json "$J" -- \
		"$CALIB" witness "$W" "$LOOPNAME" -- \
		dd if=/dev/zero of="$MNT/f" bs=256k count=64 oflag=direct status=none >/dev/null 2>&1
	check "$mode: iowhy run exits 0" test $? = 0
	o1=$(dev_read "$LOOPNAME")
	late=$(jqr "$J" "$ph.lost.complete_late")
	reqs=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\") | .requests] | add // 0")
	bytes=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\") | .bytes] | add // 0")
	svc=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\") | .device_ns.total] | add // 0")
	busy=$(jqr "$J" "$ph.devices[] | select(.name == \"$LOOPNAME\") | .busy_ns")
	in_n=$(wit_dev "$W" "$LOOPNAME" 5) in_b=$(( $(wit_dev "$W" "$LOOPNAME" 7) * 512 ))
	out_n=$(dev_diff "$o0" "$o1" 5) out_b=$(( $(dev_diff "$o0" "$o1" 7) * 512 ))
	echo "  $mode: $late completions taken late; $reqs requests, $bytes B (the test's /sys/block:" \
		"$in_n, $in_b B over dd; $out_n, $out_b B around iowhy); busy $busy ns, device time $svc ns"
	if [ $mode = recovered ]; then
		check "recovered: completions taken at block_io_done ($late)" test "$late" -gt 0
		check "recovered: requests between /sys/block's over dd and around the run" \
			fcmp "$reqs >= $in_n && $reqs <= $out_n"
		check "recovered: bytes between /sys/block's over dd and around the run" \
			fcmp "$bytes >= $in_b && $bytes <= $out_b"
		check "recovered: busy <= the requests' device time (+ 1 ms)" fcmp "$busy <= $svc + 1e6"
	else
		check "control: block_io_done not attached" \
			test "$(jqr "$J" '.missing_probes | index("block:block_io_done") != null')" = true
		check "control: without it the requests or the busy time are wrong" \
			fcmp "$reqs < $in_n || $busy > $svc + 1e6"
	fi
done
