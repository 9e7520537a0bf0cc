# iowhy hunt --write: O_DIRECT writes into a scratch file hunt creates on the btrfs raid0, with one
# member write-throttled for hunt's cgroup (lib_throttle.sh: cgroup v2 io.max wbps, or v1 blkio;
# iowhy reads v1's limits only): the verdict names that member and its write limit, the
# scratch file is gone afterwards, and hunt refuses to write anything it did not create.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh
source tests/integration/lib_throttle.sh

make_btrfs_loops 3 256
set -- $BT_LOOPS
slow=$2
throttle_bps "/dev/$slow" write $((4 << 20))
j=$TMPROOT/hunt.json
throttle_exec $IOWHY hunt --write "$BT_MNT/scratch" --write-size 64 --time 0.3 --json "$j" "$BT_MNT" \
	>"$TMPROOT/out" 2>"$TMPROOT/err"
rc=$?
cat "$TMPROOT/out"
check "hunt --write exits 0 (got $rc: $(head -c 300 "$TMPROOT/err"))" [ "$rc" = 0 ]
check "the scratch file is removed" [ ! -e "$BT_MNT/scratch" ]
check "a file row and a row per member for each pattern" \
	[ "$(grep -cE "^  (file|$1|$2|$3) +(rand 4k|seq 1M) " "$TMPROOT/out")" = 8 ]
if throttle_verdicts "the throttled verdict"; then
	check "the verdict says $slow is throttled for writes" \
		grep -qE "^verdict \(throttled\): $slow is throttled: blkio.throttle.write_bps_device = 4.0 MiB/s" \
		"$TMPROOT/out"
	check "JSON: write mode, one throttled verdict about $slow" \
		[ "$(jqr "$j" '.mode + ":" + ([.verdicts[] | select(.kind == "throttled") | .subject] | join(","))')" = "write:$slow" ]
else
	check "JSON: write mode" [ "$(jqr "$j" .mode)" = write ]
fi
check "JSON: every member wrote in the first sequential step" \
	[ "$(jqr "$j" '[.write.members[] | select(.seq1m[0].mib_s > 0)] | length')" = 3 ]

# refusals: one line, exit 2, nothing created or changed
echo keep > "$BT_MNT/existing"
sum=$(md5sum < "$BT_MNT/existing")
for args in "--write $BT_MNT/existing $BT_MNT" "--write $TMPROOT/elsewhere $BT_MNT" \
	    "--write $BT_MNT/x /dev/$1" "--write $BT_MNT/ $BT_MNT"; do
	$IOWHY hunt --time 0.1 $args >/dev/null 2>"$TMPROOT/err"
	rc=$?
	check "hunt $args: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "hunt $args: one line on stderr" [ "$(wc -l < "$TMPROOT/err")" = 1 ]
done
check "the existing file is unchanged" [ "$(md5sum < "$BT_MNT/existing")" = "$sum" ]
check "nothing was created elsewhere" [ ! -e "$TMPROOT/elsewhere" -a ! -e "$BT_MNT/x" ]
rm -f "$BT_MNT/existing"
