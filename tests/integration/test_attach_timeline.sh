# iowhy attach --timeline: a write+fsync loop on a loop-device ext4 of our own, attached with -p,
# --cgroup and -a. The file parses; per task the slices tile its life in the window (no gap, no
# overlap, none ending before it begins); the target, there before the window, has a track from
# the window's start to its end whose state times equal the report's work view; the loop device has
# a track with the io report's requests (same count, queue and device time) and a flow from the
# target's syscall that queued its data; queue depth, dirty bytes and tasks-by-state counters are
# there; --timeline-max cuts it and says so; the target runs on untouched afterwards.
#
# witness: none independent (iowhy against itself): the timeline file against iowhy's own JSON
#   report of the same run: the phase slice = wall_ns (+-0.0015 us), per-state times = the work
#   view's (0.1% + 100 ns), the loop device's requests, queue and device time = the io report's
#   (exact); observed: not recorded
# witness: behaviour: the file parses, slices tile each task's life (+-0.0015 us), no negative
#   slice, lanes do not overlap, flows pair up, counters present, --timeline-max 40 cuts at 40
#   and says so, the target alive and working after the detach; tolerance: exact;
#   observed: not recorded
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_attach.sh
source tests/integration/lib_timeline.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
make_loop_ext4 128
make_test_cgroup iowhy-test-attach-tl

