# Off-CPU stacks: a throttled fsync loop on a journaled ext4 sleeps uninterruptibly waiting for the
# journal commit and for writeback. The top I/O wait stacks must name that wait (jbd2 or writeback),
# and the summed sleeps must agree with the work view's I/O wait of the same process (a sleep runs
# from switch-out to switch-in, so it also holds the run-queue wait after the wakeup).
# The fsync loop runs under `calib witness` (run by a link named cwitness: its own wait for the
# loop is not in calib's row), the test's own getrusage, task-clock and run-queue wait of it, for
# check_phase_invariants' CPU checks (its tolerances there; observed: tree - getrusage -6.6% to
# +1.6% of 32-63 ms in 6 runs, 2 beside two spinners). The raw_tp run's dd has no witness and no
# CPU check: that run checks the off-CPU probe only.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_throttle.sh
make_loop_ext4 128
throttle_bps "$LOOPDEV" write 4194304
J=$TMPROOT/r.json W=$TMPROOT/witness
ln -s "$(readlink -f "$CALIB")" "$TMPROOT/cwitness" || fail "link to calib made"
throttle_run_cmd "$IOWHY" run -v --json "$J" -- "$TMPROOT/cwitness" witness "$W" -- \
	sh -c "$THROTTLE_JOIN && exec '$CALIB' fsync '$MNT/f' 200" >"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
check "the file is 800 KiB" test "$(stat -c %s "$MNT/f")" = 819200
o='.phases[0].offcpu'
sleeps=$(jqr "$J" "$o.sleeps")
check "uninterruptible sleeps counted (>= 200, got $sleeps)" fcmp "${sleeps:-0} >= 200"
top=$(jqr "$J" "[$o.top_stacks[0:3][] | .frames[0:6] | join(\";\")] | join(\" \")")
echo "  top wait stacks: $top"
check "a jbd2 or writeback wait is among the top 3 stacks" grep -qE \
	'jbd2_log_wait_commit|jbd2_complete_transaction|folio_wait_writeback|__filemap_fdatawait_range|wait_on_page_writeback|balance_dirty_pages' <<<"$top"
off=$(jqr "$J" "[$o.top_stacks[] | select(.comm == \"calib\") | .ns] | add // 0")
all=$(jqr "$J" "$o.ns")
iow=$(comm_field "$J" 0 calib iowait_ns)
rq=$(comm_field "$J" 0 calib runq_ns)
check "calib's sleeps ($off ns) cover its I/O wait ($iow ns) within 10%" fcmp "$off >= 0.9 * $iow"
check "and hold at most its I/O wait + run-queue wait ($iow + $rq ns)" \
	fcmp "$off <= 1.02 * ($iow + $rq) + 5000000"
# all the tree's sleeps (sh's too: under v1 its write to cgroup.procs sleeps in synchronize_rcu
# before the exec) against all its comms' I/O and run-queue waits
tw=$(jqr "$J" '[.phases[0].comms[] | .iowait_ns + .runq_ns] | add // 0')
check "the tree's sleeps ($all ns) at most its comms' I/O + run-queue waits ($tw ns)" \
	fcmp "$all <= 1.02 * $tw + 5000000"
check "the text report has the I/O wait stacks" grep -q 'Why the tree slept uninterruptibly' "$TMPROOT/out.txt"
check_phase_invariants "$J" 0 0 "$W"
# The raw_tp fallback has its own off-CPU probe (per-task state in the tid hash): O_DIRECT writes
# wait for their requests.
J2=$TMPROOT/raw.json
IOWHY_PROBE_MODE=raw_tp "$IOWHY" run --json "$J2" -- \
	dd if=/dev/zero of="$MNT/g" bs=1M count=8 oflag=direct status=none >/dev/null 2>&1
check "raw_tp run exits 0 in raw_tp mode" test "$(jqr "$J2" .probe_mode)" = raw_tp
s2=$(jqr "$J2" '.phases[0].offcpu.sleeps // 0')
check "raw_tp: uninterruptible sleeps counted (>= 4, got $s2)" fcmp "$s2 >= 4"
top2=$(jqr "$J2" '[.phases[0].offcpu.top_stacks[0:3][] | .frames | join(";")] | join(" ")')
check "raw_tp: a direct-I/O wait among the top stacks ($top2)" grep -qE 'iomap_dio|__blockdev_direct_IO|blkdev_direct|io_schedule' <<<"$top2"
