# exclusive: times traced runs against untraced ones
# The report says when tracing slowed the workload down: a calibration at start gives the cost of
# one traced event on this host, and when a phase's events x that cost reach 5% of its wall, an
# honesty line says so with the estimate. A dense syscall loop (1M getppid, ~2M events) must get it;
# gen loop 100 (a few hundred events per file, milliseconds apart) must not. The dense loop runs
# under SCHED_FIFO, iowhy too (the workload inherits it), so that other load cannot stretch its
# wall (it needs a CPU, not a share of one) nor starve the consumer.
# Witness, the test's own: what tracing cost this host per event, measured on the same loop run
# untraced before and after the traced run (calib witness around each: calib getppid's own CPU,
# getrusage, an exact total): (traced - mean untraced) / (2 events per call). The two untraced
# runs' difference is the measurement's own noise (the host's speed drifts). The warning is
# demanded where that cost puts the loop at 5% of its wall or more (observed 21-38%), and for fio
# where its events at that cost reach 6% (observed 5.4-9.8%; under 4%, with the programs under
# 4.5%, it must not appear; in between either), where it was demanded on every host; the
# calibrated cost iowhy states is held to the measured one (was: any cost in 0-100 us).
# Observed and tolerances: at the checks.
need_root
command -v chrt >/dev/null || skip "needs chrt (util-linux)"
command -v fio >/dev/null || skip "needs fio (tests/install-deps.sh installs it)"
warn_re='^WARNING: tracing slowed run down by '
N=1000000

# The host's cost per traced event, measured by the test (ns; sets per_ev, and noise_ev: the two
# untraced runs' difference per event)
chrt -f 10 "$CALIB" witness "$TMPROOT/u1.w" -- "$CALIB" getppid $N || fail "untraced getppid exited $?"
chrt -f 10 $IOWHY run --json "$TMPROOT/d.json" -o "$TMPROOT/d.txt" -- \
	"$CALIB" witness "$TMPROOT/d.w" -- "$CALIB" getppid $N || fail "iowhy run exited $?"
