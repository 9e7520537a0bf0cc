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
gzip_run() {
	# the file's pages out of the page cache, so gzip's reads reach the members
	dd if="$BT_MNT/f" iflag=nocache count=0 status=none
	"$IOWHY" run --json "$J" -- sh -c 'exec gzip -9 -c "$1" >/dev/null' _ "$BT_MNT/f" >"$OUT" 2>&1
}
# The busiest device as the kernel saw it (io_ticks of /sys/block over the phase, % of the window)
kernel_busiest() {
	jqr "$J" '[.phases[0].io.devices[] | select(.stat != null) | .stat.io_ticks_ns] | max // 0' |
		awk -v w="$(jqr "$J" '.phases[0].io.window_ns // .disks[0].window_ns')" '{ printf "%.1f", 100 * $1 / w }'
}
gzip_run
rc=$?
# A device the kernel itself saw busy for most of the window (a stall of the host's disk, seen
# once in ~20 suite runs: vda and the loop device above it busy ~570 ms of ~1 s for requests
# of ~1 ms) is not the CPU-bound case this test needs: run it again, once.
kb=$(kernel_busiest)
if [ "$rc" = 0 ] && fcmp "$kb > 50"; then
	echo "  the kernel's io_ticks show a device $kb% busy: a stall outside iowhy; running again"
	gzip_run
	rc=$?
fi
sed -n '/== devices/,/== explanation/p' "$OUT"
check "iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
# iowhy's busy time of each device against the kernel's own (io_ticks: whole jiffies of 4 ms, so
# each request of ~1 ms adds 0 or a jiffy: noise of ~4 ms x sqrt(requests)). A gross disagreement
# only: within a factor of 2 and 4 ms x (3 sqrt(requests) + 2) either way.
jqr "$J" '.phases[0].io.devices[] | select(.stat != null and (.partition | not)) | "\(.name) \(.busy_ns) \(.stat.io_ticks_ns) \(.issued)"' |
	while read -r name busy ticks n; do
		check "$name: busy $busy ns agrees with the kernel's io_ticks $ticks ns ($n requests)" \
			fcmp "$busy <= 2 * $ticks + 4e6 * (3 * sqrt($n) + 2) && $busy >= 0.5 * $ticks - 4e6 * (3 * sqrt($n) + 2)"
	done
# what a failure needs to be understood (a soak run once had loop0 and vda each busy 463 ms of a
# 653 ms window for 17 and 34 requests of ~1 ms: a completion the tracer did not see keeps a
# device busy): the time the devices served requests against their busy time, and what the
# tracer says it missed
jqr "$J" '.phases[0].io.requests[] | "  \(.disk) \(.op): \(.requests) requests, device time \(.device_ns.total) ns"'
jqr "$J" '.disks[]? | "  \(.name): busy \(.busy_ns) ns of \(.window_ns)"'
echo "  the kernel's busiest device: $(kernel_busiest)% of the window (io_ticks)"
echo "  io lost: $(jqr "$J" '.phases[0].io.lost | with_entries(select(.value != 0))' -c)," \
	"events: $(jqr "$J" '.events + (.phases[0].trace | {out_of_order, clock_skew_events,
		programs_missed_runs, programs_missed_most})' -c)"
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
