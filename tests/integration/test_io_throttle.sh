# The loop device throttled to 5 MiB/s of writes (lib_throttle.sh: cgroup v2 io.max, or v1 blkio;
# the workload's cgroup): an O_DIRECT 16 MiB write spends >= 80% of its wall in I/O wait, and the
# wait is on that device.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_throttle.sh
make_loop_ext4 128
throttle_bps "$LOOPDEV" write $((5 * 1024 * 1024))
J=$TMPROOT/r.json
sync
# The workload runs under the limit, iowhy does not use the device (v1: the workload joins the
# blkio cgroup itself, then execs dd; v2: iowhy's session cgroup is made inside the throttled one)
throttle_run_cmd "$IOWHY" run --json "$J" -- sh -c "$THROTTLE_JOIN && exec dd if=/dev/zero of='$MNT/f' bs=1M count=16 oflag=direct status=none" \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
ph='.phases[] | select(.kind == "work")'
wall=$(jqr "$J" "$ph | .wall_ns")
iow=$(jqr "$J" "$ph | .wall.iowait_ns")
echo "  wall $wall ns, I/O wait $iow ns"
check "wall >= 2.5 s (16 MiB at 5 MiB/s, minus the initial burst)" fcmp "$wall >= 2500000000"
check "I/O wait >= 80% of wall" fcmp "$iow >= 0.8 * $wall"
tree_w=$(jqr "$J" "[$ph | .io.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\" and .class == \"tree\") | .bytes] | add // 0")
check "the tree's 16 MiB went to $LOOPNAME ($tree_w B)" fcmp "$tree_w >= 16777216"
# The wait is on that device: the tree's only block I/O is there, and when the core reports I/O wait
# by device (iowait_by_device), most of it must name the loop device.
other=$(jqr "$J" "[$ph | .io.requests[] | select(.name != \"$LOOPNAME\" and .class == \"tree\") | .bytes] | add // 0")
check "no other device carries the tree's I/O (beyond loading the binary)" fcmp "$other < 1048576"
bydev=$(jqr "$J" "[$ph | .iowait_by_device[]? | select(.name == \"$LOOPNAME\") | .ns] | add // -1")
check "I/O wait by device names $LOOPNAME for >= 80% of the wait" fcmp "$bydev >= 0.8 * $iow"
