# bindfs over ext4 on a loop device, dd with conv=fsync: the FUSE FSYNC makes bindfs fsync its
# file on the loop device, and the daemon block shows that disk I/O wait by device (the loop
# device), while dd's own wait is on the FUSE FSYNC request.
#
# witness: the set-up: dd conv=fsync through bindfs on the test's own loop device (the FUSE FSYNC
#   makes bindfs fsync there); tolerance: > 0 (dd's FSYNC wait, the daemon's disk wait, on
#   $LOOPNAME, per FSYNC request), the device named in the text; observed: not recorded
# witness: none independent (iowhy against itself): the FSYNC's daemon disk wait <= the daemon's
#   disk wait and <= the FSYNCs' latency; observed: not recorded
need_root
command -v bindfs >/dev/null || skip "bindfs not installed (tests/install-deps.sh)"
source tests/integration/lib_dev.sh
source tests/integration/lib_fuse.sh
make_loop_ext4 128
J=$TMPROOT/r.json
mkdir -p "$MNT/src" "$TMPROOT/fmnt"
bindfs -f "$MNT/src" "$TMPROOT/fmnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/fmnt $DPID"
fuse_mount_wait "$TMPROOT/fmnt" "$DPID" || { fail "bindfs mounted"; finish; }
"$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/fmnt/f" bs=1M count=16 conv=fsync \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
fsync=$(fuse_row "$J" wait_ns FSYNC)
disk=$(fuse_daemon "$J" "$DPID" process_while_waited_ns.disk_wait)
dev=$(jqr "$J" "[.phases[0].fuse.daemons[] | select(.pid == $DPID) | .disk_wait_by_device[] |
	select(.device == \"$LOOPNAME\") | .while_waited_ns] | add // 0")
echo "  dd waited $fsync ns on FUSE FSYNC; bindfs disk I/O wait while waited on: $disk ns," \
	"$dev ns of it on $LOOPNAME"
check "dd waited on the FUSE FSYNC" fcmp "${fsync:-0} > 0"
check "the daemon's disk I/O wait is shown" fcmp "${disk:-0} > 0"
check "... on the loop device under its files" fcmp "$dev > 0"
check "the text report names the device" grep -q "disk I/O wait by device: $LOOPNAME" \
	"$TMPROOT/out.txt"
# per request: bindfs's fsync of its file happens between its read of the FSYNC and its reply
fdisk=$(fuse_row "$J" daemon_ns.disk_wait FSYNC)
echo "  per request: FSYNC $(fuse_row "$J" daemon_per_request FSYNC) of" \
	"$(fuse_row "$J" replied FSYNC) paired, daemon disk I/O wait $fdisk ns"
check "the daemon's disk I/O wait is charged to the FSYNC per request" fcmp "${fdisk:-0} > 0"
check "... within its disk I/O wait and the FSYNC's latency" fcmp "$fdisk <= $(fuse_daemon "$J" \
	"$DPID" window_ns.disk_wait) && $fdisk <= $(fuse_row "$J" latency_sum_ns FSYNC)"
check "the text gives FSYNC's disk I/O wait per request" \
	grep -Eq "^    FSYNC +daemon .*disk I/O wait" "$TMPROOT/out.txt"
