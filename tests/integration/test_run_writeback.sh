# The writeback verdict on a real run: btrfs raid0 over two loop devices, a buffered 96 MiB write
# while the file system's dirty pages are held to 4 MiB (its bdi: strict_limit and max_bytes, so
# only this file system is throttled), so balance_dirty_pages pauses the writer for most of its
# time. The verdict says writeback bound and carries the pause, the wall and the run-queue wait;
# in its own inputs the pause is at least 10% of the wall less the run-queue wait (a loaded host's
# share, not the writer's), and it agrees with the phase's balance_dirty_pages total.
# Control: the same write without the limit (32 MiB, far below the machine's dirty limits, and an
# fsync at the end so the members have the workload's requests): no pause, no writeback verdict.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh

make_btrfs_loops 2 256
uuid=$(findmnt -no UUID "$BT_MNT")
BDI=/sys/fs/btrfs/$uuid/bdi
[ -e "$BDI/strict_limit" ] && [ -e "$BDI/max_bytes" ] || skip "no per-bdi strict_limit/max_bytes"
J=$TMPROOT/r.json
OUT=$TMPROOT/out.txt
on_exit "echo 0 > '$BDI/strict_limit'; echo 0 > '$BDI/max_bytes'"
echo $((4 << 20)) > "$BDI/max_bytes" || skip "cannot set max_bytes"
echo 1 > "$BDI/strict_limit" || skip "cannot set strict_limit"
"$IOWHY" run --json "$J" -- dd if=/dev/zero of="$BT_MNT/f" bs=1M count=96 status=none \
	>"$OUT" 2>&1
rc=$?
echo 0 > "$BDI/strict_limit"
echo 0 > "$BDI/max_bytes"
sed -n '/== devices/,/== explanation/p' "$OUT"
check "iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
pause=$(jqr "$J" '.verdict_inputs.dirty_pause_s')
wall=$(jqr "$J" '.verdict_inputs.wall_s - .verdict_inputs.runq_s')
bdp=$(jqr "$J" '[.phases[].io.page_cache.balance_dirty_pages_pause_ns // 0] | add / 1e9')
echo "  balance_dirty_pages paused dd $pause s of $wall s not waiting for a CPU (phase totals: $bdp s)"
check "the inputs hold the rule: pauses >= 10% of the wall less the run queue" fcmp "$pause >= 0.1 * $wall"
check "the input is the phases' balance_dirty_pages total" within "$pause" "$bdp" 1
check "JSON: a writeback verdict" \
	[ "$(jqr "$J" '[.verdicts[] | select(.kind == "writeback")] | length')" = 1 ]
check "JSON: it carries the pause and the wall" \
	fcmp "$(jqr "$J" '.verdicts[] | select(.kind == "writeback") | .inputs.dirty_pause_s') == $pause"
check "the text says writeback bound" \
	grep -q "^  verdict (writeback): writeback bound: balance_dirty_pages paused the work" "$OUT"

rm -f "$BT_MNT/f"
sync
"$IOWHY" run --json "$J" -- dd if=/dev/zero of="$BT_MNT/g" bs=1M count=32 conv=fsync \
	status=none >"$OUT" 2>&1
rc=$?
check "control: iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
pause=$(jqr "$J" '.verdict_inputs.dirty_pause_s')
wall=$(jqr "$J" '.verdict_inputs.wall_s - .verdict_inputs.runq_s')
echo "  control: paused $pause s of $wall s not waiting for a CPU"
check "control: the members are the verdicts' inputs" \
	fcmp "$(jqr "$J" '.verdict_inputs.members | length') >= 2"
check "control: pauses under 10% of the wall less the run queue" fcmp "$pause < 0.1 * $wall"
check "control: no writeback verdict" \
	[ "$(jqr "$J" '[.verdicts[] | select(.kind == "writeback")] | length')" = 0 ]
