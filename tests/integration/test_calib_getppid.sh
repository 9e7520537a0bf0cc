# 200,000 getppid calls: counted exactly, and kernel CPU is a large part of the wall.
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- "$CALIB" getppid 200000 >/dev/null || fail "iowhy run exited $?"
n=$(sys_count "$j" 0 getppid)
check "getppid count is exactly 200000 (got $n)" test "$n" = 200000
f=$(frac "$j" 0 kernel_ns)
check "kernel CPU is $f of wall (>= 0.30)" fcmp "$f >= 0.30"
check_phase_invariants "$j" 0
