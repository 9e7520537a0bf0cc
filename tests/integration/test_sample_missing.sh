# The CPU sampler and the off-CPU probe are optional: when they cannot run (simulated with
# IOWHY_SKIP_PROBES) the run goes on with the tracepoints alone, lists them as missing probes and
# has no cpu_samples / offcpu in its JSON. With both present the JSON has both.
#
# witness: behaviour: cpu_samples and offcpu present by default; with perf:cpu-clock or
#   offcpu:sched_switch skipped the run exits 0, lists it missing and leaves its JSON out;
#   --no-sample: neither, nothing missing; tolerance: exact; observed: not recorded
# witness: calib witness (getrusage, task-clock, run-queue wait of the run without the sampler):
#   check_phase_invariants (lib.sh, its tolerances there); observed: tree - getrusage +1.0% to
#   +3.9% (of 20-25 ms) in 5 runs, 2 beside two spinners
need_root
j=$TMPROOT/r.json w=$TMPROOT/witness
$IOWHY run --no-io --json "$j" -- "$CALIB" getppid 5000 >/dev/null 2>&1
check "by default: cpu_samples present" test "$(jqr "$j" '.phases[0] | has("cpu_samples")')" = true
check "by default: offcpu present" test "$(jqr "$j" '.phases[0] | has("offcpu")')" = true
IOWHY_SKIP_PROBES=perf:cpu-clock $IOWHY run --no-io --json "$j" -- \
	"$CALIB" witness "$w" -- "$CALIB" getppid 5000 >"$TMPROOT/out" 2>&1; rc=$?
check "without the sampler: exit 0 (got $rc)" test "$rc" = 0
check "perf:cpu-clock listed as missing" test "$(jqr "$j" '.missing_probes | index("perf:cpu-clock") != null')" = true
check "no cpu_samples in the JSON" test "$(jqr "$j" '.phases[0] | has("cpu_samples") or has("offcpu")')" = false
check "the text report names it" grep -q "perf:cpu-clock" "$TMPROOT/out"
check_phase_invariants "$j" 0 0 "$w"
IOWHY_SKIP_PROBES=offcpu:sched_switch $IOWHY run --no-io --json "$j" -- "$CALIB" getppid 5000 \
	>/dev/null 2>&1; rc=$?
check "without the off-CPU probe: exit 0 (got $rc)" test "$rc" = 0
check "offcpu:sched_switch listed as missing" test "$(jqr "$j" '.missing_probes | index("offcpu:sched_switch") != null')" = true
check "samples still there, offcpu not" test "$(jqr "$j" '.phases[0] | has("cpu_samples") and (has("offcpu") | not)')" = true
$IOWHY run --no-io --no-sample --json "$j" -- true >/dev/null 2>&1
check "--no-sample: neither, and nothing missing" test "$(jqr "$j" '(.phases[0] | has("cpu_samples") or has("offcpu")) or (.missing_probes | length > 0)')" = false
