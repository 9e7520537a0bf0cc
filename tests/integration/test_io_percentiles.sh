# Latency percentiles against fio's own, in the same run: 4 KiB O_DIRECT random reads, one at a
# time (psync), on a file of a loop-device ext4 (its device rows then hold fio's reads only, not
# the loading of programs). fio times each pread from user space (clat); the
# syscall inside it is what iowhy times, so fio's clat = iowhy's pread + a per-call cost outside the
# syscall (clock reads, libc, the entry and exit path), measured here as the difference of the means.
# p50, p90 and p99 of pread64 must be at most 5% above fio's clat percentiles and at least fio's next
# lower listed percentile less 5% and twice that cost (log-linear buckets: both within 1.6%), and
# the device time of the same reads never above the syscall's.
# iowhy and fio run at nice -20 so that other work on a busy host seldom preempts fio between its
# clock reads and the syscall (time in fio's clat that is in no syscall), nor starves iowhy's reader.
# (Under load the traced CPU can be 10-20% off getrusage's: the scheduler charges a woken task
# from its wakeup; task-clock is the tight witness, docs/ACCURACY.md.)
#
# witness: fio's own JSON (read.total_ios); tolerance: pread64 calls between fio's reads and 16
#   more; observed: not recorded
# witness: fio's own JSON (clat percentiles and mean, timed by fio around each pread); tolerance:
#   pread64's p50/p90/p99 <= 105% of fio's, >= 95% of fio's next lower listed percentile less
#   twice the mean cost outside the syscall; the cost >= -1% of pread64's mean; observed: fio's
#   p90 3.3 us (once 16 us) above pread64's where the means differed by 2.0 us, beside spinners
# witness: calib witness between iowhy and fio: perf's task-clock of fio's tree, getrusage, its own
#   CPU, run-queue wait, elapsed time, steal. Not passed to check_phase_invariants: lib.sh's
#   check_cpu_witness holds the tree's CPU to getrusage within 8% of the run-queue wait of the
#   processes the witness reaped, and it reaps only fio's main process; fio's job process, which
#   does the reads, is reaped by fio, and where the scheduler's account (getrusage) and the
#   switch-to-switch time part is in that job's run-queue wait, which the test does not know
#   (docs/ACCURACY.md: fio's task-clock 0.81-1.02 x its getrusage beside spinners without iowhy).
#   That check failed in 4 of 4 runs (traced - getrusage -85, -71, -41, +118 ms); a bound of 8% of
#   the known wait plus the whole elapsed time (which bounds the job's) came within 1.5x of it
#   (-233 ms against 340 ms, task-clock 0.63 x getrusage on a machine loaded by other runs).
#   So getrusage is only printed, and the checks against the witness are:
#   - the tree's CPU >= 0.995 x (task-clock + the witness's own CPU since its main): lib.sh's
#     lower bound (task-clock ends a task's count at its exit hook, inside the traced stints);
#     observed: +10.9 to +53.4 ms above it (7 runs, 2 beside two CPU spinners; getrusage -190 to
#     +36 ms off the tree's CPU in the same runs)
#   - the wall >= the witness's elapsed time (a bound); observed: 6.8-22.3 ms more (7 runs)
# witness: none independent (iowhy against itself): the device percentiles of the tree's reads
#   <= pread64's; observed: not recorded
need_root
command -v fio >/dev/null || skip "fio not installed"
source tests/integration/lib_dev.sh
make_loop_ext4 128
f=$MNT/data
dd if=/dev/urandom of="$f" bs=1M count=64 conv=fsync status=none || skip "cannot write $f"
J=$TMPROOT/r.json F=$TMPROOT/fio.json WF=$TMPROOT/witness
nice -n -20 "$IOWHY" run --json "$J" -- "$CALIB" witness "$WF" -- fio --name=r --filename="$f" --size=64M --direct=1 \
	--ioengine=psync --rw=randread --bs=4k --runtime=3 --time_based --output-format=json \
	--output="$F" >"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
