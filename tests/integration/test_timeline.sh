# --timeline FILE: Chrome trace-event JSON of every tree task's states. It parses; every slice
# begins at or before its end; per task the slices tile its life without overlap; the phases are
# there; --timeline-max cuts it and the file (and stderr) say so. Then the device tracks (below).
#
# witness: none independent (iowhy against itself): the timeline against iowhy's JSON of the same
#   run: user time = the work view's (0.1% + 100 ns), the loop device's requests, queue and device
#   time = the io report's (exact); observed: not recorded
# witness: the set-up: sh, five cat and a sleep (>= 7 tracks, >= 20 slices); dd's 64 O_DIRECT
#   writes to the test's loop device (>= 64 requests, >= 64 flows from dd's write); tolerance:
#   lower bounds; observed: not recorded
# witness: behaviour: the file parses, slices tile each task's life (+-0.0015 us), none negative,
#   parts inside their request, lanes do not overlap, flows pair up, counters never negative,
#   --timeline-max 10 cuts at 10 and says so, bad --timeline-max and a symlink exit 2;
#   tolerance: exact; observed: not recorded
# witness: iowhy's BPF maps read by the test from its /proc fdinfo during a run; tolerance: exact
#   (ring buffer 4 KiB and bio map 64 entries without --timeline, 4 MiB with); observed: not
#   recorded
need_root
source tests/integration/lib_timeline.sh
T=$TMPROOT/t.json
"$IOWHY" run --no-io --timeline "$T" --json "$TMPROOT/r.json" -- \
	sh -c 'for i in 1 2 3 4 5; do cat /etc/hostname >/dev/null; done; sleep 0.02' \
	>"$TMPROOT/out.txt" 2>&1
check "run --timeline exits 0" test $? = 0
check "the timeline parses as JSON" bash -c "jq -e '.traceEvents | length > 0' '$T' >/dev/null"
n=$(jqr "$T" '[.traceEvents[] | select(.ph == "X" and .cat != "phase")] | length')
echo "  $n task slices"
check "task slices ($n)" fcmp "$n >= 20"
check "every slice begins at or before its end" test "$(tl_negative "$T")" = 0
# per task: sorted by start, each slice starts where the one before ended (3-decimal µs)
bad=$(tl_untiled "$T")
check "per task the slices tile its life: no gap, no overlap ($bad off)" test "$bad" = 0
tasks=$(jqr "$T" '[.traceEvents[] | select(.ph == "X" and .cat != "phase") | .tid] | unique | length')
check "one track per tree task: sh, cat x5, sleep ($tasks tids)" fcmp "$tasks >= 7"
# the states' time per task adds up to the work view's (same model, same numbers)
tl_user=$(jqr "$T" '[.traceEvents[] | select(.ph == "X" and .cat == "user") | .dur] | add * 1000')
js_user=$(jqr "$TMPROOT/r.json" '[.phases[0].comms[].user_ns] | add')
check "user time in the timeline = the work view's ($tl_user vs $js_user ns)" \
	fcmp "($tl_user - $js_user)^2 <= (0.001 * $js_user + 100)^2"
check "the phase is a slice of its own" \
	test "$(jqr "$T" '[.traceEvents[] | select(.cat == "phase")] | length')" = 1
check "not cut" test "$(jqr "$T" .otherData.cut)" = false
# cut
"$IOWHY" run --no-io --timeline "$TMPROOT/c.json" --timeline-max 10 -- \
	sh -c 'for i in 1 2 3; do cat /etc/hostname >/dev/null; done' >/dev/null 2>"$TMPROOT/err"
check "a cut timeline still exits 0" test $? = 0
check "and says so on stderr" grep -q "timeline.*cut at 10 slices" "$TMPROOT/err"
check "cut: 10 slices" \
	test "$(jqr "$TMPROOT/c.json" '[.traceEvents[] | select(.ph == "X" and .cat != "phase")] | length')" = 10
check "cut: the file says so" test "$(jqr "$TMPROOT/c.json" .otherData.cut)" = true
check "cut: an instant event marks it" \
	test "$(jqr "$TMPROOT/c.json" '[.traceEvents[] | select(.ph == "i")] | length')" = 1
