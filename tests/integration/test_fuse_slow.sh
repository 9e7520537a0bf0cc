# A FUSE daemon that sleeps 20 ms before answering each WRITE (tests/fuse_slow.c): dd waits on FUSE
# WRITE at least 64 x 20 ms, the rest of its run (by the test's own witness of it, calib witness)
# is CPU and run-queue wait, the per-request p50 is 20-40 ms, and the daemon's block shows
# the sleeps as other wait while the workload waited. Per request: the daemon thread that read
# each request answers it, so >= 90% of the requests are charged per request, each WRITE with
# its 20 ms sleep as other wait, and no request is charged more than its own latency; dd, the
# process that sent them, carries the same charge.
#
# witness: the set-up: dd's 64 records of 128 KiB, fuse_slow's 20 ms sleep before each WRITE's
#   reply; tolerance: 64 WRITE requests (exact), p50 20-40 ms, the daemon's other wait >= 64 x
#   20 ms, each paired WRITE's daemon time >= 20 ms (>= 90% of it other wait); observed: 2.3 ms
#   of 64 x 20 ms was run-queue wait in a loaded run
# witness: calib witness (between iowhy and dd: getrusage, task-clock, run-queue wait of dd):
#   check_phase_invariants (lib.sh, its tolerances there; buckets = wall, unattributed < 2%,
#   shares); observed: tree - the witness's getrusage -4.0% to +0.9% of 24-39 ms in 9 runs (2
#   beside two spinners) (was: against getrusage as iowhy read it, 13-37% below before hidden
#   switch-ins were dated, 25.7 against 30.8 ms in a loaded run)
# witness: the daemon's own CPU, the sum of /proc/DPID/task/*/schedstat's on-CPU time read by the
#   test before and after the run (a thread gone in between would take its time with it: then a
#   skipped part), against iowhy's daemon CPU in the window (the daemon idles outside it: a read
#   of it from the workload, just before and after dd, saw all of it during dd); tolerance: at
#   most 125% + 2 ms of it (bindfs's was up to 7.2% over), at least 40% - 2 ms; observed: 73-93%
#   of it (1.1-7.3 ms short of 12-25 ms) in 12 runs, 2 beside two spinners (with FUSE_SLOW_MS=0,
#   4-5 ms of CPU: 89-92%): KNOWN BUG while under 90% - 1 ms (a skipped part): iowhy misses part
#   of the daemon's CPU around its 20 ms sleeps
# witness: the set-up (64 x 20 ms) and calib witness's elapsed time, CPU and run-queue wait of dd:
#   the FUSE WRITE wait (and wall_fuse_waits) >= 64 x 20 ms; elapsed - the wait <= CPU + run-queue
#   wait + 5 ms (dd's other requests wait for a daemon thread to be woken); tolerance: bounds;
#   observed: the wait 1.31-2.96 s; elapsed - wait 11-474 ms under CPU + run-queue wait in 6 runs,
#   3 beside two spinners (was: the wait >= 90% of the wall: 89.4% and 88.7% beside spinners)
# witness: none independent (iowhy against itself): the wait <= wall_ns, the wall view's sub-row
#   = wall_fuse_waits' share, >= 90% paired, daemon time <= latency, processes' charges = the
#   rows'; observed: not recorded
need_root
source tests/integration/lib_fuse.sh
SLOW=${OUT:-build}/fuse_slow
[ -x "$SLOW" ] || make -s "$SLOW" >/dev/null 2>&1 || skip "cannot build $SLOW (libfuse3-dev)"
J=$TMPROOT/r.json W=$TMPROOT/witness
N=64
mkdir -p "$TMPROOT/mnt"
FUSE_SLOW_MS=20 "$SLOW" -f "$TMPROOT/mnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { fail "fuse_slow mounted"; finish; }
# dcpu PID: the sum of its threads' on-CPU time (schedstat, ns); dtids PID: its threads
dcpu() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
dtids() { ls /proc/"$1"/task 2>/dev/null | sort -n | tr '\n' ' '; }
t0=$(dtids "$DPID") c0=$(dcpu "$DPID")
"$IOWHY" run -v --json "$J" -- "$CALIB" witness "$W" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=128k count=$N \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
c1=$(dcpu "$DPID") t1=$(dtids "$DPID")
# dd's CPU (15-25 ms) against the witness's getrusage and task-clock (it once came out 13-37%
# below getrusage under load, from switch-ins the kernel made without its tracepoint, now dated:
# events.hidden_switches)
check_phase_invariants "$J" 0 0 "$W"
wall=$(jqr "$J" '.phases[0].wall_ns')
dss=$((c1 - c0)) dic=$(fuse_daemon "$J" "$DPID" window_ns.cpu)
echo "  daemon CPU: iowhy's in the window ${dic:-none} ns, its threads' schedstat over the run" \
	"$dss ns (threads $t0-> $t1)"
