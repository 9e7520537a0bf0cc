# --freq HZ sets the sampling frequency: 500 ms of CPU at 199 Hz is about 100 samples (the tick
# of the machine does not matter: cpu-clock is an hrtimer). Bad values are bad input.
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --freq 199 --json "$j" -- "$CALIB" spin 500 >/dev/null 2>&1 || fail "iowhy run exited $?"
hz=$(jqr "$j" '.phases[0].cpu_samples.hz')
n=$(jqr "$j" '.phases[0].cpu_samples.samples')
cpu=$(jqr "$j" '.phases[0].cpu_check.tree_cpu_ns')
check "the JSON says 199 Hz (got $hz)" test "$hz" = 199
# expected: CPU seconds x 199, within 25% (steal time and timer slack on a busy VM)
check "$n samples for $cpu ns of CPU at 199 Hz" within "$n" "$(awk -v c="$cpu" 'BEGIN { print c / 1e9 * 199 }')" 25
for bad in 0 20001 abc; do
	$IOWHY run --no-io --freq "$bad" -- true >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "--freq $bad: exit 2 (got $rc) with one line" test "$rc" = 2 -a "$(wc -l <"$TMPROOT/err")" = 1
done