chrt -f 10 "$CALIB" witness "$TMPROOT/u2.w" -- "$CALIB" getppid $N || fail "untraced getppid exited $?"
u1=$(wit "$TMPROOT/u1.w" children_cpu_ns) u2=$(wit "$TMPROOT/u2.w" children_cpu_ns)
t=$(wit "$TMPROOT/d.w" children_cpu_ns)
per_ev=$(awk -v t="$t" -v a="$u1" -v b="$u2" -v n="$N" 'BEGIN { printf "%.1f", (t - (a + b) / 2) / (2 * n) }')
noise_ev=$(awk -v a="$u1" -v b="$u2" -v n="$N" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.1f", d / (2 * n) }')
slow=$(awk -v t="$t" -v a="$u1" -v b="$u2" 'BEGIN { printf "%.0f", t - (a + b) / 2 }')
wall=$(jqr "$TMPROOT/d.json" .phases[0].wall_ns)
echo "  the loop's own CPU: untraced $u1 and $u2 ns, traced $t ns: $per_ev ns per event" \
	"(+- $noise_ev, the untraced runs' difference); tracing took $slow ns of the traced wall $wall ns"

# Dense: the warning, with this run's event count and a cost that is events x the per-event cost.
line=$(grep -E "$warn_re" "$TMPROOT/d.txt")
if fcmp "$slow >= 0.05 * $wall && $slow >= 1e7"; then
	check "getppid $N: tracing took $slow ns, >= 5% of the wall: the tracing-cost warning appears ($line)" test -n "$line"
else
	check "getppid $N: tracing took $slow ns, < 5% of the wall $wall ns: no tracing-cost warning from events" \
		test -z "$(grep -E "$warn_re" "$TMPROOT/d.txt" | grep 'calibrated at start')"
fi
ev=$(jqr "$TMPROOT/d.json" .phases[0].trace.events)
lost=$(jqr "$TMPROOT/d.json" '.events | {lost, late, storage_failed}' -c)
check "the run's >= $((2 * N)) events (2 per getppid) are all there ($ev; $lost)" fcmp "$ev >= 2 * $N"
if [ -n "$line" ]; then
	wev=$(echo "$line" | sed -E 's/.*least: ([0-9,]+) events.*/\1/' | tr -d ,)
	check "its event count is the run's ($wev vs $ev)" test "$wev" = "$ev"
	pct=$(echo "$line" | sed -E 's/.*, ([0-9]+)% of its.*/\1/')
	check "it says >= 5% of the wall ($pct%)" fcmp "$pct >= 5"
	check "the estimate is stated in the header, before the tables" \
		test "$(grep -nE "$warn_re" "$TMPROOT/d.txt" | cut -d: -f1)" -lt 6
	# iowhy's calibration (2,000 null syscalls before and after its probes attach, the fastest of
	# 5 batches) against the test's measurement of the same thing on 1M calls (2M before). Observed (8 runs,
	# 3 beside two spinners): iowhy's 0.68-1.29 x the test's (136 vs 199, 327 vs 253 ns), the
	# test's noise 23-153 ns; tolerance a factor of 2 either way (the worst ratio's distance from
	# 1, in log, about twice over), and 3 x the measurement's own noise
	per=$(echo "$line" | sed -nE 's/.* at ~([0-9]+) ns each.*/\1/p')
	echo "  iowhy's calibrated cost: ${per:-none} ns per event (the test's: $per_ev +- $noise_ev ns)"
	if fcmp "$per_ev > 3 * $noise_ev"; then
		check "a per-event cost was calibrated where the test measured $per_ev +- $noise_ev ns (~${per:-none} ns)" \
			is_num "${per:-none}"
	else
		skip_part "the test's own per-event cost $per_ev ns is within its noise $noise_ev ns"
	fi
	if is_num "${per:-none}"; then
		check "the calibrated cost ~$per ns agrees with the test's $per_ev ns (a factor of 2, and 3 x its noise $noise_ev ns)" \
			fcmp "$per >= $per_ev / 2 - 3 * $noise_ev && $per <= 2 * $per_ev + 3 * $noise_ev"
	fi
fi

# Sparse: no warning; the run still has events.
# I/O at a high rate: few events (a syscall pair and a switch or two per read), but every read
# runs the block, scheduler and off-CPU programs too: the programs' own run time (kernel BPF
# statistics, sampled) must carry the warning; its witness is the JSON's programs_* counters.
F=$TMPROOT/fio.dat
dd if=/dev/zero of="$F" bs=1M count=64 status=none
# (under SCHED_FIFO too: beside two spinners fio got so little CPU that its programs' share fell
# to 6%, near the line; its threads sleep on every read, so they do not hold the CPUs)
chrt -f 10 $IOWHY run --json "$TMPROOT/f.json" -o "$TMPROOT/f.txt" -- fio --name=rr --filename="$F" \
	--rw=randread --bs=4k --direct=1 --ioengine=psync --numjobs=16 --thread --size=64M \
	--runtime=2 --time_based --group_reporting --output=/dev/null ||
	fail "iowhy run fio exited $?"
fl=$(grep -E "$warn_re" "$TMPROOT/f.txt")
pr=$(jqr "$TMPROOT/f.json" .phases[0].trace.programs_run_ns)
on=$(jqr "$TMPROOT/f.json" .phases[0].trace.programs_stats_on_ns)
runs=$(jqr "$TMPROOT/f.json" .phases[0].trace.programs_runs)
wall=$(jqr "$TMPROOT/f.json" .phases[0].wall_ns)
fev=$(jqr "$TMPROOT/f.json" .phases[0].trace.events)
# what its events cost at the test's own per-event cost, against 5% of its wall (iowhy's line);
# the programs' run time (kernel BPF statistics) may carry the warning too
fpct=$(awk -v e="$fev" -v c="$per_ev" -v w="$wall" 'BEGIN { printf "%.1f", 100 * e * c / w }')
gpct=$(awk -v p="$pr" -v o="$on" 'BEGIN { printf "%.1f", (o > 0 ? 100 * p / o : 0) }')
echo "  fio 16 jobs: $fev events at the test's $per_ev ns: $fpct% of its wall; the programs ran $gpct% of the time statistics were on"
if fcmp "$fpct >= 6"; then
	check "fio 16 jobs: its events cost $fpct% of the wall at this host's cost: the tracing-cost warning appears ($fl)" \
		test -n "$fl"
elif fcmp "$fpct < 4 && $gpct < 4.5"; then
	check "fio 16 jobs: its events ($fpct%) and programs ($gpct%) under 5% of the wall: no warning ($fl)" test -z "$fl"
else
	echo "  fio 16 jobs: near the line ($fpct%, $gpct%): the warning may or may not appear ($fl)"
fi
if [ -n "$fl" ] && fcmp "$gpct >= 4.5"; then
	check "fio 16 jobs: it names the programs' run time" grep -q "BPF programs ran" <<<"$fl"
elif [ -n "$fl" ]; then
	skip_part "fio 16 jobs: the programs ran $gpct% of the time (under 5%): the warning need not name them"
fi
check "fio 16 jobs: statistics were on for part of the phase ($on of $wall ns)" \
	fcmp "$on > 0 && $on < 0.5 * $wall"
check "fio 16 jobs: programs ran while on ($runs runs, $pr ns)" fcmp "$runs > 1000 && $pr > 0"
# each switch of the statistics patches kernel text on every CPU: 50 ms windows at 0, 0.5 and
# 1.5 s, then 3.5 s (waits doubling: 3 in a 2.3 s phase), not one every 0.5 s (5 in it)
nw=$(jqr "$TMPROOT/f.json" .phases[0].trace.programs_stats_windows)
want=$(awk -v w="$wall" 'BEGIN { n = 0; t = 0; p = 0.5; while (t * 1e9 < w) { n++; t += p;
	p = (p * 2 < 4 ? p * 2 : 4) } print n }')
