# iowhy attach -p: a write+fsync loop on a loop-device ext4, attached for 2 s. Its fsync count equals
# the calls the program itself timed inside the window (±1 at the edges), its I/O wait is on the loop
# device, the wall view closes to the ns, and the program runs on untouched after the detach.
#
# witness: the target's own timed fsync calls (attach_target's file), those that ended inside the
#   window whose edges iowhy reports (seeded_ns, window_end_ns); tolerance: +-2 (one per edge);
#   observed: a 2-call gap once under load (2-6 before the window's end was read at the end)
# witness: none independent (iowhy against itself): I/O wait mostly on the loop device, buckets =
#   wall (exact), unattributed <= 1%, wall_ns 1.9-3 s for --duration 2; observed: not recorded
# witness: behaviour: the target alive and its last fsync later after the detach, no iowhy process
#   or BPF fd left (the test's /proc scan); tolerance: exact; observed: not recorded
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
make_loop_ext4 128

start_bg P "$TGT" fsync "$MNT/f" "$TMPROOT/calls"
sleep 0.5
J=$TMPROOT/a.json
"$IOWHY" attach -p "$P" --duration 2 -j "$J" -o "$TMPROOT/a.txt" 2>"$TMPROOT/a.err"
rc=$?
check "attach -p exits 0 (got $rc)" [ "$rc" = 0 ]
[ -s "$J" ] || { fail "no JSON report"; finish; }

kill -USR1 "$P"
for _ in $(seq 50); do [ -s "$TMPROOT/calls" ] && break; sleep 0.1; done
# the calls that ended between the target's seeding (its syscalls count from there) and the end;
# one call may straddle each edge (the one in progress at seeding is not counted as a call, the
# one in progress at the end is cut), so the two counts agree within one per edge
start=$(jqr "$J" '.phases[0].attach.seeded_ns')
end=$(jqr "$J" '.phases[0].attach.window_end_ns')
own=$(awk -v s="$start" -v e="$end" '$2 >= s && $2 <= e { n++ } END { print n + 0 }' "$TMPROOT/calls")
traced=$(sys_count "$J" 0 fsync)
echo "  fsync: traced $traced, the program's own count in the window $own"
check "fsync count equals the program's own within one per edge ($traced vs $own)" \
	fcmp "$traced - $own <= 2 && $own - $traced <= 2 && $own > 10"

iow=$(jqr "$J" '.phases[0].wall.iowait_ns // 0')
loop_iow=$(jqr "$J" "[.phases[0].iowait_by_device[] | select(.name == \"$LOOPNAME\") | .ns] | add // 0")
echo "  I/O wait $iow ns, on $LOOPNAME $loop_iow ns"
top=$(jqr "$J" '.phases[0].iowait_by_device | max_by(.ns) | .name')
echo "  by device: $(jqr "$J" '.phases[0].iowait_by_device' -c)"
# (the rest goes mostly to vda, the loop file's disk, whose completions come just before the
# loop device's on a busy machine)
check "I/O wait is there, on $LOOPNAME first (top: $top)" fcmp "$iow > 0"
check "$LOOPNAME has the largest share and most of it" \
	fcmp "$([ "$top" = "$LOOPNAME" ] && echo 1 || echo 0) == 1 && $loop_iow >= 0.5 * $iow"
wall=$(jqr "$J" '.phases[0].wall_ns')
sum=$(jqr "$J" '.phases[0].wall | .user_ns + .kernel_ns + .runq_ns + .iowait_ns + .other_ns + .unattributed_ns')
un=$(jqr "$J" '.phases[0].wall.unattributed_ns')
echo "  wall $wall ns, buckets + unattributed $sum ns, unattributed $un ns"
check "the wall view closes: buckets = wall to the ns ($sum vs $wall)" fcmp "$sum == $wall && $wall > 0"
check "unattributed under 1% of the window" fcmp "$un <= 0.01 * $wall"
check "the window is about 2 s" fcmp "$wall >= 1.9e9 && $wall <= 3e9"
check "the target is named" grep -q "pid $P" "$TMPROOT/a.txt"

# after the detach: alive, and still counting
# (the last fsync's end, not the number of lines: the target keeps only its last 2^20 calls)
n1=$(tail -n 1 "$TMPROOT/calls" | awk '{ print $2 }')
sleep 0.5
kill -USR1 "$P"
sleep 0.5
n2=$(tail -n 1 "$TMPROOT/calls" | awk '{ print $2 }')
check "the program keeps running after the detach" kill -0 "$P"
check "and keeps doing its work (its last fsync ended at $n1, then at $n2 ns)" \
	fcmp "${n2:-0} > ${n1:-0}"
check "nothing of iowhy's stays (no process, no BPF fd)" \
	[ "$(leftovers -p "$P" --duration 2 -j "$J" -o "$TMPROOT/a.txt")" = 0 ]

# the raw_tp fallback (per-task state in a tid hash): the same count
kill -USR1 "$P"
J2=$TMPROOT/raw.json
IOWHY_PROBE_MODE=raw_tp "$IOWHY" attach -p "$P" --duration 2 -j "$J2" -o "$TMPROOT/raw.txt" 2>/dev/null
check "raw_tp: attach -p exits 0" [ "$?" = 0 ]
kill -USR1 "$P"
sleep 1
start=$(jqr "$J2" '.phases[0].attach.seeded_ns')
end=$(jqr "$J2" '.phases[0].attach.window_end_ns')
own=$(awk -v s="$start" -v e="$end" '$2 >= s && $2 <= e { n++ } END { print n + 0 }' "$TMPROOT/calls")
traced=$(sys_count "$J2" 0 fsync)
check "raw_tp: probe mode raw_tp" [ "$(jqr "$J2" .probe_mode)" = raw_tp ]
check "raw_tp: fsync count equals the program's own within one per edge ($traced vs $own)" \
	fcmp "$traced - $own <= 2 && $own - $traced <= 2 && $own > 10"
