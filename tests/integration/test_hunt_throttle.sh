# iowhy hunt with one member throttled for hunt's own cgroup (lib_throttle.sh: cgroup v2 io.max
# rbps, or v1 blkio read_bps_device): the verdict names that member and the throttle (v1: iowhy
# reads v1's limits only), it is several times slower than the others in the same run, and no
# member is written to.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh
source tests/integration/lib_throttle.sh

make_btrfs_loops 3 256
set -- $BT_LOOPS
slow=$2
throttle_bps "/dev/$slow" read $((16 << 20))
before=$(write_counts)
j=$TMPROOT/hunt.json
# (depths 1, 4 and 16, not the default's 32 too: three, so that a flat ceiling could still be seen,
# and a quarter of the steps fewer, 0.3 s each for every member and together)
throttle_exec $IOWHY hunt --time 0.3 --depths 1,4,16 --json "$j" "$BT_MNT" >"$TMPROOT/out" 2>"$TMPROOT/err"
rc=$?
after=$(write_counts)
cat "$TMPROOT/out"
check "hunt exits 0 (got $rc: $(head -c 300 "$TMPROOT/err"))" [ "$rc" = 0 ]
check "no member was written to ($before vs $after)" [ "$before" = "$after" ]
if throttle_verdicts "the throttled verdict, its limit and cgroup"; then
	check "the verdict says $slow is throttled, with the configured limit" \
		grep -qE "^verdict \(throttled\): $slow is throttled: blkio.throttle.read_bps_device = 16.0 MiB/s" \
		"$TMPROOT/out"
	check "the verdict names the cgroup" grep -q "cgroup /$(basename "$THROTTLE_CG")" "$TMPROOT/out"
	check "JSON: one throttled verdict, about $slow" \
		[ "$(jqr "$j" '[.verdicts[] | select(.kind == "throttled") | .subject] | join(",")')" = "$slow" ]
	check "JSON: $slow's configured limit is recorded" \
		[ "$(jqr "$j" ".members[] | select(.name == \"$slow\") | .throttle.read_bps")" = $((16 << 20)) ]
fi
# relations within this run: the throttled member's best sequential MiB/s is several times below
# every other member's
best() { jqr "$j" "[.members[] | select(.name == \"$1\") | .seq1m[].mib_s] | max"; }
s=$(best "$slow")
for d in $1 $3; do
	o=$(best "$d")
	check "$slow ($s MiB/s) is at least 4x slower than $d ($o MiB/s)" fcmp "$s * 4 <= $o"
done
check "no slow-member verdict for the others" \
	[ "$(jqr "$j" "[.verdicts[] | select(.kind == \"slow-member\" and .subject != \"$slow\")] | length")" = 0 ]

# The same stack without the throttle, and compare: the difference is the throttled member.
j2=$TMPROOT/free.json
$IOWHY hunt --time 0.3 --depths 1,4,16 --json "$j2" "$BT_MNT" >/dev/null 2>"$TMPROOT/err2"
check "unthrottled hunt exits 0" [ $? = 0 ]
$IOWHY compare "$j" "$j2" >"$TMPROOT/cmp" 2>&1
check "compare exits 0" [ $? = 0 ]
cat "$TMPROOT/cmp"
check "compare's headline names $slow" grep -qE "^the largest difference is $slow " "$TMPROOT/cmp"
if throttle_verdicts "compare's throttled verdict"; then
	check "compare lists the throttled verdict as A's only" \
		grep -q "^verdicts only in A: .*throttled $slow" "$TMPROOT/cmp"
fi
jq '.schema_version = 2' "$j2" > "$TMPROOT/v2.json"
$IOWHY compare "$j" "$TMPROOT/v2.json" >"$TMPROOT/out3" 2>"$TMPROOT/err3"
check "compare refuses schema_version 2 with exit 2" [ $? = 2 ]
check "... and one line" [ "$(wc -l < "$TMPROOT/err3")" = 1 ] && cat "$TMPROOT/err3"
