# Syscall transitions travel in batches (per task: sent when 16 have gathered, before any other event
# of the task, and at the next timer tick), so records from the two CPUs arrive with overlapping
# times; user space puts the stream back in time order before the model sees it.
# A task spins in user space without syscalls, alone on CPU 1: its last transition before the spin
# waits in its log until a tick or a preemption sends it, milliseconds late, while a task on CPU 0
# makes a million syscalls. Every event must reach the model in time order, counts must be exact,
# the spin must show as user CPU, and the same must hold without batching (timer probe skipped).
# iowhy itself (the consumer) runs on CPU 0.
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
command -v taskset >/dev/null || skip "needs taskset (util-linux)"
cp "$CALIB" "$TMPROOT/spinner"
cmd="taskset -c 1 $TMPROOT/spinner busy 300 & taskset -c 0 $CALIB getppid 1000000; wait"
for mode in batched single; do
	j=$TMPROOT/$mode.json
	skip=''
	[ $mode = single ] && skip=timer:hrtimer_expire_entry
	IOWHY_SKIP_PROBES=$skip taskset -c 0 $IOWHY run --no-io --json "$j" -- sh -c "$cmd" >/dev/null ||
		fail "$mode: iowhy run exited $?"
	missing=$(jqr "$j" '.missing_probes | index("timer:hrtimer_expire_entry") != null')
	check "$mode: timer probe missing = $missing" test "$missing" = "$([ $mode = single ] && echo true || echo false)"
	check "$mode: no event out of time order (got $(jqr "$j" .phases[0].trace.out_of_order))" \
		test "$(jqr "$j" .phases[0].trace.out_of_order)" = 0
	check "$mode: no event lost" test "$(jqr "$j" .events.lost)" = 0
	n=$(sys_count "$j" 0 getppid)
	check "$mode: getppid count is 1000000 (+ the shell's own: got $n)" fcmp "$n >= 1000000 && $n <= 1000010"
	# 300 ms of wall on CPU 1: on a CPU in user mode, or (kernel threads there) waiting for it
	u=$(comm_field "$j" 0 spinner user_ns) q=$(comm_field "$j" 0 spinner runq_ns)
	check "$mode: the spinner's user CPU $u ns + run-queue $q ns is 290-400 ms, user >= 200 ms" \
		fcmp "$u + $q >= 290e6 && $u + $q <= 400e6 && $u >= 200e6"
	ev=$(jqr "$j" .phases[0].trace.events)
	check "$mode: >= 2,000,000 events delivered (got $ev)" test "$ev" -ge 2000000
	check_phase_invariants "$j" 0
done
