# A run on btrfs (-d raid0 -m raid1) over three loop devices, one of which has its backing file in
# a FUSE file system that waits 100 ms before every read (tests/fuse_delay.c): O_DIRECT reads of
# 4 MiB in 64 KiB blocks (the raid0 stripe: each read goes to one member, one at a time, so one
# member's slowness does not hold the others' requests; on a loaded host the others' loop requests
# took 5 ms, so the delay is large). No throttle is configured: the run report's verdict names that
# member as the slow one by device latency, and at least 80% of the workload's I/O wait is charged
# to it.
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh

make_fuse_delay 256 100000
# the other members' backing files in RAM: a CI run once had the host's disk stall for seconds
# (vda: 85 requests busy 2.14 s), so a member on it was as slow as the FUSE one
shm0=$(mktemp /dev/shm/iowhy-test-member0.XXXXXX) && shm2=$(mktemp /dev/shm/iowhy-test-member2.XXXXXX) ||
	skip "no /dev/shm"
on_exit "rm -f '$shm0' '$shm2'"
BT_BACKING_FILE_0=$shm0 BT_BACKING_FILE_1=$FUSE_IMG BT_BACKING_FILE_2=$shm2 make_btrfs_loops 3 256
set -- $BT_LOOPS
slow=$2
dd if=/dev/urandom of="$BT_MNT/f" bs=1M count=24 oflag=direct status=none || skip "cannot write"
sync
J=$TMPROOT/r.json
OUT=$TMPROOT/out.txt
"$IOWHY" run --json "$J" -- dd if="$BT_MNT/f" of=/dev/null bs=64k count=64 iflag=direct status=none \
	>"$OUT" 2>&1
rc=$?
sed -n '/== devices/,/== explanation/p' "$OUT"
check "iowhy run exits 0 (got $rc)" [ "$rc" = 0 ]
# what a failure needs to be understood: each member's device times (one stale issue time, or all
# of them long) and what the tracer says it missed
jqr "$J" '.phases[0].io.requests[] | select(.disk | startswith("loop")) |
	"  \(.disk) \(.op): \(.requests) requests, device p50 \(.device_ns.p50) max \(.device_ns.max) total \(.device_ns.total) ns"'
echo "  io lost: $(jqr "$J" '.phases[0].io.lost | with_entries(select(.value != 0))' -c)," \
	"events: $(jqr "$J" '.events + (.phases[0].trace | {out_of_order, clock_skew_events,
		clock_skew_max_ns, programs_missed_runs})' -c)"
check "the verdict names $slow as the slow member by device latency" \
	grep -qE "^  verdict \(slow-member\): $slow is the slow member: device latency" "$OUT"
check "JSON: the only slow-member verdict is $slow" \
	[ "$(jqr "$J" '[.verdicts[] | select(.kind == "slow-member") | .subject] | join(",")')" = "$slow" ]
check "JSON: no throttled verdict (none is configured)" \
	[ "$(jqr "$J" '[.verdicts[] | select(.kind == "throttled")] | length')" = 0 ]
ratio=$(jqr "$J" '[.verdicts[] | select(.kind == "slow-member") | .inputs.ratio][0] // 0')
check "its latency is several times the others' (${ratio}x)" fcmp "$ratio >= 3"
total=$(jqr "$J" '[.disks[].iowait_ns] | add // 0')
on=$(jqr "$J" "[.disks[] | select(.name == \"$slow\") | .iowait_ns] | add // 0")
echo "  I/O wait: $on of $total ns on $slow"
check "the workload waited on I/O" fcmp "$total > 0"
check ">= 80% of the workload's I/O wait charged to $slow" fcmp "$on >= 0.8 * $total"
# what the slow member sits on is the FUSE file system holding its backing file (stat's device of
# the file), not the next level's first device (the members on /dev/shm sit on tmpfs)
fdev=$(stat -c '%Hd:%Ld' "$FUSE_IMG")
check "JSON: the most waited device is $slow" \
	[ "$(jqr "$J" '[.stacks[] | select(.most_waited != null) | .most_waited][0] // ""')" = "$slow" ]
check "JSON: it sits on the FUSE file system's device $fdev" \
	[ "$(jqr "$J" '[.stacks[] | select(.most_waited != null) | .most_waited_below][0] // ""')" = "$fdev" ]
check "text: the stack line says so" grep -qE "on $slow's requests, which sit on $fdev" "$OUT"
