# A 300 ms sleep is other wait.
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- "$CALIB" sleep 300 >/dev/null || fail "iowhy run exited $?"
f=$(frac "$j" 0 other_ns)
check "other wait is $f of wall (>= 0.90)" fcmp "$f >= 0.90"
check_phase_invariants "$j" 0