n=$(jqr "$F" '.jobs[0].read.total_ios' -r)
calls=$(sys_count "$J" 0 pread64)
check "pread64 calls $calls = fio's reads $n (+ at most 16 of its own)" fcmp "$calls >= $n && $calls <= $n + 16"
sys() { jqr "$J" "[.phases[0].syscalls[] | select(.name == \"pread64\") | .$1] | first // 0"; }
clat() { jq -r ".jobs[0].read.clat_ns.percentile[\"$1\"] // 0" "$F"; }
cost=$(awk -v a="$(jqr "$F" '.jobs[0].read.clat_ns.mean' -r)" -v b="$(sys avg_ns)" 'BEGIN { printf "%.0f", a - b }')
echo "  per-call cost outside the syscall (fio clat mean - pread64 mean): $cost ns"
check "the cost is not negative beyond 1% (the syscall is inside fio's clat): $cost ns" \
	fcmp "$cost >= -0.01 * $(sys avg_ns)"
# pread64's pX is inside fio's: each call's clat holds its pread, so pread64's pX is at most 5%
# above fio's pX (the buckets). From below, the time outside the syscall is known only as a mean,
# and it is skewed: on a busy host some calls are preempted between fio's clock read and the
# syscall (beside two spinners fio's p90 was 3.3 us, once 16 us, above pread64's where the means
# differed by 2.0 us: soak runs, 2026-12-01). A preemption moves a call up fio's ranks only: so
# pread64's pX is at least fio's at the next lower percentile fio lists (p40, p80, p95: up to a
# tenth of the calls so delayed), less 5% and twice the mean cost.
lower() { case $1 in 50) echo 40.000000 ;; 90) echo 80.000000 ;; 99) echo 95.000000 ;; esac; }
for p in 50 90 99; do
	lp=$(lower "$p")
	ours=$(sys p${p}_ns) theirs=$(clat "$p.000000") below=$(clat "$lp")
	check "p$p: pread64 $ours ns at most 5% above fio clat $theirs ns, at least fio's p${lp%%.*} $below ns less 5% and twice the cost $cost ns" \
		fcmp "$ours <= 1.05 * $theirs && $ours >= 0.95 * $below - 2 * ($cost > 0 ? $cost : 0)"
done
# the device rows of the tree's reads on the loop device: fio's reads
dev=$(jqr "$J" "[.phases[0].io.requests[] | select(.name == \"$LOOPNAME\" and .class == \"tree\" and .op == \"read\")] | max_by(.requests) | .device_ns")
for p in 50 90 99; do
	d=$(jq -r ".p$p" <<<"$dev") s=$(sys p${p}_ns)
	check "p$p: device $d ns <= pread64 $s ns" fcmp "$d > 0 && $d <= $s"
done
check_phase_invariants "$J" 0
# the tree's CPU against the witness (above: why not check_cpu_witness)
tree=$(jqr "$J" '.phases[0].cpu_check.tree_cpu_ns') wall=$(jqr "$J" '.phases[0].wall_ns')
wr=$(wit "$WF" cpu_ns) tcl=$(wit "$WF" task_clock_ns) self=$(wit "$WF" self_cpu_ns)
self0=$(wit "$WF" self_start_cpu_ns) el=$(wit "$WF" elapsed_ns) st=$(wit_steal "$WF")
rd=$(( $(wit "$WF" reaped_run_delay_ns) + $(wit "$WF" self_run_delay_ns) ))
echo "  witness: getrusage $wr ns, task-clock $tcl ns, own CPU $self ns ($self0 before its main)," \
	"run-queue wait $rd ns (reaped: $(wit "$WF" reaped)), elapsed $el ns, steal <= $st ns; traced CPU $tree ns" \
	"($(awk -v t="$tree" -v w="$wr" 'BEGIN { printf "%+.1f ms", (t - w) / 1e6 }') of getrusage," \
	"$(awk -v t="$tree" -v c="$tcl" -v s="$self" -v s0="$self0" 'BEGIN { printf "%+.1f ms", (t - c - s + s0) / 1e6 }') of task-clock + own CPU since main)"
check "tree CPU $tree ns >= 0.995 x (the witness's task-clock $tcl ns + its own CPU $self ns since its main)" \
	fcmp "$tcl > 0 && $tree >= 0.995 * ($tcl + $self - $self0)"
check "wall $wall ns >= the witness's elapsed $el ns" fcmp "$wall >= $el"
