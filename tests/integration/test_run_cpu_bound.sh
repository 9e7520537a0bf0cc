# The CPU-bound verdict on a real run: btrfs raid0 over two loop devices (several devices, so the
# run gets verdicts), a file of random data read cold by `gzip -9` (one thread computing all the
# time; the devices deliver in a fraction of it). The verdict names gzip, and its inputs support
# it (the thread's CPU, run queue included, >= 90% of a CPU; no device over 50% busy). Control: an
# O_DIRECT `dd` of the same file (the thread waits on the devices): no CPU-bound verdict, and its
# inputs say why. Both from the run's own numbers, never from absolute times.
# Witness of the devices' busy time: the kernel's io_ticks of each member and of the disk below,
# read by the test itself over gzip's run (calib witness between iowhy and gzip: inside the
# phase) and around the iowhy run (the phase inside: the disk below is shared with other work).
# io_ticks counts whole jiffies J: each busy period of the device adds the jiffies its end and
# start fall in, so for B busy the count is off by sd <= sqrt(J B). Busy must lie between the two
# io_ticks, 3 sd + 2 J outside at most (was: a factor of 2 and 4 ms x (3 sqrt(requests) + 2)
# either way). Observed (7 runs, 3 beside two spinners): the members -5.4 to +9.0 ms on 12-132
# ms (at most 0.84 sd); the disk below (shared with others' tests) within 8 ms of its two
# io_ticks or between them, and once 277.5 ms busy against io_ticks of 60 ms over gzip and 72
# ms around the run, more than its requests' device time (108 ms), with 4 missed completions: a
# missed completion keeps the disk busy in iowhy's records (an inaccuracy of iowhy's).
need_root
command -v gzip >/dev/null || skip "gzip missing"
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh

make_btrfs_loops 2 256
dd if=/dev/urandom of="$BT_MNT/f" bs=1M count=24 status=none || skip "cannot write"
sync
J=$TMPROOT/r.json W=$TMPROOT/witness
OUT=$TMPROOT/out.txt
declare -A o0 o1
gzip_run() {
	local d rc
	# the file's pages out of the page cache, so gzip's reads reach the members
	dd if="$BT_MNT/f" iflag=nocache count=0 status=none
	for d in $BT_LOOPS $BT_LOWER; do o0[$d]=$(dev_read "$d"); done
	# shellcheck disable=SC2086 # the device names are words
	"$IOWHY" run --json "$J" -- "$CALIB" witness "$W" $BT_LOOPS "$BT_LOWER" -- \
		sh -c 'exec gzip -9 -c "$1" >/dev/null' _ "$BT_MNT/f" >"$OUT" 2>&1
	rc=$?
	for d in $BT_LOOPS $BT_LOWER; do o1[$d]=$(dev_read "$d"); done
	return "$rc"
}
# The busiest device as the kernel saw it (io_ticks of /sys/block over gzip's run, % of its time)
kernel_busiest() {
	local d m=0 t
	for d in $BT_LOOPS $BT_LOWER; do
		t=$(wit_dev "$W" "$d" 10) && [ "$t" -gt "$m" ] && m=$t
	done
	awk -v t="$m" -v e="$(wit "$W" elapsed_ns)" 'BEGIN { printf "%.1f", 100 * t * 1e6 / e }'
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
# iowhy's busy time of each device against the kernel's own io_ticks, read by the test over
# gzip's run (the members and the disk below them)
jf=$(jiffy_ns)
for name in $BT_LOOPS $BT_LOWER; do
	busy=$(jqr "$J" "[.phases[0].io.devices[] | select(.name == \"$name\") | .busy_ns] | add // 0")
	n=$(jqr "$J" "[.phases[0].io.devices[] | select(.name == \"$name\") | .issued] | add // 0")
	ticks=$(( $(wit_dev "$W" "$name" 10) * 1000000 ))
	ticks_out=$(( $(dev_diff "${o0[$name]}" "${o1[$name]}" 10) * 1000000 ))
	tol=$(awk -v b="$busy" -v t="$ticks_out" -v j="$jf" 'BEGIN { m = b > t ? b : t; printf "%.0f", 3 * sqrt(j * m) + 2 * j }')
	echo "  $name: busy $busy ns ($n requests), the kernel's io_ticks $ticks ns over gzip," \
		"$ticks_out ns around iowhy: busy - io_ticks $((busy - ticks)) ns, $((busy - ticks_out)) ns; tolerance $tol ns"
	check "$name: busy $busy ns between the kernel's io_ticks over gzip and around the run, within 3 sd + 2 jiffies" \
		fcmp "$busy >= $ticks - $tol && $busy <= $ticks_out + $tol"
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
