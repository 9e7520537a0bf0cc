# --timeline FILE: Chrome trace-event JSON of every tree task's states. It parses; every slice
# begins at or before its end; per task the slices tile its life without overlap; the phases are
# there; --timeline-max cuts it and the file (and stderr) say so.
need_root
T=$TMPROOT/t.json
"$IOWHY" run --no-io --timeline "$T" --json "$TMPROOT/r.json" -- \
	sh -c 'for i in 1 2 3 4 5; do cat /etc/hostname >/dev/null; done; sleep 0.02' \
	>"$TMPROOT/out.txt" 2>&1
check "run --timeline exits 0" test $? = 0
check "the timeline parses as JSON" bash -c "jq -e '.traceEvents | length > 0' '$T' >/dev/null"
n=$(jqr "$T" '[.traceEvents[] | select(.ph == "X" and .cat != "phase")] | length')
echo "  $n task slices"
check "task slices ($n)" fcmp "$n >= 20"
check "every slice begins at or before its end" \
	test "$(jqr "$T" '[.traceEvents[] | select(.ph == "X") | select(.dur < 0)] | length')" = 0
# per task: sorted by start, each slice starts where the one before ended (3-decimal µs)
bad=$(jqr "$T" '[.traceEvents[] | select(.ph == "X" and .cat != "phase")] | group_by(.tid)
	| map(sort_by(.ts) | . as $s | [range(1; length) | select(($s[.].ts - ($s[. - 1].ts +
	  $s[. - 1].dur)) | (if . < 0 then -. else . end) > 0.0015)] | length) | add')
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
