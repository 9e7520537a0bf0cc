# Cold-cache sequential read of a 64 MiB file: block reads of what was not cached and readahead
# visible. A second, warm read: block reads ~ 0 and the report says "served from page cache".
# Witnesses, the test's own: what of the file was resident before each run (fincore); the
# loopN's sectors read over dd's run (calib witness between iowhy and dd: inside the phase; only
# dd reads that file system); the kernel's readahead tracepoints counted for dd by perf stat (its
# own counters, inside the witness). Cold: the tree's block reads lie between what was not
# resident and what the device read over dd; iowhy's readahead calls are perf's count for dd (+
# the few of the tree's other processes: perf and the witness, their files paged in untraced
# first). Tolerance: none (bounds; the cold read had a lower bound only, 64 MiB), and readahead
# at the check. Observed (6 runs, 2 beside two spinners): the tree read 64 MiB, all of it not
# resident, loopN 64 MiB (3 KiB more once, class other); readahead 27 = perf's 27 (28 and 29
# once; 54-57 before perf's own files were paged in untraced first: perf counts dd alone).
# Warm: the tree's block reads lie between what was not resident and what the device read over dd
# (its own witness); observed 0 B of 0 B. Once in a whole-suite run the device read 2 MiB over the
# warm dd of a file fincore had all resident: such a run is checked against its witness and
# repeated, and the "~ 0" claims are made of a run in which the device read under 1 MiB.
need_root
source tests/integration/lib_dev.sh
command -v perf >/dev/null || skip "needs perf (linux-perf)"
make_loop_ext4 256
dd if=/dev/urandom of="$MNT/f" bs=1M count=64 status=none conv=fsync
# the file's pages out of the page cache (the file alone: no one else's cache is dropped)
dd if="$MNT/f" iflag=nocache count=0 status=none
J1=$TMPROOT/cold.json J2=$TMPROOT/warm.json W=$TMPROOT/witness P=$TMPROOT/perf.csv
res0=$(fincore -bno RES "$MNT/f" 2>/dev/null | tr -d " ") && [ -n "$res0" ] || skip "needs fincore (util-linux)"
ra_events=readahead:page_cache_sync_ra,readahead:page_cache_async_ra
# the tree's other programs (the witness, perf: perf's exec and libraries page in with readahead
# calls of their own, 27-30 when another test had dropped the caches) run once untraced first, so
# that their files are cached
"$CALIB" witness "$TMPROOT/warm.w" -- perf stat -x, -o /dev/null -e "$ra_events" -- \
	dd if=/dev/null of=/dev/null status=none
"$IOWHY" run --json "$J1" -- "$CALIB" witness "$W" "$LOOPNAME" -- perf stat -x, -o "$P" \
	-e "$ra_events" -- dd if="$MNT/f" of=/dev/null bs=1M status=none >"$TMPROOT/cold.txt" 2>&1
check "cold run exits 0" test $? = 0
# warm_run: warm the file again right before (on a shared host another's drop_caches may have
# emptied the cache since the cold run); what is resident just before (fincore) is what the run
# need not read, and the loop device's sectors read over dd (calib witness) what it did read.
warm_run() {
	cat "$MNT/f" >/dev/null
	res=$(fincore -bno RES "$MNT/f" 2>/dev/null || echo 67108864)
	"$IOWHY" run -v --json "$J2" -- "$CALIB" witness "$W2" "$LOOPNAME" -- \
		dd if="$MNT/f" of=/dev/null bs=1M status=none >"$TMPROOT/warm.txt" 2>&1
	wrc=$?
	wdev=$(( $(wit_dev "$W2" "$LOOPNAME" 3) * 512 ))
}
W2=$TMPROOT/witness.warm
warm_run
# The device reading a resident file over dd means something took the file's pages between fincore
# and dd (seen once in a whole-suite run: 2 MiB read, fincore had it all resident; not reproduced
# alone). That is the machine, not iowhy: iowhy's count is still held to the witness below, for
# this run and the repeat; the "~ 0" claims are made of a run in which the device read < 1 MiB.
if [ "$wdev" -ge 1048576 ]; then
	w1=$(jqr "$J2" "[.phases[] | select(.kind == \"work\") | .io.requests[] | select(.name == \"$LOOPNAME\" and .op == \"read\" and .class == \"tree\") | .bytes] | add // 0")
	echo "  warm: $LOOPNAME read $wdev B over dd with $res B of the file resident before" \
		"(resident after: $(fincore -bno RES "$MNT/f" 2>/dev/null)); once more"
	check "warm, the disturbed run: block reads $w1 B <= what $LOOPNAME read over dd ($wdev B)" \
		fcmp "$w1 <= $wdev"
	warm_run
fi
check "warm run exits 0" test "$wrc" = 0
ph='.phases[] | select(.kind == "work") | .io'
cold=$(jqr "$J1" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"read\" and .class == \"tree\") | .bytes] | add // 0")
warm=$(jqr "$J2" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"read\" and .class == \"tree\") | .bytes] | add // 0")
ra=$(jqr "$J1" "$ph.page_cache | .readahead_sync + .readahead_async")
dev_r=$(( $(wit_dev "$W" "$LOOPNAME" 3) * 512 ))
pra=$(awk -F, '$3 ~ /^readahead:page_cache_(sync|async)_ra$/ { n += $1; k++ } END { if (k == 2) print n }' "$P")
echo "  cold block reads $cold B ($res0 B resident before; $LOOPNAME read $dev_r B over dd);" \
	"readahead calls $ra (perf for dd: ${pra:-none}); warm $warm B"
echo "  cold: $LOOPNAME's reads by class $(jqr "$J1" "[$ph.requests[] | select(.name == \"$LOOPNAME\" and .op == \"read\") | {(.class): .bytes}] | add" -c)," \
	"missed $(jqr "$J1" "[$ph.devices[] | select(.name == \"$LOOPNAME\") | .missed_completions] | add")," \
	"lost $(jqr "$J1" "$ph.lost | with_entries(select(.value != 0))" -c)"
check "cold: block reads >= what was not resident ($((67108864 - res0)) B)" fcmp "$cold >= 67108864 - $res0"
check "cold: block reads <= what $LOOPNAME read over dd ($dev_r B)" fcmp "$cold <= $dev_r"
check "cold: readahead visible" fcmp "$ra >= 1"
# observed: 0 more (with the other programs' files paged in first; 1 and 2 more before); tolerance:
# up to 2 more (perf's and the witness's own readahead, their files cached)
check "cold: readahead calls $ra = perf's count for dd (${pra:-none}), + 2 at most" \
	fcmp "$ra >= ${pra:-none} && $ra <= ${pra:-none} + 2"
check "cold: page cache filled for the tree" fcmp "$(jqr "$J1" "$ph.page_cache.added_bytes") >= 67108864 - $res0"
check "warm: block reads $warm B <= what $LOOPNAME read over dd ($wdev B)" fcmp "$warm <= $wdev"
check "warm: block reads >= what was not resident ($((67108864 - res)) B)" fcmp "$warm >= 67108864 - $res"
check "warm: block reads ~ 0 (< 1 MiB beyond the $((67108864 - res)) B not resident before)" \
	fcmp "$warm < 67108864 - $res + 1048576"
check "warm: the report says served from page cache" grep -q "served from page cache" "$TMPROOT/warm.txt"
