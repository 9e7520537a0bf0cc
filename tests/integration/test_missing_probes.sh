# A missing optional tracepoint is skipped and listed; a missing required one stops iowhy with one
# line. (IOWHY_SKIP_PROBES makes iowhy treat the named tracepoints as absent.)
need_root
j=$TMPROOT/r.json
IOWHY_SKIP_PROBES=sched:sched_wakeup,sched:sched_wakeup_new $IOWHY run --no-io --json "$j" -- "$CALIB" sleep 50 \
	>"$TMPROOT/out" 2>&1; rc=$?
check "runs without the optional probes (exit $rc)" test "$rc" = 0
check "JSON lists sched:sched_wakeup as missing" test "$(jqr "$j" '.missing_probes | index("sched:sched_wakeup") != null')" = true
check "JSON lists sched:sched_wakeup_new as missing" test "$(jqr "$j" '.missing_probes | index("sched:sched_wakeup_new") != null')" = true
check "the text report names them" grep -q "sched:sched_wakeup" "$TMPROOT/out"
check_phase_invariants "$j" 0
IOWHY_SKIP_PROBES=sched:sched_switch $IOWHY run --no-io -- true >/dev/null 2>"$TMPROOT/err"; rc=$?
check "without sched_switch: exit 1 (got $rc)" test "$rc" = 1
check "one line naming it" grep -q "required tracepoint sched:sched_switch" "$TMPROOT/err"
check "just one line" test "$(wc -l <"$TMPROOT/err")" = 1