# (threads that came in between count from their start; one that went would take its time along)
gone=$(comm -23 <(tr ' ' '\n' <<<"$t0" | sed '/^$/d' | sort) <(tr ' ' '\n' <<<"$t1" | sed '/^$/d' | sort) | tr '\n' ' ')
if [ -z "$gone" ]; then
	check "iowhy's daemon CPU ${dic:-none} ns at most 125% + 2 ms of its threads' schedstat $dss ns" \
		fcmp "${dic:-0} <= 1.25 * $dss + 2e6"
	check "... and at least 40% - 2 ms of it" fcmp "${dic:-0} >= 0.4 * $dss - 2e6"
	if fcmp "${dic:-0} < 0.9 * $dss - 1e6"; then
		skip_part "KNOWN BUG: the daemon's CPU in the window ${dic:-0} ns is under its threads' schedstat $dss ns by more than 10% + 1 ms (its sleeps' on-CPU time?)"
	else
		pass "iowhy's daemon CPU ${dic:-0} ns at least 90% - 1 ms of its threads' schedstat $dss ns"
	fi
else
	skip_part "daemon CPU against schedstat: thread(s) $gone ended during the run"
fi
wait=$(fuse_row "$J" wait_ns WRITE)
wreq=$(fuse_row "$J" requests WRITE)
p50=$(fuse_row "$J" p50_ns WRITE)
other=$(fuse_daemon "$J" "$DPID" while_waited_ns.other_wait)
echo "  wall $wall ns; waiting on FUSE WRITE $wait ns in $wreq requests; p50 $p50 ns;" \
	"daemon other wait while waited on $other ns"
check "one WRITE request per 128 KiB dd record ($N)" test "$wreq" = "$N"
# (not a share of the wall: on a busy machine the start-up and each wake-up also wait for a CPU)
check "dd waited on FUSE WRITE at least the daemon's $N sleeps of 20 ms ($wait ns)" \
	fcmp "$wait >= $N * 20000000"
check "the wait is no more than the wall" fcmp "$wait <= $wall"
el=$(wit "$W" elapsed_ns) wc=$(wit "$W" cpu_ns)
wrd=$(( $(wit "$W" reaped_run_delay_ns) + $(wit "$W" self_run_delay_ns) ))
echo "  the witness's run $el ns: FUSE WRITE wait $wait ns, CPU $wc ns, run-queue wait $wrd ns;" \
	"the rest $((el - wait - wc - wrd)) ns"
# the rest of the witness's run is dd's and the witness's CPU and run-queue wait, and dd's waits
# on its other requests (LOOKUP, CREATE, FLUSH, RELEASE: answered at once, but by a daemon thread
# that has to be woken)
check "the rest of the witness's run ($el - $wait ns) is CPU ($wc ns) and run-queue wait ($wrd ns), + 5 ms" \
	fcmp "$el - $wait <= $wc + $wrd + 5e6"
check "per-request p50 between 20 and 40 ms" fcmp "$p50 >= 20000000 && $p50 <= 40000000"
check "the daemon is identified by its pid" test -n "$other"
# the daemon's own imposed sleep, N x 20 ms, shows as its other wait while dd waited
check "the daemon's sleeps are its other wait (>= $N x 20 ms)" fcmp "${other:-0} >= $N * 20000000"
check "... and no more than the daemon threads' time in the window" \
	fcmp "${other:-0} <= $(fuse_daemon "$J" "$DPID" window_ns.other_wait)"
check "the text report names the wait" grep -q "waiting on FUSE ($TMPROOT/mnt, WRITE)" \
	"$TMPROOT/out.txt"
