# A 300 ms user-space busy loop (300 ms of its own CPU clock) is user CPU. On a busy machine it
# also waits for a CPU: the witnesses are of the same run (getrusage), not shares of the wall.
#
# witness: calib spin's construction (300 ms of its own thread CPU clock), against getrusage as
#   iowhy read it (.cpu_check.rusage_cpu_ns); tolerance: >= 297 ms; observed: not recorded
# witness: NOT independent: getrusage user as iowhy read it (.cpu_check.rusage_user_ns), against
#   its user bucket; tolerance: >= 95% (a lower bound); observed: not recorded
# witness: none independent (iowhy against itself): user + run queue >= 90% of wall_ns,
#   check_phase_invariants (lib.sh); observed: not recorded
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- "$CALIB" spin 300 >"$TMPROOT/out.txt" || fail "iowhy run exited $?"
w=$(jqr "$j" .phases[0].wall_ns) u=$(jqr "$j" .phases[0].wall.user_ns) q=$(jqr "$j" .phases[0].wall.runq_ns)
ru=$(jqr "$j" .phases[0].cpu_check.rusage_user_ns) rc=$(jqr "$j" .phases[0].cpu_check.rusage_cpu_ns)
check "getrusage user+sys $rc ns >= 297 ms (the loop's own CPU clock ran 300 ms)" fcmp "$rc >= 297e6"
check "user $u + run-queue $q ns are >= 0.90 of wall $w ns (on a CPU or waiting for one)" \
	fcmp "$u + $q >= 0.90 * $w"
check "user $u ns >= 0.95 x getrusage user $ru ns" fcmp "$u >= 0.95 * $ru"
check_phase_invariants "$j" 0
