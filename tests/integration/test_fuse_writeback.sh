# Writeback-cache FUSE (tests/fuse_slow.c with FUSE_SLOW_WBCACHE=1, no sleep): dd's 64 MiB reach
# the daemon partly from dd itself and partly as kernel-sent writeback (the flusher, or the
# daemon's own reply context sending the next background request). All of it is charged to the
# workload: workload + writeback WRITE bytes = dd's bytes (within 1%), next to nothing as other.
#
# witness: dd's own byte count (its "bytes copied" line); tolerance: workload + writeback FUSE
#   WRITE bytes within 1%, other < 1% of it, writeback > 0; observed: not recorded
need_root
source tests/integration/lib_fuse.sh
SLOW=${OUT:-build}/fuse_slow
[ -x "$SLOW" ] || make -s "$SLOW" >/dev/null 2>&1 || skip "cannot build $SLOW (libfuse3-dev)"
J=$TMPROOT/r.json
mkdir -p "$TMPROOT/mnt"
FUSE_SLOW_MS=0 FUSE_SLOW_WBCACHE=1 "$SLOW" -f "$TMPROOT/mnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { fail "fuse_slow mounted"; finish; }
"$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=1M count=64 \
	>"$TMPROOT/out.txt" 2>&1
rc=$?
check "iowhy run exits 0" test $rc = 0
[ $rc = 0 ] || head -5 "$TMPROOT/out.txt"
ddbytes=$(sed -n 's/^\([0-9]*\) bytes.*copied.*/\1/p' "$TMPROOT/out.txt")
tree=$(fuse_row "$J" bytes WRITE workload)
wb=$(fuse_row "$J" bytes WRITE writeback)
other=$(fuse_row "$J" bytes WRITE other)
echo "  dd wrote $ddbytes B; FUSE WRITE: $tree B from dd, $wb B writeback for it, $other B other"
check "dd reported its byte count" test -n "$ddbytes"
check "workload + writeback WRITE bytes within 1% of dd's" within "$((tree + wb))" "${ddbytes:-1}" 1
check "kernel-sent writeback is charged to the workload" fcmp "$wb > 0"
check "(almost) nothing charged to others" fcmp "$other < 0.01 * ${ddbytes:-1}"
