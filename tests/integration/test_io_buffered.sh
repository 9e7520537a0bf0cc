# Buffered 64 MiB write then the flush phase: bytes dirtied by the tree within 1% of 64 MiB; the
# block writes come from writeback, charged back to the workload's inode, in the flush phase.
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 256
J=$TMPROOT/r.json
sync
"$IOWHY" run --json "$J" --sync "$MNT" -- dd if=/dev/zero of="$MNT/f" bs=1M count=64 status=none \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
w='.phases[] | select(.kind == "work") | .io'
f='.phases[] | select(.kind == "flush") | .io'
dirtied=$(jqr "$J" "$w.page_cache.dirtied_bytes")
echo "  dirtied $dirtied B"
check "dirtied by the tree within 1% of 64 MiB" within "$dirtied" 67108864 1
work_wbt=$(jqr "$J" "[$w.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\" and .class == \"writeback_tree\") | .bytes] | add // 0")
flush_wbt=$(jqr "$J" "[$f.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\" and .class == \"writeback_tree\") | .bytes] | add // 0")
wbt=$((work_wbt + flush_wbt))
tree_w=$(jqr "$J" "[$w.requests[] | select(.name == \"$LOOPNAME\" and .op == \"write\" and .class == \"tree\") | .bytes] | add // 0")
echo "  writeback for the workload: $wbt B ($flush_wbt B in the flush phase); tree's own writes $tree_w B"
check "block writes of the workload's data come from writeback, charged to it (>= 99% of 64 MiB)" \
	fcmp "$wbt >= 0.99 * 67108864"
check "the workload phase itself wrote (almost) nothing to the device" fcmp "$tree_w < 1048576"
busy_w=$(jqr "$J" "[$w.devices[] | select(.name == \"$LOOPNAME\") | .busy_ns] | add // 0")
busy_f=$(jqr "$J" "[$f.devices[] | select(.name == \"$LOOPNAME\") | .busy_ns] | add // 0")
echo "  $LOOPNAME busy: workload $busy_w ns, flush $busy_f ns"
check "the flush phase holds the device time" fcmp "$busy_f > $busy_w"
check "written back for the workload reported" fcmp "$(jqr "$J" "$f.page_cache.written_back_workload_bytes") >= 0.99 * 67108864"
check "journal commits seen in the flush phase" fcmp "$(jqr "$J" "[$f.journal[] | .commits] | add // 0") >= 1"
