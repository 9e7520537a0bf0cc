# Off-CPU stacks: a throttled fsync loop on a journaled ext4 sleeps uninterruptibly waiting for the
# journal commit and for writeback. The top I/O wait stacks must name that wait (jbd2 or writeback),
# and the summed sleeps must agree with the work view's I/O wait of the same process (a sleep runs
# from switch-out to switch-in, so it also holds the run-queue wait after the wakeup).
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 128
throttle_write_bps "$LOOPDEV" 4194304
J=$TMPROOT/r.json
"$IOWHY" run --json "$J" -- sh -c "echo \$\$ > '$THROTTLE_CG/cgroup.procs' && exec '$CALIB' fsync '$MNT/f' 200" \
	>"$TMPROOT/out.txt" 2>&1
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
check "and hold at most its I/O wait + run-queue wait ($iow + $rq ns)" fcmp "$all <= 1.02 * ($iow + $rq) + 5000000"
check "the text report has the I/O wait stacks" grep -q 'Why the tree slept uninterruptibly' "$TMPROOT/out.txt"
check_phase_invariants "$J" 0
