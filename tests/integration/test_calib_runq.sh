# Two CPU-bound processes pinned to one CPU for 400 ms of CPU each: each waits on the run queue for
# about half of its life (more when other work shares the CPU).
#
# witness: the two spinners' own schedstat run_delay (calib spin prints it); tolerance: 10% +
#   5 ms either way; observed: -4.1% to -0.8% (of 0.83-2.9 s) in 7 runs, 2 beside two spinners
# witness: the set-up (two spinners on one CPU: each waits while the other runs), against
#   iowhy's run queue / life of both; tolerance: >= 0.425; observed: not recorded
# witness: calib witness (getrusage, task-clock, run-queue wait of the run): check_phase_invariants
#   (lib.sh, its tolerances there); observed: tree - getrusage +0.03% to +0.90% in 7 runs, 2
#   beside two spinners. The witness (run by a link named
#   cwitness, so that its long wait for the spinners is not in calib's row) reaps both spinners
#   and reads their run-queue wait: the shell execs the second, which is the first's parent and
#   does not wait for it (an orphan or a zombie, the witness, a subreaper, gets it).
need_root
command -v taskset >/dev/null || skip "taskset not installed"
j=$TMPROOT/r.json w=$TMPROOT/witness
ln -s "$(readlink -f "$CALIB")" "$TMPROOT/cwitness" || fail "link to calib made"
$IOWHY run --no-io --json "$j" -- "$TMPROOT/cwitness" witness "$w" -- \
	sh -c "taskset -c 0 '$CALIB' spin 400 & exec taskset -c 0 '$CALIB' spin 400" \
	>"$TMPROOT/out.txt" || fail "iowhy run exited $?"
check "the witness reaped both spinners and the shell's exec ($(wit "$w" reaped))" test "$(wit "$w" reaped)" = 2
life=$(jqr "$j" '[.phases[0].comms[] | select(.comm == "calib") | .user_ns + .kernel_ns + .runq_ns + .iowait_ns + .other_ns] | add')
rq=$(comm_field "$j" 0 calib runq_ns)
f=$(awk -v a="$rq" -v b="$life" 'BEGIN { print a / b }')
# Other work on CPU 0 (a busy host) adds to the wait: the witness is the scheduler's own run_delay of
# the same two tasks (printed by each at its end), not a share of the wall.
own=$(awk '/^run_delay_ns/ { s += $2 } END { printf "%.0f\n", s }' "$TMPROOT/out.txt")
check "run-queue wait is $f of the spinners' time (>= 0.425: each waits while the other runs)" fcmp "$f >= 0.425"
check "run-queue wait $rq ns within 10% + 5 ms of the scheduler's run_delay $own ns" \
	fcmp "$own > 0 && $rq >= 0.9 * $own - 5e6 && $rq <= 1.1 * $own + 5e6"
check_phase_invariants "$j" 0 0 "$w"
