# attach --slow 50: a writer throttled to 1 MiB/s (cgroup v1 blkio) doing buffered writes and
# fsync; the fsync calls over 50 ms are listed, each with a breakdown that adds up to its duration
# within 5%, slowest first, most of it I/O wait.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
make_loop_ext4 128
throttle_write_bps "$LOOPDEV" 1048576
start_bg P "$TGT" fsync "$MNT/f" "$TMPROOT/calls" 131072
echo "$P" > "$THROTTLE_CG/cgroup.procs" || skip "cannot move the writer into $THROTTLE_CG"
sleep 0.3
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
