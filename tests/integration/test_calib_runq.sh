# Two CPU-bound processes pinned to one CPU for 400 ms of CPU each: each waits on the run queue for
# about half of its life.
need_root
command -v taskset >/dev/null || skip "taskset not installed"
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- sh -c "taskset -c 0 $CALIB spin 400 & taskset -c 0 $CALIB spin 400; wait" \
	>/dev/null || fail "iowhy run exited $?"
life=$(jqr "$j" '[.phases[0].comms[] | select(.comm == "calib") | .user_ns + .kernel_ns + .runq_ns + .iowait_ns + .other_ns] | add')
rq=$(comm_field "$j" 0 calib runq_ns)
f=$(awk -v a="$rq" -v b="$life" 'BEGIN { print a / b }')
check "run-queue wait is $f of the spinners' time (0.5 ± 15%)" fcmp "$f >= 0.425 && $f <= 0.575"
check_phase_invariants "$j" 0