# the wall view: a sub-row of other wait (or I/O wait) naming the mount and WRITE; the JSON has the
# same part, at least the daemon's sleeps
row=$(awk -v m="    waiting on FUSE ($TMPROOT/mnt, WRITE) " '
	/^  [a-zA-Z]/ { under = $0 ~ /^  (other wait|I\/O wait) / }
	under && index($0, m) == 1 { print $NF; exit }' "$TMPROOT/out.txt")
echo "  wall view sub-row: waiting on FUSE ($TMPROOT/mnt, WRITE) ${row:-none}"
check "the wall view has a waiting-on-FUSE WRITE sub-row under a wait row" test -n "$row"
jw=$(jqr "$J" '[.phases[0].wall_fuse_waits[] | select(.opcode == "WRITE") | .ns] | add // 0')
check "JSON wall_fuse_waits: WRITE at least the daemon's $N sleeps of 20 ms ($jw ns)" \
	fcmp "$jw >= $N * 20000000"
check "... the text's sub-row its share of the wall ($row; $jw of $wall ns, to the printed 0.1%)" \
	fcmp "abs(${row%\%} - 100 * $jw / $wall) <= 0.051"
check "... and its parts no more than their buckets" test "$(jqr "$J" '.phases[0] |
	([.wall_fuse_waits[] | select(.in == "other") | .ns] | add // 0) <= .wall.other_ns and
	([.wall_fuse_waits[] | select(.in == "iowait") | .ns] | add // 0) <= .wall.iowait_ns')" = true
c=".phases[0].fuse.daemons[] | select(.pid == $DPID) | .charge"
paired=$(jqr "$J" "$c.per_request")
answered=$(jqr "$J" "$c.requests")
wpaired=$(fuse_row "$J" daemon_per_request WRITE)
wother=$(fuse_row "$J" daemon_ns.other_wait WRITE)
wbusy=$(fuse_row "$J" "daemon_ns | .cpu + .runq + .disk_wait + .network_wait + .other_wait" WRITE)
lat=$(fuse_row "$J" latency_sum_ns WRITE)
echo "  per request: $paired of $answered requests ($(jqr "$J" "$c.per_request_ns") ns), by" \
	"overlap $(jqr "$J" "$c.overlap_ns") ns; WRITE: $wpaired paired, daemon other wait" \
	"$wother ns of $wbusy ns, latency sum $lat ns"
check "at least 90% of the daemon's requests charged per request" \
	fcmp "${paired:-0} >= 0.9 * ${answered:-0} && ${answered:-0} >= $N"
check "at least 90% of the WRITEs charged per request" fcmp "$wpaired >= 0.9 * $N"
# (the daemon arms its 20 ms timer before it leaves the CPU: on a loaded machine a preemption in
# between is run-queue wait, so the sleep is in its time for the request, most of it other wait)
check "each paired WRITE's 20 ms sleep is in its daemon time for it, most of it other wait" \
	fcmp "$wbusy >= $wpaired * 20000000 && $wother >= 0.9 * $wpaired * 20000000"
check "no more daemon time charged to the WRITEs than their latency" fcmp "$wbusy <= $lat"
check "the JSON names the charge" test "$(jqr "$J" '.phases[0].fuse.charge')" != overlap
check "the text gives the daemon's WRITE time per request" \
	grep -Eq "^    WRITE +daemon [0-9.]+ s: .*other wait \($wpaired of $N requests\)" "$TMPROOT/out.txt"
sum_rows='[.phases[0].fuse.requests[] | select(.for == "workload") | .daemon_ns | add] | add'
sum_procs='[.phases[0].fuse.processes[] | .daemon_ns | add] | add'
ddp=$(jqr "$J" '[.phases[0].fuse.processes[] | select(.comm == "dd") | .daemon_per_request] | add')
echo "  per request by process: dd $ddp requests; rows $(jqr "$J" "$sum_rows") ns," \
	"processes $(jqr "$J" "$sum_procs") ns"
check "dd is charged its requests per request" fcmp "${ddp:-0} >= $wpaired"
check "the processes' charges add up to the workload rows'" \
	test "$(jqr "$J" "$sum_procs")" = "$(jqr "$J" "$sum_rows")"
check "the text gives dd's daemon time per request" \
	grep -Eq "^    pid [0-9]+ \(dd\) +daemon [0-9.]+ s: .*other wait" "$TMPROOT/out.txt"
check "the sentence charges the daemon per request" \
	grep -q "per request, fuse_slow spent .* on them: .*other wait" "$TMPROOT/out.txt"
