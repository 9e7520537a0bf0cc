# Syscall transitions travel in batches (per task: sent when 16 have gathered, before any other event
# of the task, and at the next timer tick), so records from the two CPUs arrive with overlapping
# times; user space puts the stream back in time order before the model sees it.
# A task spins in user space without syscalls, alone on CPU 1: its last transition before the spin
# waits in its log until a tick or a preemption sends it, milliseconds late, while a task on CPU 0
# makes a million syscalls. Every event must reach the model in time order, counts must be exact,
# the spin must show as user CPU, and the same must hold without batching (timer probe skipped).
# iowhy itself (the consumer) runs on CPU 0.
#
# witness: calib's known count (1,000,000 getppid); tolerance: +10 for the shell's own calls;
#   observed: not recorded
# witness: the spinner's own getrusage user+sys (calib busy prints it); tolerance: 10% - 2 ms
#   - 8% of its own run_delay below, 10% + the steal since steal_mark above; observed: up to ~16%
#   of its CPU shown as run queue in single mode (6 of 10 runs under 90%) before hidden switch-ins
#   were found; on a machine loaded by other test runs (run_delay 150-260 ms) 0.84-0.95 of
#   getrusage, the same with and without the hidden switch-outs' probe (interleaved runs): the
#   scheduler charges a woken task part of its wait (the CPU cross-check of lib.sh: up to 2.6%
#   of the run-queue wait in 30 runs)
# witness: the spinner's schedstat sum_exec_runtime read just before and after its getrusage;
#   tolerance: getrusage between them (- 2 us); observed: a 1.75 ms gap when one fopen'ed read
#   came after it (a vCPU stall)
# witness: the spinner's schedstat run_delay (printed by calib busy); tolerance: run queue <= 110%
#   + 5 ms of it; observed: 30.6 ms against 5.1 ms, and 21.9 ms against 2.2 ms, before hidden
#   switch-ins were found at the task's own events
# witness: the spinner's known 300 ms of wall (calib busy 300); tolerance: user + run queue >=
#   290 ms, kernel < 10% of it; observed: not recorded
# witness: calib witness between iowhy and the workload (a shell that starts the spinner in the
#   background and execs calib getppid, so that the witness reaps both: the spinner's parent is
#   gone when it ends): check_phase_invariants with it (lib.sh, check_cpu_witness: the tree's CPU
#   against the witness's task-clock and getrusage; its tolerances there); observed: tree CPU -
#   getrusage +1.5 to +11.3 ms, at most 3% of the tolerance (run-queue wait 1.3-5.1 s; 10 runs,
#   4 beside two CPU spinners)
# witness: none independent: out_of_order = 0, lost = 0, >= 2,000,000 events (iowhy's counts);
#   observed: not recorded
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
command -v taskset >/dev/null || skip "needs taskset (util-linux)"
cp "$CALIB" "$TMPROOT/spinner"
cmd="taskset -c 1 $TMPROOT/spinner busy 300 >$TMPROOT/busy.out & exec taskset -c 0 $CALIB getppid 1000000"
for mode in batched single; do
	j=$TMPROOT/$mode.json w=$TMPROOT/$mode.witness
	steal_mark
	skip=''
	[ $mode = single ] && skip=timer:hrtimer_expire_entry
	IOWHY_SKIP_PROBES=$skip taskset -c 0 $IOWHY run --no-io --json "$j" -- "$CALIB" witness "$w" -- sh -c "$cmd" \
		>/dev/null 2>"$TMPROOT/$mode.txt" || fail "$mode: iowhy run exited $?"
	missing=$(jqr "$j" '.missing_probes | index("timer:hrtimer_expire_entry") != null')
	check "$mode: timer probe missing = $missing" test "$missing" = "$([ $mode = single ] && echo true || echo false)"
	check "$mode: no event out of time order (got $(jqr "$j" .phases[0].trace.out_of_order))" \
		test "$(jqr "$j" .phases[0].trace.out_of_order)" = 0
	check "$mode: no event lost" test "$(jqr "$j" .events.lost)" = 0
	n=$(sys_count "$j" 0 getppid)
	check "$mode: getppid count is 1000000 (+ the shell's own: got $n)" fcmp "$n >= 1000000 && $n <= 1000010"
	# 300 ms of wall on CPU 1: on a CPU in user mode, or (other work there) waiting for it; its CPU
	# as the spinner itself measured it (getrusage RUSAGE_SELF user+sys, printed at its end; 2 ms
	# for what taskset ran before the exec) is the witness
	u=$(comm_field "$j" 0 spinner user_ns) q=$(comm_field "$j" 0 spinner runq_ns)
	k=$(comm_field "$j" 0 spinner kernel_ns) own=$(awk '/^cpu_ns/ { print $2 }' "$TMPROOT/busy.out")
	# shellcheck disable=SC2154 # _steal0 is set by lib.sh steal_mark
	st=$(( $(steal_ns) - _steal0 + $(nproc) * 1000000000 / $(getconf CLK_TCK) ))
	check "$mode: the spinner's user CPU $u ns + run-queue $q ns >= 290 ms, kernel $k ns < 10% of it" \
		fcmp "$u + $q >= 290e6 && $k < 0.1 * ($u + $q)"
	# Single mode used to lose a switch-in of the spinner now and then (up to ~16% of its CPU shown
	# as run queue): this host's kernel makes some switches without the sched_switch tracepoint
	# (after a thread of the VM's agent; ftrace's own sched_switch misses them too). iowhy now
	# dates such a switch-in when the task switches out, or at its next syscall if that comes
	# first (events.hidden_switches; test_hidden_switches), so both modes must be within 10% of
	# the witness.
	rd0=$(awk '/^run_delay_ns/ { print $2 }' "$TMPROOT/busy.out")
	check "$mode: the spinner's CPU $((u + k)) ns within 10% (+ 2 ms, + 8% of its run_delay ${rd0:-?} ns below) of its own getrusage ${own:-?} ns (+ steal $st ns)" \
		fcmp "${own:-0} > 0 && $u + $k >= 0.9 * ${own:-0} - 2e6 - 0.08 * ${rd0:-0} && $u + $k <= 1.1 * ${own:-0} + $st"
	# getrusage's user+sys is the scheduler's sum_exec_runtime (exact; only the split is by tick):
	# the spinner read that sum just before its getrusage (maybe up to a tick stale) and just after
	# (brought up to date by the getrusage), so getrusage lies between them, whatever the host did
	# to the vCPU in between (a stall there counts as on-CPU time: no steal is reported here). It
	# also printed its run-queue wait as the scheduler counted it (run_delay, as the traced run
	# queue: timestamps, steal included). A missed switch-in shows as run queue beyond it.
	s0=$(awk '/^oncpu_before_ns/ { print $2 }' "$TMPROOT/busy.out")
	s1=$(awk '/^oncpu_after_ns/ { print $2 }' "$TMPROOT/busy.out")
	rd=$(awk '/^run_delay_ns/ { print $2 }' "$TMPROOT/busy.out")
	check "$mode: getrusage user+sys ${own:-?} ns is the scheduler's on-CPU sum, between ${s0:-?} and ${s1:-?} ns read around it" \
		fcmp "${s0:-0} > 0 && ${own:-0} >= ${s0:-0} - 2000 && ${own:-0} <= ${s1:-0}"
	check "$mode: the spinner's run queue $q ns <= 110% (+ 5 ms) of its schedstat run_delay ${rd:-?} ns" \
		fcmp "${rd:-0} > 0 && $q <= 1.1 * ${rd:-0} + 5e6"
	hs=$(jqr "$j" .events.hidden_switches)
	echo "  $mode: switch-ins the kernel did not trace: $hs ($(jqr "$j" .events.hidden_at_event) found at an event of the task before its switch-out)"
	check "$mode: events.hidden_switches is a count" test "$hs" -ge 0
	ev=$(jqr "$j" .phases[0].trace.events)
	check "$mode: >= 2,000,000 events delivered (got $ev)" test "$ev" -ge 2000000
	check "$mode: the witness reaped the spinner and the shell (calib getppid after its exec): $(wit "$w" reaped)" \
		test "$(wit "$w" reaped)" = 2
	check_phase_invariants "$j" 0 0 "$w"
done
