# exclusive: perf record -a: its witness samples every process on the machine, by name
# 1,000,000 getppid calls: counted exactly, and the kernel share of the tree's CPU (measured inside
# syscalls, plus the sampled kernel time outside them: entry/exit path, faults, interrupts) agrees
# with perf's own cpu-clock samples of the same run (lib_perf.sh: perf record -a, the samples of
# this test's calib processes split by the sample's ip), whether syscalls are cheap on this host
# or dear (PVM, pti: most of a null syscall is the entry/exit path the tracepoints miss). The
# syscall's own kernel code shows up by name among the top kernel functions.
# iowhy at 999 Hz (not the default 99): the check is of the estimate, whose error shrinks with its
# samples; perf at 1999 Hz (its own timers, not in step with iowhy's).
# The workload runs under `calib witness` (the test's own getrusage and task-clock of it) for
# check_phase_invariants' CPU checks.
#
# witness: calib's known count (1,000,000 getppid); tolerance: exact; observed: exact
# witness: perf's cpu-clock samples of the test's calib processes (perf record -a -F 1999, by
#   the test's own classification of each sample's ip: lib_perf.sh), kernel / all, against
#   iowhy's cpu_samples.kernel_share; tolerance: 0.08 either way (2.4x the worst seen; the
#   combined standard error of ~3,000 and ~1,500 samples is ~0.015); observed: iowhy - perf
#   -0.034 to +0.001 at perf's 0.66-0.69 in 10 runs (5 beside two spinners): iowhy's under
#   perf's by 0.015 on average
# witness: behaviour: >= 100 samples, getppid's kernel code among its top kernel functions;
#   tolerance: exact; observed: not recorded
# witness: calib witness (getrusage, task-clock, run-queue wait of the run): check_phase_invariants
#   (lib.sh, its tolerances there); observed: not recorded
need_root
source tests/integration/lib_perf.sh
j=$TMPROOT/r.json w=$TMPROOT/witness p=$TMPROOT/perf.data
perf_samples_start "$p" 1999 || skip "$PERF_WHY"
$IOWHY run --no-io --freq 999 --json "$j" -- "$CALIB" witness "$w" -- "$CALIB" getppid 1000000 \
	>/dev/null || fail "iowhy run exited $?"
perf_samples_stop
n=$(sys_count "$j" 0 getppid)
check "getppid count is exactly 1000000 (got $n)" test "$n" = 1000000
share=$(jqr "$j" ".phases[0].cpu_samples.kernel_share")
samples=$(jqr "$j" ".phases[0].cpu_samples.samples")
check "CPU samples were taken ($samples)" fcmp "$samples >= 100"
pk=$(perf_kshare "$p" '^calib$')
echo "  kernel share: iowhy $share, perf's samples $pk; getrusage's tick split" \
	"$(awk -v u="$(wit "$w" children_user_ns)" -v s="$(wit "$w" children_sys_ns)" 'BEGIN { printf "%.4f", s / (u + s) }')"
check "kernel share $share within 0.08 of perf's samples' $pk" fcmp "abs($share - $pk) <= 0.08"
names=$(jqr "$j" '[.phases[0].cpu_samples.by_syscall[] | select(.name == "getppid") | .top_kernel[].name] | join(" ")')
check "getppid's kernel code is among its top kernel functions ($names)" \
	grep -qE '(^| )(__x64_sys_getppid|__ia32_sys_getppid|__do_sys_getppid|__task_pid_nr_ns|task_tgid_vnr)( |$)' <<<"$names"
check_phase_invariants "$j" 0 0 "$w"
