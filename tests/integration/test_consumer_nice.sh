# The event consumer (iowhy's main thread) runs 10 nice levels above the nice iowhy was started
# with while it is behind (an event ring more than an eighth full), so that a busy machine does not
# starve it into losing events, and at that nice otherwise; a workload child runs at the nice
# iowhy was started with, also when started while the consumer is raised, in both ways a workload
# starts (a command: a child sharing iowhy's memory until its exec; run -u: a fork).
# IOWHY_TEST_CONSUMER_BEHIND=1 takes the consumer as behind at every turn: the second run of
# --repeat 2 is started by a raised main thread. The witness: /proc/PID/stat's nice field of the
# workload and of its parent, iowhy's main thread, read by the workload itself.
#
# witness: /proc/self/stat and /proc/$PPID/stat nice fields read by the workload itself, against
#   the test's own nice and the levels it set (+0, +5, -15, run -u nobody); tolerance: exact;
#   observed: 4 checks fail without the child's reset
# witness: NOT independent: the ring's peak fill and events lost as iowhy counted them
#   (.probes.event_ring_peak_bytes, .events.lost), and consumer_raised_ns / consumer_nice;
#   tolerance: peak > an eighth of the ring or a loss, raised > 0; observed: one getppid loop
#   peaked at 122,648 of 1,048,576 bytes where getppid costs 1.1 us
need_root
J=$TMPROOT/r.json
# shellcheck disable=SC2016 # expanded by the workload's shell
show='echo "$(cut -d" " -f19 /proc/self/stat) $(cut -d" " -f19 /proc/$PPID/stat)"'
base=$(nice) # (absolute levels: the test's own nice need not be 0)

# not behind: nothing raised
"$IOWHY" run -q --json "$J" -o "$TMPROOT/out.txt" -- sh -c "$show" >"$TMPROOT/nice"
check "iowhy run exits 0" test $? = 0
check "a run that never fell behind: workload and iowhy at $base ($(cat "$TMPROOT/nice"))" \
	test "$(cat "$TMPROOT/nice")" = "$base $base"
check "... and no time raised" test "$(jqr "$J" .probes.consumer_raised_ns)" = 0

# behind: raised, the workload not (nice levels +0, +5; -15, whose raise stops at -20)
for lv in "+0:nice -n 0" "+5:nice -n 5" "-15:nice -n -40 nice -n 5"; do
	name=${lv%%:*}
	read -ra pre <<<"${lv#*:}"
	"${pre[@]}" env IOWHY_TEST_CONSUMER_BEHIND=1 "$IOWHY" run -q --repeat 2 --json "$J" \
		-o "$TMPROOT/out.txt" -- sh -c "$show" >"$TMPROOT/nice"
	check "$name: iowhy run --repeat 2 exits 0" test $? = 0
	want=$("${pre[@]}" nice)
	up=$((want - 10 < -20 ? -20 : want - 10))
	second=$(sed -n 2p "$TMPROOT/nice")
	check "$name: the run started by the raised consumer runs at $want, iowhy at $up ($second)" \
		test "$second" = "$want $up"
	check "$name: probes.consumer_nice $up" test "$(jqr "$J" .probes.consumer_nice)" = "$up"
	check "$name: probes.consumer_raised_ns above 0" fcmp "$(jqr "$J" .probes.consumer_raised_ns) > 0"
done
# run -u: the fork path, the nice restored before the user is dropped to
if id nobody >/dev/null 2>&1; then
	IOWHY_TEST_CONSUMER_BEHIND=1 "$IOWHY" run -q -u nobody --repeat 2 -o "$TMPROOT/out.txt" -- \
		sh -c "$show" >"$TMPROOT/nice"
	check "run -u nobody exits 0" test $? = 0
	check "run -u: the second run at $base, iowhy at $((base - 10)) ($(sed -n 2p "$TMPROOT/nice"))" \
		test "$(sed -n 2p "$TMPROOT/nice")" = "$base $((base - 10))"
else
	skip_part "no user nobody: the fork path is not tried"
fi

# A real storm: two million getppid calls from one process per CPU into 1 MiB rings put the
# consumer behind, on any host (one process alone did not on a host where getppid costs 1.1 us: its
# ring peaked at 122,648 of 1,048,576 bytes, below the eighth that counts as behind); it is raised.
# The witness that it was behind: the ring's own peak fill.
cpus=$(nproc)
# shellcheck disable=SC2016 # expanded by the workload's shell
IOWHY_RINGBUF_MB=1 "$IOWHY" run -q --no-io --json "$J" -o "$TMPROOT/out.txt" -- \
	sh -c 'for i in $(seq "$1"); do "$2" getppid 1000000 & done; wait' _ "$cpus" "$CALIB" >/dev/null
peak=$(jqr "$J" .probes.event_ring_peak_bytes) size=$(jqr "$J" .probes.event_ring_bytes)
lost=$(jqr "$J" .events.lost)
check "a syscall storm into small rings filled one past an eighth (peak $peak of $size bytes, $lost lost)" \
	fcmp "$peak > $size / 8 || $lost > 0"
check "... and the consumer was raised for a while ($(jqr "$J" .probes.consumer_raised_ns) ns)" \
	fcmp "$(jqr "$J" .probes.consumer_raised_ns) > 0"
