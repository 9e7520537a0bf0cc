# attach --slow 50: a writer throttled to 1 MiB/s (lib_throttle.sh: cgroup v2 io.max, or v1
# blkio) doing buffered writes and fsync; the fsync calls over 50 ms are listed, each with a
# breakdown that adds up to its duration within 5%, slowest first, most of it I/O wait.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_attach.sh
source tests/integration/lib_throttle.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
make_loop_ext4 128
throttle_bps "$LOOPDEV" write 1048576
start_bg P "$TGT" fsync "$MNT/f" "$TMPROOT/calls" 131072
echo "$P" > "$THROTTLE_CG/cgroup.procs" || skip "cannot move the writer into $THROTTLE_CG"
# attach once the writer's requests go through its cgroup's limit (counted there), not after a time
throttle_wait_io "$LOOPDEV" ||
	{ fail "the writer's I/O on $LOOPNAME was not counted in $THROTTLE_CG within 20 s"; finish; }
J=$TMPROOT/s.json
"$IOWHY" attach -p "$P" --slow 50 --duration 3 -j "$J" -o "$TMPROOT/s.txt" 2>"$TMPROOT/err"
rc=$?
check "attach --slow exits 0 (got $rc)" [ "$rc" = 0 ]
[ -s "$J" ] || { fail "no JSON report"; finish; }
n=$(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.syscall == "fsync")] | length')
echo "  $n fsync calls of 50 ms or more"; grep -A4 "syscalls of" "$TMPROOT/s.txt" | sed 's/^/    /'
check "fsync calls over 50 ms are listed ($n)" [ "$n" -ge 1 ]
check "every kept call is at least 50 ms" [ "$(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.duration_ns < 50000000)] | length')" = 0 ]
bad=$(jqr "$J" '[.phases[0].slow_calls.calls[] | (.oncpu_ns + .runq_ns + .iowait_ns + .other_ns) as $s | select(($s - .duration_ns | fabs) > 0.05 * .duration_ns)] | length')
check "each breakdown adds up to its call's duration within 5% ($bad off)" [ "$bad" = 0 ]
check "slowest first" [ "$(jqr "$J" '[.phases[0].slow_calls.calls[].duration_ns] | . == (sort | reverse)')" = true ]
bad=$(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.syscall == "fsync") | ([.iowait_by_device[].ns] | add // 0) + .iowait_no_device_ns - .iowait_ns | select(. != 0)] | length')
check "I/O wait by device adds up to each call's I/O wait" [ "$bad" = 0 ]
check "the text lists them" grep -q "^  fsync .*: on CPU .*, run queue .*, I/O wait" "$TMPROOT/s.txt"
# the journal of the loop file system commits while the fsyncs wait: named, on that device only
n=$(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.syscall == "fsync" and .journal_commits > 0)] | length')
check "fsync calls show the jbd2 commits they waited through ($n)" [ "$n" -ge 1 ]
other=$(jqr "$J" "[.phases[0].slow_calls.calls[] | select(.journal_commits > 0 and .journal_device != \"$LOOPNAME\")] | length")
check "only commits of $LOOPNAME's journal are named ($other others)" [ "$other" = 0 ]
[ "$other" = 0 ] || jqr "$J" ".phases[0].slow_calls.calls[] | [.duration_ns, .journal_commits, .journal_device, (.iowait_by_device | tostring), .iowait_ns, .iowait_no_device_ns] | @tsv" | head -8
# each call's sleeps by kernel wait stack: the fsync path's (jbd2 commit wait, page writeback wait),
# timed from switch-out to switch-in (the D sleep and the run-queue wait after it), within the call
bad=$(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.waits_timed_ns > .duration_ns * 1.001 or ([.waits[].ns] | add // 0) > .waits_timed_ns)] | length')
check "the timed sleeps fit in each call, the named ones in them ($bad off)" [ "$bad" = 0 ]
n=$(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.syscall == "fsync" and .waits_timed_ns >= 0.8 * (.iowait_ns + .other_ns))] | length')
check "fsync calls' sleeps are timed (>= 80% of their I/O and other waits: $n of the kept)" \
	fcmp "$n >= 0.8 * $(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.syscall == "fsync")] | length')"
w=$(jqr "$J" '[.phases[0].slow_calls.calls[] | select(.syscall == "fsync") | .waits[] | select(.uninterruptible) | .where] | unique | join("; ")')
echo "  wait stacks: $w"
check "they are named by the fsync path's wait stacks" grep -qE 'jbd2_log_wait_commit|folio_wait_writeback|wait_on_page_writeback' <<<"$w"
check "the text lists them under the calls" grep -qE '^ +waits: .* asleep \(D\) in ' "$TMPROOT/s.txt"
ino=$(stat -c %i "$MNT/f")
n=$(jqr "$J" "[.phases[0].slow_calls.calls[] | select(.syscall == \"fsync\" and .writeback_inode.ino == $ino and .writeback_inode.path == \"$MNT/f\" and .writeback_inode.device == \"$LOOPNAME\")] | length")
check "fsync calls name the inode under writeback (inode $ino, $MNT/f on $LOOPNAME: $n)" [ "$n" -ge 1 ]
check "the text names it" grep -qE "writeback of inode $ino \($MNT/f\) on $LOOPNAME" "$TMPROOT/s.txt"