# (a pause of 2 ms after each fsync: a few hundred calls a second, not ~10,000: the timeline is
# what the jq checks below read, again and again)
start_bg P "$TGT" fsync "$MNT/f" "$TMPROOT/calls" 4096 2000
sleep 0.5
T=$TMPROOT/p.tl.json
J=$TMPROOT/p.json
"$IOWHY" attach -p "$P" --duration 1 --timeline "$T" -j "$J" -o "$TMPROOT/p.txt" 2>"$TMPROOT/p.err"
rc=$?
check "attach -p --timeline exits 0 (got $rc)" [ "$rc" = 0 ]
# The figures the checks below take from the timeline and from the report, one jq pass over each
# file, '|' between values (a pass a figure, ~30 over the timeline, took 10-30 s on a loaded host;
# tl_negative, tl_untiled and tl_lane_overlaps make three more). Each expression is the one a
# check read before with a jq of its own; a jq error is a failed check (jqr).
# shellcheck disable=SC2016 # jq's $variables
IFS='|' read -r parses ph_name ph_n w0 wd n first last fst tname tl_states n_state rq_n rq_queue \
	rq_dev rq_lost rq_cut dev_tracks flows_bad fl qd_bad nd dirty_neg < <(jqr "$T" '
	[.traceEvents[] | select(.cat == "phase")] as $ph |
	[.traceEvents[] | select(.ph == "X" and .pid < 1073741824 and .cat != "phase")] as $sl |
	($sl | map(select(.tid == $p))) as $tg |
	[.traceEvents[] | select(.cat == "request" and .args.dev == $dev)] as $rq |
	def state($c): $sl | map(select(.cat == $c) | .dur) | add // 0 | . * 1000;
	[(.traceEvents | length > 0),
	 $ph[0].name, ($ph | length), $ph[0].ts, $ph[0].dur,
	 ($tg | length), ($tg | min_by(.ts) | .ts), ($tg | map(.ts + .dur) | max),
	 ($tg | min_by(.ts) | .name),
	 ([.traceEvents[] | select(.name == "thread_name" and .tid == $p) | .args.name] | first),
	 (["user", "kernel", "runq", "iowait", "other"] | map(state(.) | tostring) | join(",")),
	 ([.traceEvents[] | select(.name == "tree tasks by state")] | length),
	 ($rq | length), ($rq | map(.args.queue_ns) | add), ($rq | map(.args.device_ns) | add),
	 .otherData.requests_lost, .otherData.cut,
	 ([.traceEvents[] | select(.name == "process_name" and .args.name == "device \($dev)")] |
	  length),
	 ([.traceEvents[] | select(.ph == "s" or .ph == "f")] | group_by(.id) |
	  map(select(length != 2 or (map(.ph) | sort) != ["f", "s"])) | length),
	 ([.traceEvents[] | select(.ph == "s" and .tid == $p)] | length),
	 ([.traceEvents[] | select(.name == "process_name" and .args.name == "device \($dev)") |
	  .pid] as $d | [.traceEvents[] | select(.name == "queue depth" and .pid == $d[0])] |
	  if length == 0 then -1 else ([.[].args[] | select(. < 0)] | length) end),
	 ([.traceEvents[] | select(.name == "dirty bytes")] | length),
	 ([.traceEvents[] | select(.name == "dirty bytes") | .args[] | select(. < 0)] | length)
	] | map(tostring) | join("|")' --argjson p "$P" --arg dev "$LOOPNAME")
check "the timeline parses as JSON (jq)" test "$parses" = true
[ -s "$J" ] || { fail "no JSON report: $(cat "$TMPROOT/p.err")"; finish; }
IFS='|' read -r wall_us js_states want rep_queue rep_dev \
	< <(jqr "$J" '. as $r | [.phases[0].wall_ns / 1000,
	 (["user_ns", "kernel_ns", "runq_ns", "iowait_ns", "other_ns"] |
	  map(. as $k | [$r.phases[0].comms[][$k]] | add // 0 | tostring) | join(",")),
	 ([.phases[].io.requests[] | select(.name == $dev)] | (map(.requests) | add // 0),
	  (map(.queue_ns.total) | add), (map(.device_ns.total) | add))
	] | map(tostring) | join("|")' --arg dev "$LOOPNAME")

# --- the tasks: one phase, the window; the target's track spans it ---
check "one phase slice, named attach" test "$ph_name" = attach
check "and only one" test "$ph_n" = 1
echo "  window: ts $w0 µs, $wd µs long; the report's wall $wall_us µs"
check "the phase slice is the report's window ($wd vs $wall_us µs)" fcmp "($wd - $wall_us)^2 <= 0.0015^2"
check "every slice begins at or before its end" test "$(tl_negative "$T")" = 0
bad=$(tl_untiled "$T")
check "per task the slices tile its life: no gap, no overlap ($bad off)" test "$bad" = 0
echo "  target $P: $n slices from $first to $last µs (the first: $fst)"
check "the target's tid has a track ($n slices)" fcmp "$n >= 20"
check "seeded: its track begins at the window's start ($first vs $w0)" \
	fcmp "($first - $w0)^2 <= 0.0015^2"
check "and ends at the window's end ($last vs $w0 + $wd)" fcmp "($last - $w0 - $wd)^2 <= 0.003^2"
check "its track is named after it" test "$tname" = attach_target
# the same model: each state's time in the timeline is the work view's
IFS=, read -ra tls <<<"$tl_states"
IFS=, read -ra jss <<<"$js_states"
i=0
for st in user kernel runq iowait other; do
	check "$st time in the timeline = the work view's (${tls[i]} vs ${jss[i]} ns)" \
		fcmp "(${tls[i]} - ${jss[i]})^2 <= (0.001 * ${jss[i]} + 100)^2"
	i=$((i + 1))
done
check "the tasks-by-state counter is there" fcmp "$n_state >= 2"

# --- the loop device's track ---
n=$rq_n
echo "  $LOOPNAME: $n requests in the timeline, $want in the io report; lost $rq_lost"
check "a device track named after $LOOPNAME" test "$dev_tracks" = 1
check "not cut, no request lost" test "$rq_cut $rq_lost" = "false 0"
check "$LOOPNAME's track holds the io report's $want requests ($n)" test "$n" = "$want"
check "the target's fsyncs made requests ($n)" fcmp "$n >= 10"
check "queue time: the timeline's = the io report's" test "$rq_queue" = "$rep_queue"
check "device time: the timeline's = the io report's" test "$rq_dev" = "$rep_dev"
pairs=$(tl_lane_overlaps "$T")
check "requests on one lane never overlap ($(grep -c . <<<"$pairs") pairs do)" test -z "$pairs"
check "flows pair up, one id each" test "$flows_bad" = 0
check "flows from the target's syscalls to its requests ($fl)" fcmp "$fl >= 1"
check "queue depth of $LOOPNAME: samples, none negative" test "$qd_bad" = 0
# sampled every 10 ms while the window is open: tens of samples in 1 s, not one at its end
check "dirty bytes sampled through the window ($nd samples), none negative" \
	test "$dirty_neg" = 0 -a "$nd" -ge 20

# --- the bound ---
"$IOWHY" attach -p "$P" --duration 1 --timeline "$TMPROOT/cut.json" --timeline-max 40 \
	-o "$TMPROOT/cut.txt" 2>"$TMPROOT/cut.err"
check "a cut timeline still exits 0" test $? = 0
check "and says so on stderr" grep -q "timeline.*cut at" "$TMPROOT/cut.err"
check "cut: the file says so" test "$(jqr "$TMPROOT/cut.json" .otherData.cut)" = true
check "cut: 40 slices and requests" test "$(jqr "$TMPROOT/cut.json" '[.traceEvents[] |
	select(.ph == "X" and (.cat != "phase" and .cat != "queue" and .cat != "device"))] |
	length')" = 40
check "cut: an instant event marks it" \
	test "$(jqr "$TMPROOT/cut.json" '[.traceEvents[] | select(.ph == "i")] | length')" = 1
check "cut: what is kept still tiles" test "$(tl_untiled "$TMPROOT/cut.json")" = 0

# --- --cgroup and -a: the same guarantees ---
echo "$P" >"$CG/cgroup.procs" || skip "cannot move the target into $CG"
for how in cgroup all; do
	F=$TMPROOT/$how.json
	if [ $how = cgroup ]; then
		"$IOWHY" attach --cgroup "$CG" --duration 1 --timeline "$F" -o "$TMPROOT/$how.txt" 2>"$TMPROOT/$how.err"
	else # (the whole machine: a short window keeps the file and jq's work small)
		"$IOWHY" attach -a --duration 0.5 --timeline "$F" -o "$TMPROOT/$how.txt" 2>"$TMPROOT/$how.err"
	fi
	check "$how: exits 0" test $? = 0
	# whether it parses, the target's first slice against the phase's start, the processes with a
	# track, cut? (and what it left out), in one jq pass over a file of megabytes (-a)
	read -r parses first w0 procs cut devs left <<<"$(jqr "$F" "[.traceEvents[] | select(.ph == \"X\" and
		.pid < 1073741824)] as \$x | [(.traceEvents | length > 0),
		([\$x[] | select(.tid == $P)] | min_by(.ts) | .ts // -1),
		([\$x[] | select(.cat == \"phase\")][0].ts), ([\$x[] | select(.cat != \"phase\") |
		.pid] | unique | length), .otherData.cut, ([.traceEvents[] | select(.name ==
		\"process_name\" and .args.name == \"device $LOOPNAME\")] | length),
		(.otherData.slices_left_out + .otherData.requests_left_out)] | map(tostring) |
		join(\" \")")"
	check "$how: the timeline parses" test "$parses" = true
	check "$how: every slice begins at or before its end" test "$(tl_negative "$F")" = 0
	bad=$(tl_untiled "$F")
	check "$how: per task the slices tile ($bad off)" test "$bad" = 0
	check "$how: the target's track begins at the window's start ($first vs $w0)" \
		fcmp "($first - $w0)^2 <= 0.0015^2"
	if [ "$cut" = true ]; then # (-a on a busy host: the bound reached)
		check "$how: cut, and the file says what it left out ($left)" fcmp "$left > 0"
	else
		check "$how: a device track for $LOOPNAME" test "$devs" = 1
	fi
done
check "all: more than the target's process ($procs processes)" fcmp "$procs >= 2"

# after the detach: alive, and still counting
kill -USR1 "$P"
for _ in $(seq 50); do [ -s "$TMPROOT/calls" ] && break; sleep 0.1; done
# (the last fsync's end, not the number of lines: the target keeps the last 2^20 calls, and a
# fast host makes more than that in the test's two minutes)
n1=$(tail -n 1 "$TMPROOT/calls" | awk '{ print $2 }')
sleep 0.5
kill -USR1 "$P"
sleep 0.5
n2=$(tail -n 1 "$TMPROOT/calls" | awk '{ print $2 }')
check "the target keeps running after the detach" kill -0 "$P"
check "and keeps doing its work (its last fsync ended at $n1, then at $n2 ns)" \
	fcmp "${n2:-0} > ${n1:-0}"
