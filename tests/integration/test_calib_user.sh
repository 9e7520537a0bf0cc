# A 300 ms user-space busy loop is user CPU.
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- "$CALIB" spin 300 >"$TMPROOT/out.txt" || fail "iowhy run exited $?"
f=$(frac "$j" 0 user_ns)
check "user is $f of wall (>= 0.90)" fcmp "$f >= 0.90"
check_phase_invariants "$j" 0
