# ext4 on a loop device over a file on the root disk, `run --sync` of a buffered 64 MiB write:
# the report shows the stack `MNT (ext4) → loopN → DISK`, and the bytes the loop driver wrote to
# DISK for loopN (its worker's fsync of the backing file at the flush, or the flusher's writeback
# of it) are charged to the workload (class `stack`, upper loopN), within 2% of the loop device's
# own write bytes (/sys/block/loopN/stat over the same run), never more than DISK's counter says.
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 256
J=$TMPROOT/r.json
OUT=$TMPROOT/out.txt
# The disk under the backing file (vda for a file on vda1)
src=$(findmnt -no SOURCE --target "$TMPROOT" | sed 's/\[.*//')
DISK=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1)
[ -n "$DISK" ] || DISK=$(basename "$src")
[ -e "/sys/block/$DISK/stat" ] || skip "backing file not on a block device ($src)"
sync
loop0=$(dev_stat "$LOOPNAME" 7)
disk0=$(dev_stat "$DISK" 7)
"$IOWHY" run --json "$J" --sync "$MNT" -- dd if=/dev/zero of="$MNT/f" bs=1M count=64 status=none \
	>"$OUT" 2>&1
check "iowhy run exits 0" test $? = 0
loop_w=$(( ($(dev_stat "$LOOPNAME" 7) - loop0) * 512 ))
disk_w=$(( ($(dev_stat "$DISK" 7) - disk0) * 512 ))
below="[.phases[].io.requests[] | select(.disk == \"$DISK\" and .op == \"write\" and .class == \"stack\" and .upper == \"$LOOPNAME\")"
below_b=$(jqr "$J" "$below | .bytes] | add // 0")
charged=$(jqr "$J" "$below | .workload_bytes] | add // 0")
echo "  $LOOPNAME wrote $loop_w B (/sys/block); $DISK: $below_b B below $LOOPNAME, $charged B charged to the workload; $DISK counter $disk_w B"
check "the text report shows the stack" grep -q "^  stack .*(ext4) → $LOOPNAME → $DISK" "$OUT"
check "the stack line names $LOOPNAME → $DISK" \
	test "$(jqr "$J" "[.phases[].io.stacks[] | select(.line | endswith(\"(ext4) → $LOOPNAME → $DISK\"))] | length")" -ge 1
check "$DISK bytes charged to the workload within 2% of $LOOPNAME's write bytes" \
	within "$charged" "$loop_w" 2
check "charged bytes no more than $DISK's own counter" fcmp "$charged <= $disk_w"
check "$DISK's writes for $LOOPNAME are not 'other processes'" fcmp "$below_b >= 0.98 * $loop_w"
wl_disk=$(jqr "$J" "[.phases[].io.stacks[].levels[1][] | select(.name == \"$DISK\") | .below_workload_bytes] | add // 0")
# (other loop devices on the same disk may add their own rows to the level on a busy host)
check "the stack's $DISK level counts it" fcmp "$wl_disk >= $charged"
f='.phases[] | select(.kind == "flush") | .io.layers'
check "the layer table has the bytes below, for the workload" \
	fcmp "$(jqr "$J" "$f.block_write_below_workload_bytes") >= 0.9 * $charged"
line=$(grep -E "^  $DISK +busy .*requests: read" "$OUT")
echo "  $line"
wl_mib=$(echo "$line" | sed -n "s/.*the workload's \([0-9.]*\) MiB.*/\1/p")
check "the device line charges $DISK's bytes to the workload (>= 63 MiB)" fcmp "${wl_mib:-0} >= 63"
# I/O wait down the stack: the flush waits on the loop device's requests (syncfs), which sit on
# DISK; the stack's wait is the sum of its devices' waits in the disk table.
st="[.stacks[] | select(.line | endswith(\"(ext4) → $LOOPNAME → $DISK\"))][0]"
sw=$(jqr "$J" "$st.iowait_ns // 0")
dw=$(jqr "$J" "[.disks[] | select(.name == \"$LOOPNAME\" or .name == \"$DISK\") | .iowait_ns] | add // 0")
echo "  stack I/O wait $sw ns (disks: $dw ns), most on $(jqr "$J" "$st.most_waited"), below it $(jqr "$J" "$st.most_waited_below")"
check "the workload's I/O wait is charged to the stack" fcmp "$sw > 0"
check "the stack's wait is its devices' wait" test "$sw" = "$dw"
check "most of it on $LOOPNAME's requests, which sit on $DISK" \
	test "$(jqr "$J" "$st.most_waited") $(jqr "$J" "$st.most_waited_below")" = "$LOOPNAME $DISK"
check "the text says where the wait went" \
	grep -q "the workload waited .* on .*(ext4); .* of it on $LOOPNAME's requests, which sit on $DISK" "$OUT"
# Without workqueue_execute_end a loop worker would stay marked after its item (and the writeback
# it later does for the file system on loopN would be "below loopN"): the workers are then not
# followed at all, and the report lists the probe as missing.
rm -f "$MNT/f"
sync
IOWHY_SKIP_PROBES=workqueue:workqueue_execute_end "$IOWHY" run --json "$J" --sync "$MNT" -- \
	dd if=/dev/zero of="$MNT/f" bs=1M count=32 status=none >"$OUT" 2>&1
check "without workqueue_execute_end: iowhy run exits 0" test $? = 0
check "without workqueue_execute_end: listed as missing" grep -q "workqueue:workqueue_execute_end" "$OUT"
check "without workqueue_execute_end: nothing on $LOOPNAME itself is 'below' anything" \
	test "$(jqr "$J" "[.phases[].io.requests[] | select(.name == \"$LOOPNAME\" and .class == \"stack\")] | length")" = 0
check "without workqueue_execute_end: the workload's writes to $LOOPNAME are writeback for it" \
	fcmp "$(jqr "$J" "[.phases[].io.requests[] | select(.name == \"$LOOPNAME\" and .class == \"writeback_tree\") | .bytes] | add // 0") >= 32 * 1048576"