check "fio 16 jobs: statistics switched on $nw times in its $wall ns, by the doubling waits ($want)" \
	fcmp "$nw >= 1 && $nw <= $want"
tc=$(jqr "$TMPROOT/f.json" .phases[0].trace.tracer_cpu_ns)
check "fio 16 jobs: iowhy's own CPU over the phase is known and below 2 CPUs' worth ($tc ns)" \
	fcmp "$tc > 0 && $tc < 2 * $(nproc) * $wall"
if [ -n "$fl" ]; then
	check "fio 16 jobs: the warning states it" grep -q "iowhy itself used" <<<"$fl"
fi
# runs the kernel skipped (a program's tracepoint hit while it already ran on that CPU: completions
# in interrupts): counted, and warned about exactly when there are some
ms=$(jqr "$TMPROOT/f.json" .phases[0].trace.programs_missed_runs)
echo "  fio 16 jobs: runs of iowhy's programs the kernel skipped: $ms"
check "fio 16 jobs: skipped runs are a count ($ms)" test "$ms" -ge 0
check "fio 16 jobs: a skipped-runs warning if and only if there were some" \
	test "$(grep -c "the kernel skipped" "$TMPROOT/f.txt")" = "$([ "$ms" -gt 0 ] && echo 1 || echo 0)"
if [ -n "$fl" ]; then
	pct=$(echo "$fl" | sed -E 's/.*, ([0-9]+)% of its.*/\1/')
	check "fio 16 jobs: the stated share is the programs' scaled time ($pct%)" \
		fcmp "$pct >= 5 && $pct + 1 >= 100 * $pr * $wall / $on / $wall"
