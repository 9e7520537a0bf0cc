# A thread other than the leader execs (calib threadexec): the kernel gives it the leader's pid and
# the leader the thread's. The tree must still add up: every task ends, none is unknown, the traced
# CPU matches getrusage, and the syscalls of both programs are all counted. Both probe flavours
# (task storage, and the raw_tp fallback whose per-task state is keyed by tid).
#
# witness: calib threadexec's known count (100,000 getppid by the thread, 100,000 by the program
#   it execs); tolerance: exact, both probe modes; observed: not recorded
# witness: none independent (iowhy against itself): no task left over, no unknown task, the
#   exec'd program's exit seen, check_phase_invariants (lib.sh); observed: a task left over, 2
#   unknown tasks and traced CPU 10x getrusage before the tid swap
need_root
for mode in tp_btf raw_tp; do
	j=$TMPROOT/$mode.json
	IOWHY_PROBE_MODE=$mode $IOWHY run --no-io --json "$j" -- "$CALIB" threadexec 100000 >/dev/null ||
		fail "$mode: iowhy run exited $?"
	check "$mode: probe mode" test "$(jqr "$j" .probe_mode)" = $mode
	check "$mode: no task left over (got $(jqr "$j" .phases[0].trace.tasks_left))" test "$(jqr "$j" .phases[0].trace.tasks_left)" = 0
	check "$mode: no unknown task (got $(jqr "$j" .phases[0].trace.unknown_task))" test "$(jqr "$j" .phases[0].trace.unknown_task)" = 0
	n=$(sys_count "$j" 0 getppid)
	check "$mode: getppid count is 200000 (got $n)" test "$n" = 200000
	check "$mode: the exec'd program ran and exited" test "$(comm_field "$j" 0 calib exits)" -ge 1
	check_phase_invariants "$j" 0
done
