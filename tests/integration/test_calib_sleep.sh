# A 300 ms sleep is other wait. On a busy machine the start-up and the wake-up also wait for a CPU:
# the witnesses are the program's own request (300 ms) and its clock_nanosleep call as traced in the
# same run, not a share of the wall.
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- "$CALIB" sleep 300 >/dev/null || fail "iowhy run exited $?"
o=$(jqr "$j" .phases[0].wall.other_ns) w=$(jqr "$j" .phases[0].wall_ns)
ns=$(jqr "$j" '[.phases[0].syscalls[] | select(.name == "clock_nanosleep" or .name == "nanosleep") | .total_ns] | add // 0')
check "other wait $o ns >= 295 ms (asleep 300 ms)" fcmp "$o >= 295e6"
check "other wait $o ns <= the sleep call's $ns ns (which also holds the wake-up's wait for a CPU)" \
	fcmp "$o <= $ns + 1e6"
check "the sleep call $ns ns >= 0.5 of the wall $w ns" fcmp "$ns >= 0.5 * $w"
check_phase_invariants "$j" 0
