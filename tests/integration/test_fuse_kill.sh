# Killing the FUSE daemon mid-run: the workload's report is still complete, the aborted request
# is counted as an error, and nothing stays mounted.
#
# witness: behaviour: the daemon killed by the test mid-run: iowhy ends with dd's failure status
#   (not the timeout), a complete JSON, >= 1 WRITE error, the FUSE section, nothing mounted
#   (findmnt); tolerance: exact; observed: not recorded
# witness: none independent: check_phase_invariants (lib.sh); observed: not recorded
need_root
source tests/integration/lib_fuse.sh
SLOW=${OUT:-build}/fuse_slow
[ -x "$SLOW" ] || make -s "$SLOW" >/dev/null 2>&1 || skip "cannot build $SLOW (libfuse3-dev)"
J=$TMPROOT/r.json
mkdir -p "$TMPROOT/mnt"
FUSE_SLOW_MS=200 "$SLOW" -f "$TMPROOT/mnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { fail "fuse_slow mounted"; finish; }
# 100 writes of 200 ms: 20 s unless the daemon dies; it is killed once a write is in flight
( for _ in $(seq 100); do
	[ -s "$TMPROOT/mnt/f" ] 2>/dev/null && break
	sleep 0.1
  done
  sleep 0.5; kill -9 "$DPID" ) &
KPID=$!
on_exit "kill $KPID 2>/dev/null"
timeout 60 "$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=128k count=100 \
	>"$TMPROOT/out.txt" 2>&1
rc=$?
echo "  iowhy exit $rc; dd: $(grep -m1 -i 'error\|not connected\|aborted' "$TMPROOT/out.txt")"
check "iowhy finished with dd's failure status" test "$rc" != 0 -a "$rc" != 124
check "the daemon is gone" bash -c "! kill -0 $DPID 2>/dev/null"
check "the JSON report is complete" jq -e '.phases[0].wall_ns > 0 and .phases[0].fuse != null' "$J"
check_phase_invariants "$J" 0
errs=$(fuse_row "$J" errors WRITE)
ok=$(jqr "$J" "[.phases[0].fuse.requests[] | select(.opcode == \"WRITE\") | .requests] | add // 0")
echo "  FUSE WRITE: $ok requests ended, $errs with an error"
check "the aborted WRITE is counted as an error" fcmp "$errs >= 1"
check "the text report has the FUSE section" grep -q "FUSE requests" "$TMPROOT/out.txt"
fuse_teardown "$TMPROOT/mnt"
check "nothing left mounted" bash -c "! findmnt -rn '$TMPROOT/mnt' >/dev/null"
