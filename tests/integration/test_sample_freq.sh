# --freq HZ sets the sampling frequency: 500 ms of CPU at 199 Hz is about 100 samples (the tick
# of the machine does not matter: cpu-clock is an hrtimer). Bad values are bad input.
# Witness: the run's CPU by the test's own count (calib witness between iowhy and calib spin:
# perf's task-clock of calib spin, the clock the sampler's cpu-clock runs on, plus the witness's
# own CPU), times 199 Hz, and its context switches (getrusage). The sampler's timer runs on each
# CPU; a stint of the tree on a CPU gets the timer's expiries that fall in it, the whole periods
# it spans and one more or not: each stint is off by less than one sample (a variance of at most
# 1/4), so for S stints (switches + 1) the count is off by sd <= sqrt(S / 4). Observed (7 runs,
# 3 beside two spinners; 35-299 switches): -5.7 to +5.3 samples of ~102 (at most 0.97 sd);
# tolerance 3 sd + 2 samples (11-28), about 3x (was 25% of the tree's CPU as iowhy traced it).
# check_phase_invariants' CPU cross-check against the same witness (its tolerances there).
need_root
j=$TMPROOT/r.json w=$TMPROOT/witness
$IOWHY run --no-io --freq 199 --json "$j" -- "$CALIB" witness "$w" -- "$CALIB" spin 500 >/dev/null 2>&1 ||
	fail "iowhy run exited $?"
hz=$(jqr "$j" '.phases[0].cpu_samples.hz')
n=$(jqr "$j" '.phases[0].cpu_samples.samples')
cpu=$(( $(wit "$w" task_clock_ns) + $(wit "$w" self_cpu_ns) ))
sw=$(wit "$w" switches)
want=$(awk -v c="$cpu" 'BEGIN { printf "%.1f", c / 1e9 * 199 }')
tol=$(awk -v s="$sw" 'BEGIN { printf "%.1f", 3 * sqrt((s + 1) / 4) + 2 }')
echo "  $n samples; witness CPU $cpu ns x 199 Hz = $want, $sw switches: tolerance $tol;" \
	"error $(awk -v n="$n" -v w="$want" 'BEGIN { printf "%+.1f (%+.1f%%)", n - w, 100 * (n - w) / w }')"
check "the JSON says 199 Hz (got $hz)" test "$hz" = 199
check "$n samples for $cpu ns of CPU at 199 Hz ($want), within $tol" fcmp "abs($n - $want) <= $tol"
check_phase_invariants "$j" 0 0 "$w"
for bad in 0 20001 abc; do
	$IOWHY run --no-io --freq "$bad" -- true >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "--freq $bad: exit 2 (got $rc) with one line" test "$rc" = 2 -a "$(wc -l <"$TMPROOT/err")" = 1
done
