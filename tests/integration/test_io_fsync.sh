# fsync-heavy workload on the journaled ext4: 1000 x (write 4k + fsync) -> 1000 fsyncs counted on
# that file system, journal commits visible with their phases (wait/locked/flushing/logging).
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 128
J=$TMPROOT/r.json
# One process: 1000 times write 4 KiB at the end of the file, then fsync(2).
steal_mark # the CPU cross-check allows the steal of this run, not of the set-up
"$IOWHY" run --json "$J" -- "$CALIB" fsync "$MNT/f" 1000 >"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
check "the file is 4000 KiB" test "$(stat -c %s "$MNT/f")" = 4096000
ph='.phases[] | select(.kind == "work") | .io'
n=$(jqr "$J" "[$ph.fsync[] | select(.name == \"$LOOPNAME\") | .fsync + .fdatasync] | add // 0")
c=$(jqr "$J" "[$ph.journal[] | select(.name == \"$LOOPNAME\") | .commits] | add // 0")
lg=$(jqr "$J" "[$ph.journal[] | select(.name == \"$LOOPNAME\") | .logging_ns] | add // 0")
echo "  fsync $n, journal commits $c, logging $lg ns"
check "fsync count is 1000" test "$n" = 1000
check "journal commits visible (>= 100)" fcmp "$c >= 100"
check "journal commit phases reported" test "$(jqr "$J" "$ph.journal[0] | has(\"wait_ns\") and has(\"locked_ns\") and has(\"flushing_ns\") and has(\"logging_ns\")")" = true
jw=$(jqr "$J" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .class == \"journal\") | .bytes] | add // 0")
check "journal writes on $LOOPNAME charged to the journal class" fcmp "$jw > 0"
check "the syscall table counts 1000 fsync calls" test "$(sys_count "$J" 0 fsync)" = 1000
iow=$(jqr "$J" '.phases[0].wall.iowait_ns')
dev=$(jqr "$J" "[.phases[0].iowait_by_device[] | select(.name == \"$LOOPNAME\") | .ns] | add // 0")
echo "  I/O wait $iow ns, of it on $LOOPNAME $dev ns"
check "I/O wait is a large part of the wall (fsync waits for the device)" fcmp "$iow >= 0.3 * $(jqr "$J" .phases[0].wall_ns)"
check "I/O wait by device puts >= 80% of it on $LOOPNAME" fcmp "$dev >= 0.8 * $iow"
check_phase_invariants "$J" 0
