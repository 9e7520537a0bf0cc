# A run on btrfs (-d raid0 -m raid1) over three loop devices with one member throttled for the
# workload's cgroup (lib_throttle.sh: cgroup v2 io.max wbps, or v1 blkio throttle.write_bps_device,
# 2 MiB/s; the workload runs under it and writes 24 MiB with O_DIRECT): the run report's verdict
# names that member and says throttle, with the configured limit and the cgroup (v1: iowhy reads
# v1's limits only), and at least 80% of the workload's I/O wait is charged to that member.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh
source tests/integration/lib_throttle.sh

make_btrfs_loops 3 256
set -- $BT_LOOPS
slow=$2
throttle_bps "/dev/$slow" write $((2 << 20))
J=$TMPROOT/r.json
OUT=$TMPROOT/out.txt
throttle_run_cmd "$IOWHY" run --json "$J" -- sh -c "$THROTTLE_JOIN && exec dd if=/dev/zero \
	of='$BT_MNT/f' bs=1M count=24 oflag=direct status=none" >"$OUT" 2>&1
rc=$?
sed -n '/== devices/,/== explanation/p' "$OUT"
check "iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
# (the members in sysfs order, which need not be the order the loop devices were made in)
sl=$(grep "^  stack $BT_MNT (btrfs raid0) → " "$OUT")
check "the report shows the stack, its three members and $BT_LOWER below" \
	fcmp "$(grep -c -e "[ ,]$1[,] " -e "[ ,]$1 →" <<<"$sl") + $(grep -c -e "[ ,]$2[,] " -e "[ ,]$2 →" <<<"$sl") + $(grep -c -e "[ ,]$3[,] " -e "[ ,]$3 →" <<<"$sl") == 3 && $(grep -c "→ $BT_LOWER:" <<<"$sl") == 1"
if throttle_verdicts "the throttled verdict, its limit and cgroup"; then
	check "the verdict says $slow is throttled, with the configured limit" \
		grep -qE "^  verdict \(throttled\): $slow is throttled: blkio.throttle.write_bps_device = 2.0 MiB/s" \
		"$OUT"
	check "the verdict names the cgroup" grep -q "cgroup /$(basename "$THROTTLE_CG")" "$OUT"
	check "JSON: one throttled verdict, about $slow" \
		[ "$(jqr "$J" '[.verdicts[] | select(.kind == "throttled") | .subject] | join(",")')" = "$slow" ]
	check "JSON: the verdict carries its inputs (the limit)" \
		[ "$(jqr "$J" '.verdicts[] | select(.kind == "throttled") | .inputs.limit_bps')" = $((2 << 20)) ]
fi
check "JSON: no slow-member verdict for another member" \
	[ "$(jqr "$J" "[.verdicts[] | select(.kind == \"slow-member\" and .subject != \"$slow\")] | length")" = 0 ]
total=$(jqr "$J" '[.disks[].iowait_ns] | add // 0')
on=$(jqr "$J" "[.disks[] | select(.name == \"$slow\") | .iowait_ns] | add // 0")
echo "  I/O wait: $on of $total ns on $slow"
check "the workload waited on I/O" fcmp "$total > 0"
check ">= 80% of the workload's I/O wait charged to $slow" fcmp "$on >= 0.8 * $total"
check "the stack's most waited device is $slow" \
	[ "$(jqr "$J" '.stacks[0].most_waited')" = "$slow" ]