else
	skip_part "fio 16 jobs: no warning, so no stated share"
fi
# Off-CPU stacks at this rate: 16 threads in short D sleeps (tens of thousands a second) would take
# a stack walk per millisecond of each one's D time; each CPU walks at most 4 per sampling period
# on average (64 saved up), and every sleep is still timed: the stacked and the held D time
# together hold the tree's I/O wait, and at most its I/O and run-queue waits.
o='.phases[0].offcpu'
walks=$(jqr "$TMPROOT/f.json" "$o.stack_walks")
osl=$(jqr "$TMPROOT/f.json" "$o.sleeps")
hz=$(jqr "$TMPROOT/f.json" .phases[0].cpu_samples.hz)
ncpu=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }' \
	/sys/devices/system/cpu/possible)
check "fio 16 jobs: off-CPU stacks walked within the CPUs' budget ($walks walks, $osl sleeps, $ncpu CPUs at $hz Hz, $wall ns)" \
	fcmp "$walks >= 1 && $walks <= $ncpu * ($wall / 1e9 * 4 * $hz + 64)"
check "fio 16 jobs: far fewer walks than sleeps ($walks, $osl)" fcmp "$osl >= 4 * $walks"
od=$(jqr "$TMPROOT/f.json" "$o.ns + $o.unsampled_ns")
fiow=$(jqr "$TMPROOT/f.json" '[.phases[0].comms[] | .iowait_ns] | add')
fw=$(jqr "$TMPROOT/f.json" '[.phases[0].comms[] | .iowait_ns + .runq_ns] | add')
check "fio 16 jobs: the D sleeps ($od ns, stacked and held) hold the tree's I/O wait ($fiow ns)" \
	fcmp "$od >= 0.9 * $fiow"
check "fio 16 jobs: and at most its I/O and run-queue waits ($fw ns)" fcmp "$od <= 1.02 * $fw + 5000000"
rm -f "$F"

# (100 files, not 300: the same events per file and programs' share, in a third of the time)
$IOWHY gen --strategy loop --size 1k --count 100 --dir "$TMPROOT" --json "$TMPROOT/g.json" \
	-o "$TMPROOT/g.txt" || fail "iowhy gen exited $?"
# gen loop's programs run ~3-5% of its wall on a loaded 2-CPU VM (bench: +4.6% B/A on a quiet one):
# near the line by nature. The events estimate must stay under it; the programs' must be stated
# exactly when the JSON's counters put them at 5% or more (the warning follows the measurement).
gl=$(grep 'tracing slowed' "$TMPROOT/g.txt")
gpr=$(jqr "$TMPROOT/g.json" .phases[0].trace.programs_run_ns)
gon=$(jqr "$TMPROOT/g.json" .phases[0].trace.programs_stats_on_ns)
gw=$(jqr "$TMPROOT/g.json" .phases[0].wall_ns)
gshare=$(awk -v p="$gpr" -v o="$gon" 'BEGIN { printf "%.1f", (o > 0 ? 100 * p / o : 0) }')
echo "  gen loop 100: the programs ran ${gshare}% of the time statistics were on"
if [ -z "$gl" ]; then
	check "gen loop 100: no tracing-cost warning, the programs under 5% (${gshare}%)" \
		fcmp "$gshare < 5.5"
else
	check "gen loop 100: a warning only from the programs' measured time ($gshare%): $gl" \
		fcmp "$gshare >= 4.5"
	check "gen loop 100: not from its events" grep -q "BPF programs ran" <<<"$gl"
fi
check "gen loop 100: wall known ($gw ns)" fcmp "$gw > 0"
check "gen loop 100: events were traced ($(jqr "$TMPROOT/g.json" .phases[0].trace.events))" \
	fcmp "$(jqr "$TMPROOT/g.json" .phases[0].trace.events) > 1000"
