# The raw_tp fallback (per-task state in a tid hash) gives the same exact counts as tp_btf.
need_root
j=$TMPROOT/r.json
IOWHY_PROBE_MODE=raw_tp $IOWHY run --no-io --json "$j" -- "$CALIB" getppid 20000 >/dev/null || fail "run exited $?"
check "probe mode is raw_tp" test "$(jqr "$j" .probe_mode)" = raw_tp
n=$(sys_count "$j" 0 getppid)
check "getppid count is exactly 20000 (got $n)" test "$n" = 20000
check_phase_invariants "$j" 0
