# A missing optional tracepoint is skipped and listed; a missing required one stops iowhy with one
# line. (IOWHY_SKIP_PROBES makes iowhy treat the named tracepoints as absent.)
#
# witness: behaviour: with sched_wakeup(_new) skipped the run exits 0 and lists them (JSON, text);
#   without sched_switch exit 1 and one line naming it; tolerance: exact; observed: not recorded
# witness: none independent: iowhy's own list of probes that failed to load or attach (run with
#   every probe set, attach --slow): empty; observed: not recorded
# witness: calib witness between iowhy and calib sleep 50 in the run without the wakeup probes
#   (getrusage, perf task-clock, run-queue wait, elapsed, steal): check_phase_invariants with it
#   (lib.sh, check_cpu_witness: the tree's CPU against the witness's task-clock and getrusage; its
#   tolerances there); observed: tree CPU -
#   getrusage +0.1 to +1.2 ms, at most 13% of the tolerance (5 runs, 2 beside two CPU spinners)
need_root
j=$TMPROOT/r.json w=$TMPROOT/witness
IOWHY_SKIP_PROBES=sched:sched_wakeup,sched:sched_wakeup_new $IOWHY run --no-io --json "$j" -- \
	"$CALIB" witness "$w" -- "$CALIB" sleep 50 >"$TMPROOT/out" 2>&1; rc=$?
check "runs without the optional probes (exit $rc)" test "$rc" = 0
check "JSON lists sched:sched_wakeup as missing" test "$(jqr "$j" '.missing_probes | index("sched:sched_wakeup") != null')" = true
check "JSON lists sched:sched_wakeup_new as missing" test "$(jqr "$j" '.missing_probes | index("sched:sched_wakeup_new") != null')" = true
check "the text report names them" grep -q "sched:sched_wakeup" "$TMPROOT/out"
check_phase_invariants "$j" 0 0 "$w"
IOWHY_SKIP_PROBES=sched:sched_switch $IOWHY run --no-io -- true >/dev/null 2>"$TMPROOT/err"; rc=$?
check "without sched_switch: exit 1 (got $rc)" test "$rc" = 1
check "one line naming it" grep -q "required tracepoint sched:sched_switch" "$TMPROOT/err"
check "just one line" test "$(wc -l <"$TMPROOT/err")" = 1

# Every probe the kernel has loads and attaches: a program the verifier rejects is listed as
# "missing" like an absent tracepoint, and the numbers it feeds quietly go (a block probe that failed
# to load once broke a dozen I/O tests in odd ways). With every probe set: core, I/O, sampler, slow.
j=$TMPROOT/all.json
$IOWHY run --json "$j" -- dd if=/dev/zero of="$TMPROOT/f" bs=64k count=16 conv=fsync status=none \
	>/dev/null 2>&1
check "a run with every probe set exits 0" test $? = 0
bad=$(jqr "$j" '[.probes.missing[] | select(.reason != "absent") | "\(.name) (\(.reason): \(.error))"] | join(", ")')
check "no probe failed to load or attach${bad:+: $bad}" test -z "$bad"
a=$TMPROOT/attach.json
$IOWHY attach -p $$ --slow 100 --duration 0.3 --json "$a" >/dev/null 2>&1
bad=$(jqr "$a" '[.probes.missing[] | select(.reason != "absent") | "\(.name) (\(.reason): \(.error))"] | join(", ")')
check "attach --slow: no probe failed to load or attach${bad:+: $bad}" test -z "$bad"
