# A request completion the block_rq_complete program does not see (the kernel skips a program's
# run on a CPU where it already runs: one device's completion interrupt inside another's) used to
# leave the request in flight and its device busy until the phase's end. The request's
# block_io_done now completes it (io.lost.complete_late). IOWHY_TEST_SKIP_COMPLETIONS=3 makes every
# third run of that program do nothing. O_DIRECT writes of 16 MiB on a loop device: requests and
# bytes must still agree with /sys/block, and the device's busy time (the union of its requests'
# times) can be no more than their sum. Control: without block_io_done the same checks fail.
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 128
ph='.phases[] | select(.kind == "work") | .io'
for mode in recovered control; do
	J=$TMPROOT/$mode.json skip=''
	[ $mode = control ] && skip=block:block_io_done
	sync
	IOWHY_TEST_SKIP_COMPLETIONS=3 IOWHY_SKIP_PROBES=$skip "$IOWHY" run --json "$J" -- \
		dd if=/dev/zero of="$MNT/f" bs=256k count=64 oflag=direct status=none >/dev/null 2>&1
	check "$mode: iowhy run exits 0" test $? = 0
	late=$(jqr "$J" "$ph.lost.complete_late")
	reqs=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\") | .requests] | add // 0")
	bytes=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\") | .bytes] | add // 0")
	svc=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\") | .device_ns.total] | add // 0")
	busy=$(jqr "$J" "$ph.devices[] | select(.name == \"$LOOPNAME\") | .busy_ns")
	ios=$(jqr "$J" "$ph.devices[] | select(.name == \"$LOOPNAME\") | .stat.write_ios")
	sysb=$(jqr "$J" "$ph.devices[] | select(.name == \"$LOOPNAME\") | .stat.write_bytes")
	echo "  $mode: $late completions taken late; $reqs requests, $bytes B (/sys/block: $ios, $sysb B);" \
		"busy $busy ns, device time $svc ns"
	if [ $mode = recovered ]; then
		check "recovered: completions taken at block_io_done ($late)" test "$late" -gt 0
		check "recovered: requests agree with /sys/block within 1%" within "$reqs" "$ios" 1
		check "recovered: bytes agree with /sys/block within 1%" within "$bytes" "$sysb" 1
		check "recovered: busy <= the requests' device time (+ 1 ms)" fcmp "$busy <= $svc + 1e6"
	else
		check "control: block_io_done not attached" \
			test "$(jqr "$J" '.missing_probes | index("block:block_io_done") != null')" = true
		check "control: without it the requests or the busy time are wrong" \
			fcmp "$reqs < 0.99 * $ios || $busy > $svc + 1e6"
	fi
done
