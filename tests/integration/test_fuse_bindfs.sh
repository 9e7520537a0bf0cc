# bindfs (a passthrough FUSE file system) as the control: dd of 8 MiB in 1 MiB writes shows FUSE
# WRITE requests carrying dd's bytes (within 1%), the daemon identified by the pid we started,
# its CPU shown in its own block and not in the workload's; per request (bindfs answers each
# request from the thread that read it), the daemon's CPU per opcode: WRITE's within the daemon's
# CPU and its requests' latency, and not in the workload's CPU either.
#
# witness: dd's own byte count (its "bytes copied" line); tolerance: FUSE WRITE bytes within 1%;
#   observed: not recorded
# witness: the daemon's pid as the test started it, its mount; tolerance: exact; observed: not
#   recorded
# witness: NOT independent: task-clock as iowhy read it into its JSON (.cpu_check.task_clock_ns),
#   against the traced tree CPU: the daemon's CPU (and its WRITE CPU) not in the tree's; tolerance:
#   traced - task-clock < half the daemon's CPU; observed: traced CPU 4-40% below getrusage on
#   FUSE workloads (task-clock agrees with the trace)
# witness: none independent (iowhy against itself): >= 90% of WRITEs paired, the daemon's WRITE
#   CPU <= its CPU and its busy time <= the WRITEs' latency, check_phase_invariants (lib.sh);
#   observed: not recorded
need_root
command -v bindfs >/dev/null || skip "bindfs not installed (tests/install-deps.sh)"
source tests/integration/lib_fuse.sh
J=$TMPROOT/r.json
mkdir -p "$TMPROOT/src" "$TMPROOT/mnt"
bindfs -f "$TMPROOT/src" "$TMPROOT/mnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { fail "bindfs mounted"; finish; }
"$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=1M count=8 \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
# (On FUSE workloads the traced CPU ran 4-40% below getrusage: dd and the daemon hand each request
# back and forth, and the scheduler charges each woken side part of its run-queue wait. The
# task-clock witness agrees with the trace: docs/ACCURACY.md.)
check_phase_invariants "$J" 0
tree=$(jqr "$J" '.phases[0].cpu_check.tree_cpu_ns')
ru=$(jqr "$J" '.phases[0].cpu_check.task_clock_ns')
ddbytes=$(sed -n 's/^\([0-9]*\) bytes.*copied.*/\1/p' "$TMPROOT/out.txt")
wbytes=$(fuse_row "$J" bytes WRITE)
wreq=$(fuse_row "$J" requests WRITE)
echo "  dd wrote $ddbytes B; FUSE WRITE: $wreq requests, $wbytes B"
check "dd reported its byte count" test -n "$ddbytes"
check "FUSE WRITE bytes within 1% of dd's" within "$wbytes" "${ddbytes:-1}" 1
check "WRITE requests carry no errors" test "$(fuse_row "$J" errors WRITE)" = 0
check "the text report names the wait" grep -q "waiting on FUSE ($TMPROOT/mnt, WRITE)" \
	"$TMPROOT/out.txt"
cpu=$(fuse_daemon "$J" "$DPID" window_ns.cpu)
echo "  daemon pid $DPID: CPU $cpu ns, replies $(fuse_daemon "$J" "$DPID" replies)"
check "the daemon is identified by its pid" test -n "$cpu"
check "the daemon's CPU is shown" fcmp "${cpu:-0} > 0"
check "the daemon serves the mount" test "$(fuse_daemon "$J" "$DPID" mount)" = "$TMPROOT/mnt"
echo "  workload CPU: traced $tree ns, task-clock (dd only) $ru ns; daemon CPU ${cpu:-0} ns"
# Folded in, the daemon's CPU would add to the tree's; task-clock counts dd's tree alone.
check "the daemon's CPU is not in the workload's (traced - task-clock < daemon / 2)" \
	fcmp "$tree - $ru < ${cpu:-0} / 2"
check "the daemon is not a workload task" \
	test "$(jqr "$J" '[.phases[0].comms[] | select(.comm == "bindfs")] | length')" = 0
check "the text report has the daemon block" grep -q "pid $DPID (bindfs) serving" \
	"$TMPROOT/out.txt"
wcpu=$(fuse_row "$J" daemon_ns.cpu WRITE)
wpaired=$(fuse_row "$J" daemon_per_request WRITE)
wbusy=$(fuse_row "$J" "daemon_ns | .cpu + .runq + .disk_wait + .network_wait + .other_wait" WRITE)
echo "  per request: WRITE $wpaired of $wreq paired, daemon CPU $wcpu ns of $wbusy ns;" \
	"charge $(jqr "$J" ".phases[0].fuse.daemons[] | select(.pid == $DPID) | .charge" -c)"
check "at least 90% of the WRITEs charged per request" fcmp "$wpaired >= 0.9 * $wreq"
check "the daemon's CPU per WRITE is shown" fcmp "$wcpu > 0"
check "... within the daemon's CPU" fcmp "$wcpu <= ${cpu:-0}"
check "... and within the WRITEs' latency" fcmp "$wbusy <= $(fuse_row "$J" latency_sum_ns WRITE)"
check "... and not in the workload's CPU (traced - task-clock < daemon's WRITE CPU / 2)" \
	fcmp "$tree - $ru < $wcpu / 2"
check "the text report has the daemon's CPU per opcode" \
	grep -Eq "^    WRITE +daemon .* on CPU.* \($wpaired of $wreq requests\)" "$TMPROOT/out.txt"