"$IOWHY" run --no-io --timeline-max 0x -- true >/dev/null 2>&1
check "a bad --timeline-max exits 2" test $? = 2
ln -s "$TMPROOT/target" "$TMPROOT/link.json"
"$IOWHY" run --no-io --timeline "$TMPROOT/link.json" -- touch "$TMPROOT/ran" >/dev/null 2>&1
check "a --timeline through a symlink exits 2" test $? = 2
check "before running anything" test ! -e "$TMPROOT/ran"
# Device tracks: O_DIRECT writes to a loop device of our own. Every request is a slice (its queue
# and device parts inside it) on a lane of its device; the loop device's track holds as many
# requests as the io report counts for it, with the same queue and device time; every request dd
# queued has a flow from dd's write to it, and the flows pair up; queue depth and dirty bytes are
# counters that never go negative.
img=$TMPROOT/dev.img
truncate -s 64M "$img"
on_exit "rm -f '$img'"
LOOP=$(losetup --find --show "$img") || skip "no free loop device"
on_exit "losetup -d '$LOOP'"
LN=$(basename "$LOOP")
D=$TMPROOT/d.json
"$IOWHY" run --timeline "$D" --json "$TMPROOT/dr.json" -- \
	dd if=/dev/zero of="$LOOP" bs=64k count=64 oflag=direct status=none >"$TMPROOT/out.txt" 2>&1
check "run --timeline with the I/O probes exits 0" test $? = 0
check "the timeline with devices parses as JSON (jq)" bash -c "jq -e '.traceEvents | length > 0' '$D' >/dev/null"
reqs() { jqr "$D" "[.traceEvents[] | select(.cat == \"request\" and .args.dev == \"$LN\")] | $1"; }
rep() { jqr "$TMPROOT/dr.json" "[.phases[].io.requests[] | select(.name == \"$LN\")] | $1"; }
n=$(reqs length); want=$(rep 'map(.requests) | add // 0')
echo "  $LN: $n requests in the timeline, $want in the io report"
if [ "$(jqr "$D" .otherData.cut)" = true ]; then
	check "cut: the file says how many requests it left out" fcmp "$(jqr "$D" .otherData.requests_left_out) > 0"
else
	check "$LN's track holds the io report's $want requests ($n)" test "$n" = "$want"
fi
check "at least the 64 writes dd made" fcmp "$n >= 64"
check "queue time: the timeline's = the io report's" \
	test "$(reqs 'map(.args.queue_ns) | add')" = "$(rep 'map(.queue_ns.total) | add')"
check "device time: the timeline's = the io report's" \
	test "$(reqs 'map(.args.device_ns) | add')" = "$(rep 'map(.device_ns.total) | add')"
check "every device slice begins at or before its end" test "$(jqr "$D" '[.traceEvents[] |
	select(.cat == "request" or .cat == "queue" or .cat == "device") | select(.dur < 0)] | length')" = 0
# the queue and device parts lie inside their request, on its lane (3-decimal µs)
bad=$(jqr "$D" '[.traceEvents[] | select(.ph == "X" and (.cat == "request" or .cat == "queue" or
	.cat == "device"))] | group_by([.pid, .tid]) | map(sort_by(.ts, -.dur) | . as $l |
	[range(length) | select($l[.].cat != "request") | . as $i | [$l[0:$i][] |
	select(.cat == "request")] | last | select(. == null or $l[$i].ts < .ts - 0.0005 or
	$l[$i].ts + $l[$i].dur > .ts + .dur + 0.0015)] | length) | add // 0')
check "queue and device parts inside their request ($bad outside)" test "$bad" = 0
pairs=$(tl_lane_overlaps "$D")
check "requests on one lane never overlap ($(grep -c . <<<"$pairs") pairs do)" test -z "$pairs"
head -2 <<<"$pairs"
s=$(jqr "$D" '[.traceEvents[] | select(.ph == "s")] | length')
f=$(jqr "$D" '[.traceEvents[] | select(.ph == "f")] | length')
check "flows pair up: $s starts, $f ends, one id each" test "$(jqr "$D" '[.traceEvents[] |
	select(.ph == "s" or .ph == "f")] | group_by(.id) | map(select(length != 2 or
	(map(.ph) | sort) != ["f", "s"])) | length')" = 0
