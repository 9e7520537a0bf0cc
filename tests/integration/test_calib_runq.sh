# Two CPU-bound processes pinned to one CPU for 400 ms of CPU each: each waits on the run queue for
# about half of its life (more when other work shares the CPU).
#
# witness: the two spinners' own schedstat run_delay (calib spin prints it); tolerance: 10% +
#   5 ms either way; observed: not recorded
# witness: the set-up (two spinners on one CPU: each waits while the other runs), against
#   iowhy's run queue / life of both; tolerance: >= 0.425; observed: not recorded
# witness: none independent: check_phase_invariants (lib.sh); observed: not recorded
need_root
command -v taskset >/dev/null || skip "taskset not installed"
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- sh -c "taskset -c 0 $CALIB spin 400 & taskset -c 0 $CALIB spin 400; wait" \
	>"$TMPROOT/out.txt" || fail "iowhy run exited $?"
life=$(jqr "$j" '[.phases[0].comms[] | select(.comm == "calib") | .user_ns + .kernel_ns + .runq_ns + .iowait_ns + .other_ns] | add')
rq=$(comm_field "$j" 0 calib runq_ns)
f=$(awk -v a="$rq" -v b="$life" 'BEGIN { print a / b }')
# Other work on CPU 0 (a busy host) adds to the wait: the witness is the scheduler's own run_delay of
# the same two tasks (printed by each at its end), not a share of the wall.
own=$(awk '/^run_delay_ns/ { s += $2 } END { print s + 0 }' "$TMPROOT/out.txt")
check "run-queue wait is $f of the spinners' time (>= 0.425: each waits while the other runs)" fcmp "$f >= 0.425"
check "run-queue wait $rq ns within 10% + 5 ms of the scheduler's run_delay $own ns" \
	fcmp "$own > 0 && $rq >= 0.9 * $own - 5e6 && $rq <= 1.1 * $own + 5e6"
check_phase_invariants "$j" 0
