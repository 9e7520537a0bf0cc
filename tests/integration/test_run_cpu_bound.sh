# The CPU-bound verdict on a real run: btrfs raid0 over two loop devices (several devices, so the
# run gets verdicts), a file of random data read cold by `gzip -9` (one thread computing all the
# time; the devices deliver in a fraction of it). The verdict names gzip, and its inputs support
# it (the thread's CPU, run queue included, >= 90% of a CPU; no device over 50% busy). Control: an
# O_DIRECT `dd` of the same file (the thread waits on the devices): no CPU-bound verdict, and its
# inputs say why. Both from the run's own numbers, never from absolute times.
need_root
command -v gzip >/dev/null || skip "gzip missing"
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh

make_btrfs_loops 2 256
dd if=/dev/urandom of="$BT_MNT/f" bs=1M count=24 status=none || skip "cannot write"
sync
J=$TMPROOT/r.json
OUT=$TMPROOT/out.txt
# the file's pages out of the page cache, so gzip's reads reach the members
dd if="$BT_MNT/f" iflag=nocache count=0 status=none
"$IOWHY" run --json "$J" -- sh -c 'exec gzip -9 -c "$1" >/dev/null' _ "$BT_MNT/f" >"$OUT" 2>&1
rc=$?
sed -n '/== devices/,/== explanation/p' "$OUT"
check "iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
# what a failure needs to be understood (a soak run once had loop0 and vda each busy 463 ms of a
# 653 ms window for 17 and 34 requests of ~1 ms: a completion the tracer did not see keeps a
# device busy): the time the devices served requests against their busy time, and what the
# tracer says it missed
jqr "$J" '.phases[0].io.requests[] | "  \(.disk) \(.op): \(.requests) requests, device time \(.device_ns.total) ns"'
jqr "$J" '.disks[]? | "  \(.name): busy \(.busy_ns) ns of \(.window_ns)"'
echo "  io lost: $(jq -c '.phases[0].io.lost | with_entries(select(.value != 0))' "$J")," \
	"events: $(jq -c '.events + (.phases[0].trace | {out_of_order, clock_skew_events,
		programs_missed_runs, programs_missed_most})' "$J")"
cpu=$(jqr "$J" '.verdict_inputs.top_thread_cpu_pct + (.verdict_inputs.top_thread_runq_pct // 0)')
busiest=$(jqr "$J" '[.verdict_inputs.members[].busy_pct] | max')
echo "  busiest thread $(jqr "$J" .verdict_inputs.top_thread): $cpu% of a CPU (run queue included); busiest device $busiest%"
check "the verdict inputs name gzip as the busiest thread" \
	[ "$(jqr "$J" .verdict_inputs.top_thread)" = gzip ]
check "the inputs hold the rule: gzip >= 90% of a CPU, no device over 50% busy" \
	fcmp "$cpu >= 90 && $busiest <= 50"
check "JSON: a cpu-bound verdict about gzip" \
	[ "$(jqr "$J" '[.verdicts[] | select(.kind == "cpu-bound") | .subject] | join(",")')" = gzip ]
check "JSON: the verdict carries its inputs" \
	fcmp "$(jqr "$J" '[.verdicts[] | select(.kind == "cpu-bound") | .inputs.thread_cpu_pct][0] // 0') > 0"
check "the text says CPU-bound" grep -q "^  verdict (cpu-bound): CPU-bound: gzip ran" "$OUT"

dd if="$BT_MNT/f" iflag=nocache count=0 status=none
"$IOWHY" run --json "$J" -- dd if="$BT_MNT/f" of=/dev/null bs=64k iflag=direct status=none \
	>"$OUT" 2>&1
rc=$?
check "control: iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
cpu=$(jqr "$J" '.verdict_inputs.top_thread_cpu_pct + (.verdict_inputs.top_thread_runq_pct // 0)')
echo "  control: busiest thread $(jqr "$J" .verdict_inputs.top_thread): $cpu% of a CPU"
check "control: the members are the verdicts' inputs" \
	fcmp "$(jqr "$J" '.verdict_inputs.members | length') >= 2"
check "control: no thread near a full CPU (it waits on the devices)" fcmp "$cpu < 90"
check "control: no cpu-bound verdict" \
	[ "$(jqr "$J" '[.verdicts[] | select(.kind == "cpu-bound")] | length')" = 0 ]
