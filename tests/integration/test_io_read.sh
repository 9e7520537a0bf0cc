# Cold-cache sequential read of a 64 MiB file: block reads >= 64 MiB and readahead visible. A second,
# warm read: block reads ~ 0 and the report says "served from page cache".
need_root
source tests/integration/lib_dev.sh
make_loop_ext4 256
dd if=/dev/urandom of="$MNT/f" bs=1M count=64 status=none conv=fsync
drop_caches
J1=$TMPROOT/cold.json J2=$TMPROOT/warm.json
"$IOWHY" run --json "$J1" -- dd if="$MNT/f" of=/dev/null bs=1M status=none >"$TMPROOT/cold.txt" 2>&1
check "cold run exits 0" test $? = 0
# Warm it again right before: on a shared host another's drop_caches may have emptied the cache since
# the cold run. What is resident just before (fincore) is the witness of what the warm run may read.
cat "$MNT/f" >/dev/null
res=$(fincore -bno RES "$MNT/f" 2>/dev/null || echo 67108864)
"$IOWHY" run -v --json "$J2" -- dd if="$MNT/f" of=/dev/null bs=1M status=none >"$TMPROOT/warm.txt" 2>&1
check "warm run exits 0" test $? = 0
ph='.phases[] | select(.kind == "work") | .io'
cold=$(jqr "$J1" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"read\" and .class == \"tree\") | .bytes] | add // 0")
warm=$(jqr "$J2" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"read\" and .class == \"tree\") | .bytes] | add // 0")
ra=$(jqr "$J1" "$ph.page_cache | .readahead_sync + .readahead_async")
echo "  cold block reads $cold B (readahead calls $ra); warm $warm B"
check "cold: block reads >= 64 MiB" fcmp "$cold >= 67108864"
check "cold: readahead visible" fcmp "$ra >= 1"
check "cold: page cache filled for the tree" fcmp "$(jqr "$J1" "$ph.page_cache.added_bytes") >= 67108864"
check "warm: block reads ~ 0 (< 1 MiB beyond the $((67108864 - res)) B not resident before)" \
	fcmp "$warm < 67108864 - $res + 1048576"
check "warm: the report says served from page cache" grep -q "served from page cache" "$TMPROOT/warm.txt"
