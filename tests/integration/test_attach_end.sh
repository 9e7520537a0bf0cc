# How an attach window ends: a -p target that exits ends it (exit 0, the exit noted in text and
# JSON, the window ends at the exit); Ctrl-C and SIGTERM end it normally (exit 0, a full report,
# not partial); on a terminal the interval blocks redraw in place.
#
# witness: behaviour: the -p target's exit ends the window: exit 0, under 20 s of the 30 asked by
#   the test's own clock, the exit noted in text and JSON; tolerance: exact; observed: not recorded
# witness: behaviour: SIGINT and SIGTERM: exit 0, a full report, the target alive, the stop hint;
#   tolerance: exact; observed: not recorded
# witness: behaviour: on a terminal (script(1)) >= 2 cursor-up escapes, none in a file;
#   tolerance: exact; observed: not recorded
need_root
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"

# the target exits after about 1.5 s; iowhy was told to stay 30 s
sleep 3 &
S=$!
J=$TMPROOT/e.json
start=$(date +%s.%N)
"$IOWHY" attach -p "$S" --duration 30 -j "$J" -o "$TMPROOT/e.txt" 2>"$TMPROOT/e.err"
rc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
check "a target's exit ends the window: exit 0 (got $rc)" [ "$rc" = 0 ]
check "long before --duration (${secs} s)" fcmp "$secs < 20"
check "JSON notes the exit" [ "$(jqr "$J" '.phases[0].attach.ended')" = "pid $S exited" ]
check "the text notes it" grep -q "ended: pid $S exited" "$TMPROOT/e.txt"
check "the sleeper is listed as exited" [ "$(jqr "$J" '.phases[0].attach.processes[0].exited')" = true ]
wait "$S"

for sig in INT TERM; do
	build_attach_target
	start_bg P "$TGT" sleep
	"$IOWHY" attach -p "$P" -j "$TMPROOT/$sig.json" -o "$TMPROOT/$sig.txt" 2>"$TMPROOT/$sig.err" &
	W=$!
	wait_started "$TMPROOT/$sig.err" || fail "attach did not start"
	sleep 0.5
	kill -"$sig" "$W"
	wait "$W"
	rc=$?
	check "SIG$sig ends the window normally: exit 0 (got $rc)" [ "$rc" = 0 ]
	check "SIG$sig: a full report, not partial" [ "$(jqr "$TMPROOT/$sig.json" '.partial')" = false ]
	check "SIG$sig: the target is still there" kill -0 "$P"
	check "SIG$sig: without --duration the start line says how to stop" grep -q "Ctrl-C to stop" "$TMPROOT/$sig.err"
done

# on a terminal (script(1) gives one) a block moves the cursor up over the previous one
if command -v script >/dev/null; then
	script -qec "$IOWHY attach -p $P --duration 2.5 --interval 500ms -o $TMPROOT/t.txt" \
		"$TMPROOT/tty.out" >/dev/null 2>&1
	ups=$(grep -c $'\033\\[[0-9]*A' "$TMPROOT/tty.out")
	check "on a terminal the blocks redraw in place ($ups cursor moves)" [ "$ups" -ge 2 ]
	check "into a file there are none" bash -c "! grep -q $'\\033' '$TMPROOT/t.txt'"
else
	skip "script(1) missing"
fi
