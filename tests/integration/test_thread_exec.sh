# A thread other than the leader execs (calib threadexec): the kernel gives it the leader's pid and
# the leader the thread's. The tree must still add up: every task ends, none is unknown, the traced
# CPU matches the test's witness, and the syscalls of both programs are all counted. Both probe
# flavours (task storage, and the raw_tp fallback whose per-task state is keyed by tid).
# The witness is calib witness between iowhy and calib threadexec, run from a copy named
# "witness" (so that its own exit is not counted among calib's).
#
# witness: calib threadexec's known count (100,000 getppid by the thread, 100,000 by the program
#   it execs); tolerance: exact, both probe modes; observed: exact (10 runs, 5 a
#   probe mode, 4 beside two CPU spinners)
# witness: calib witness: it reaped one process, which exited with status 0 (the exec'd program
#   ran to its end); tolerance: exact; observed: exact (10 runs, 4 beside spinners)
# witness: calib witness's getrusage, perf task-clock, run-queue wait, elapsed and steal:
#   check_phase_invariants with it (lib.sh, check_cpu_witness; its tolerances there); observed:
#   tree CPU - getrusage +0.0 to +3.0 ms, at most 20% of the tolerance (10 runs, 5 a probe mode,
#   4 beside two CPU spinners); before the tid swap: traced CPU 10x getrusage
# witness: none independent (iowhy against itself): no task left over, no unknown task, the
#   exec'd program's exit seen; observed: a task left over and 2 unknown tasks before the tid swap
need_root
cp "$CALIB" "$TMPROOT/witness"
for mode in tp_btf raw_tp; do
	j=$TMPROOT/$mode.json w=$TMPROOT/$mode.witness
	IOWHY_PROBE_MODE=$mode $IOWHY run --no-io --json "$j" -- "$TMPROOT/witness" witness "$w" -- \
		"$CALIB" threadexec 100000 >/dev/null 2>"$TMPROOT/$mode.err" || fail "$mode: iowhy run exited $?"
	check "$mode: probe mode" test "$(jqr "$j" .probe_mode)" = $mode
	check "$mode: no task left over (got $(jqr "$j" .phases[0].trace.tasks_left))" test "$(jqr "$j" .phases[0].trace.tasks_left)" = 0
	check "$mode: no unknown task (got $(jqr "$j" .phases[0].trace.unknown_task))" test "$(jqr "$j" .phases[0].trace.unknown_task)" = 0
	n=$(sys_count "$j" 0 getppid)
	check "$mode: getppid count is 200000 (got $n)" test "$n" = 200000
	check "$mode: the witness reaped one process, exit status 0 (reaped $(wit "$w" reaped), status $(wit "$w" status))" \
		test "$(wit "$w" reaped)/$(wit "$w" status)" = 1/0
	check "$mode: the exec'd program ran and exited (iowhy: calib exits $(comm_field "$j" 0 calib exits))" \
		test "$(comm_field "$j" 0 calib exits)" -ge 1
	check_phase_invariants "$j" 0 0 "$w"
done
