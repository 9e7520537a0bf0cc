# iowhy hunt with one member on a slow backing store: its loop device's file lives in a FUSE file
# system that waits 5 ms before every read, one read at a time (tests/fuse_delay.c). No throttle is configured, so the
# verdict must be the slow member by device latency, naming it; no member is written to.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh

make_fuse_delay 256 5000
BT_BACKING_FILE_1=$FUSE_IMG make_btrfs_loops 3 256
set -- $BT_LOOPS
slow=$2
out=$($IOWHY hunt --stack "$BT_MNT")
check "the stack ends $slow at the FUSE file system ($out)" grep -q "fuse" <<<"$out"
before=$(write_counts)
j=$TMPROOT/hunt.json
# (depths 1, 4 and 16, not the default's 32 too: three, so that the verdict can still say a flat
# ceiling, and a quarter of the steps fewer, 0.3 s each for every member and together)
$IOWHY hunt --time 0.3 --depths 1,4,16 --json "$j" "$BT_MNT" >"$TMPROOT/out" 2>"$TMPROOT/err"
rc=$?
after=$(write_counts)
cat "$TMPROOT/out"
check "hunt exits 0 (got $rc: $(head -c 300 "$TMPROOT/err"))" [ "$rc" = 0 ]
check "no member was written to ($before vs $after)" [ "$before" = "$after" ]
check "the verdict names $slow as the slow member by device latency" \
	grep -qE "^verdict \(slow-member\): $slow is the slow member: device latency" "$TMPROOT/out"
check "JSON: the only slow-member verdict is $slow" \
	[ "$(jqr "$j" '[.verdicts[] | select(.kind == "slow-member") | .subject] | join(",")')" = "$slow" ]
check "JSON: no throttled verdict (none is configured)" \
	[ "$(jqr "$j" '[.verdicts[] | select(.kind == "throttled")] | length')" = 0 ]
# the slow member is left out of the scaling; a shared verdict about the other two names vda
if grep -q "^verdict (shared)" "$TMPROOT/out"; then
	line=$(grep "^verdict (shared)" "$TMPROOT/out")
	check "the shared verdict is about $1 and $3 on $BT_LOWER" \
		fcmp "$(grep -c -e ": $1, $3 share $BT_LOWER;" -e ": $3, $1 share $BT_LOWER;" <<<"$line") == 1"
fi
ratio=$(jqr "$j" '[.verdicts[] | select(.kind == "slow-member") | .inputs.ratio][0] // 0')
check "its latency is several times the others' (${ratio}x)" fcmp "$ratio >= 3"
