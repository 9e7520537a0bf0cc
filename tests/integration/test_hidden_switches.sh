# Some kernels switch to a task without the sched_switch tracepoint (docs/ACCURACY.md). iowhy finds
# such a switch-in at the task's switch-out, or earlier at an event of its own (a syscall, a timer
# tick), and dates it by the scheduler's own clock (both probe modes); without that, the stint
# shows as run-queue wait.
# IOWHY_TEST_HIDE_SWITCHES=1 makes the sched_switch program ignore every switch from a task outside
# the tree to a tree task, as such a kernel does. A task on CPU 1 runs in user space 2 ms at a time
# between getppid calls, beside a task outside the tree that wakes every ~1 ms on the same CPU: it
# is preempted and switched back in hundreds of times, every switch-in hidden, and some stints end
# in a getppid, some in a preemption. Its CPU and run-queue wait must still match what its own
# getrusage and schedstat say (without the repair at events: 27% of its CPU shown as run queue;
# dated by the kernel's stale on-CPU sum instead of its clock: 56%).
#
# witness: calib slices' own getrusage user+sys (printed at its end); tolerance: 10% - 2 ms below,
#   10% + the steal since steal_mark above; observed: 295 against 301 ms (quiet); 219 against 301
#   without the repair at events, 131 against 299 dated by the stale sum
# witness: calib slices' schedstat run_delay (printed at its end); tolerance: run queue <= 110% +
#   5 ms + the steal; observed: 12.3 against 12.2 ms (quiet); 17 ms over with 570 ms of steal in
#   a 413 ms CI run (before the steal was allowed)
# witness: calib's known count (150 getppid); tolerance: +2 for the shell's own; observed: not
#   recorded
# witness: none independent: iowhy's own counts of hidden switch-ins (>= 50, each found, some at
#   an event), no loss, no event out of order, check_phase_invariants (lib.sh) with the steal as
#   slack; observed: ~270 hidden a run, ~155 found at an event
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
command -v taskset >/dev/null || skip "needs taskset (util-linux)"
cp "$CALIB" "$TMPROOT/napper"
taskset -c 1 "$TMPROOT/napper" naps 100000000 0 >/dev/null 2>&1 &
napper=$!
on_exit "kill $napper; wait $napper"
for mode in batched single raw_tp; do
	j=$TMPROOT/$mode.json out=$TMPROOT/$mode.out
	steal_mark
	skip='' pmode=''
	[ $mode = single ] && skip=timer:hrtimer_expire_entry
	[ $mode = raw_tp ] && pmode=raw_tp # the fallback: per-task state in a tid hash
	IOWHY_TEST_HIDE_SWITCHES=1 IOWHY_SKIP_PROBES=$skip IOWHY_PROBE_MODE=$pmode taskset -c 0 $IOWHY run --no-io --json "$j" -- \
		sh -c "taskset -c 1 $CALIB slices 150 2 >$out" >/dev/null || fail "$mode: iowhy run exited $?"
	# the report's figures in one jq pass (sys_count's and comm_field's expressions among them):
	# hidden, found, at an event, probe mode, lost, out of order, getppid, calib's user, kernel, run queue
	IFS='|' read -r hid found at_event probe lost ooo n u k q < <(jqr "$j" '
		def comm($f): [.phases[0].comms[] | select(.comm == "calib") | .[$f]] | add // 0;
		[(.events.test_hidden_switches // 0), .events.hidden_switches, .events.hidden_at_event,
		 .probe_mode, .events.lost, .phases[0].trace.out_of_order,
		 ([.phases[0].syscalls[] | select(.name == "getppid") | .count] | add // 0),
		 comm("user_ns"), comm("kernel_ns"), comm("runq_ns")] | map(tostring) | join("|")')
	echo "  $mode: switch-ins hidden $hid, found $found ($at_event at an event of the task)"
	check "$mode: >= 50 switch-ins hidden (got $hid)" test "$hid" -ge 50
	check "$mode: each found ($found >= $hid)" test "$found" -ge "$hid"
	check "$mode: some found at an event of the task ($at_event)" test "$at_event" -gt 0
	[ $mode = single ] &&
		check "single: some found at the switch-out ($((found - at_event)))" test "$found" -gt "$at_event"
	check "$mode: probe mode $probe" test "$probe" = "${pmode:-tp_btf}"
	check "$mode: no event lost" test "$lost" = 0
	check "$mode: no event out of time order" test "$ooo" = 0
	check "$mode: getppid count is 150 (+ the shell's own: got $n)" fcmp "$n >= 150 && $n <= 152"
	own=$(awk '/^cpu_ns/ { print $2 }' "$out") rd=$(awk '/^run_delay_ns/ { print $2 }' "$out")
	# shellcheck disable=SC2154 # _steal0 is set by lib.sh steal_mark
	st=$(( $(steal_ns) - _steal0 + $(nproc) * 1000000000 / $(getconf CLK_TCK) ))
	# the witness counts its CPU from the fork (taskset's part before the exec: ~2 ms)
	check "$mode: CPU $((u + k)) ns within 10% (+ 2 ms) of its own getrusage ${own:-?} ns (+ steal $st ns)" \
		fcmp "${own:-0} > 0 && $u + $k >= 0.9 * ${own:-0} - 2e6 && $u + $k <= 1.1 * ${own:-0} + $st"
	# a stint found at the switch-out is dated by the kernel's sum_exec_runtime, which leaves out
	# steal: it comes out short, and its run queue long, by the steal during it (a CI run with
	# 570 ms of steal in a 413 ms run: 15 ms of CPU less than task-clock, run queue 17 ms over)
	check "$mode: run queue $q ns <= 110% (+ 5 ms + steal $st ns) of its schedstat run_delay ${rd:-?} ns" \
		fcmp "${rd:-0} > 0 && $q <= 1.1 * ${rd:-0} + 5e6 + $st"
	check_phase_invariants "$j" 0 "$st"
done