check "a flow from dd to each of its requests on $LN ($s of $n)" test "$s" -ge 64
inwrite=$(jqr "$D" '[.traceEvents[] | select(.ph == "X" and .pid < 1073741824 and .cat != "phase")]
	as $sl | [.traceEvents[] | select(.ph == "s") | . as $f | [$sl[] | select(.tid == $f.tid and
	.ts <= $f.ts and .ts + .dur >= $f.ts)] | first | select(.name | test(": write$"))] | length')
# (dd's other requests, e.g. reading its own binary from a cold disk at exec, start elsewhere)
check "a flow starts in dd's write for each of its 64 writes ($inwrite of $s flows)" \
	test "$inwrite" -ge 64
check "a device track named after $LN" test "$(jqr "$D" "[.traceEvents[] |
	select(.name == \"process_name\" and .args.name == \"device $LN\")] | length")" = 1
check "queue depth of $LN: samples, none negative" test "$(jqr "$D" '[.traceEvents[] |
	select(.name == "queue depth") | .args[] | select(. < 0)] | length')" = 0
check "queue depth reaches 1 on the device" fcmp "$(jqr "$D" '[.traceEvents[] |
	select(.name == "queue depth") | .args["on device"]] | max // 0') >= 1"
check "dirty bytes: samples, none negative" test "$(jqr "$D" '[.traceEvents[] |
	select(.name == "dirty bytes")] | length as $n | if $n == 0 then -1 else
	([.[] | .args[] | select(. < 0)] | length) end')" = 0
# --no-io: no device tracks, and no request machinery either
check "--no-io: no device tracks" test "$(jqr "$T" '[.traceEvents[] | select(.cat == "request")] | length')" = 0
# The request machinery costs memory only with --timeline: iowhy's own BPF maps (its fdinfo),
# while a run is going: the requests' ring buffer (type 27) and the bio -> task LRU hash (type 9)
# at their minimum (4 KiB, 64 entries) without it, 4 MiB and 32768 entries with it.
# (read once the workload runs, a sleep of a length of its own: every probe set is loaded by then;
# the I/O object loads in a thread of its own while the others load; then the sleep is ended: its
# 3 s are only a bound)
maps_of() { # PID WORKLOAD: "type max_entries" of each BPF map PID holds while WORKLOAD runs
	local w=''
	for _ in $(seq 200); do w=$(pgrep -fx "$2") && break; sleep 0.05; done
	# (all its fds' fdinfo in one awk, each beginning with its "pos:" line: an awk per fd took
	# 4.5 s of a loaded host)
	cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '/^pos:/ { if (t) print t, m; t = m = "" }
		/^map_type/ { t = $2 } /^max_entries/ { m = $2 } END { if (t) print t, m }'
	[ -z "$w" ] || kill $w 2>/dev/null
}
"$IOWHY" run --no-sample -- sleep 3.017 >/dev/null 2>&1 &
pid=$!
off=$(maps_of $pid "sleep 3.017")
wait $pid
"$IOWHY" run --no-sample --timeline "$TMPROOT/m.json" -- sleep 3.018 >/dev/null 2>&1 &
pid=$!
on=$(maps_of $pid "sleep 3.018")
wait $pid
check "without --timeline: the requests' ring buffer at 4 KiB" grep -qx '27 4096' <<<"$off"
check "without --timeline: no 4 MiB one" bash -c "! grep -qx '27 4194304' <<<'$off'"
check "without --timeline: the bio -> task map at 64 entries" grep -qx '9 64' <<<"$off"
check "with --timeline: the ring buffer at 4 MiB" grep -qx '27 4194304' <<<"$on"
check "with --timeline: no 4 KiB one" bash -c "! grep -qx '27 4096' <<<'$on'"
