# Where the whole command's time went (issue 10, item 14): the untraced setup (making the tree)
# and teardown (checking, removing the scratch area) are reported on one line of the text and in
# the JSON; with the phases' walls they fit in the command's own elapsed time.
#
# witness: the test's own clock around the command (date +%s%N); tolerance: setup + the phases'
#   walls + teardown <= it (a bound); observed: not recorded
# witness: behaviour: setup_ns > 0, teardown_ns > 0, one text line with both; tolerance: exact;
#   observed: not recorded
need_root
j=$TMPROOT/d.json
t0=$(date +%s%N)
# (--mode inproc: the same untraced setup, 2000 files made by iowhy itself, and a traced phase of
# one thread's unlinks instead of 2000 rm processes: 3-6 s, not 30, on a loaded host)
$IOWHY delete --no-io --files 2000 --size 1k --mode inproc --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" 2>&1 \
	|| fail "delete exited $?"
elapsed=$(( $(date +%s%N) - t0 ))
setup=$(jqr "$j" .setup_ns) teardown=$(jqr "$j" .teardown_ns)
walls=$(jqr "$j" '[.phases[].wall_ns] | add')
check "JSON: setup_ns > 0 (making 2000 files: $setup ns)" fcmp "$setup > 0"
check "JSON: teardown_ns > 0 (checks and removal: $teardown ns)" fcmp "$teardown > 0"
check "setup + phases + teardown ($setup + $walls + $teardown ns) <= the command's $elapsed ns" \
	fcmp "$setup + $walls + $teardown <= $elapsed"
check "text: one line with both" test "$(grep -c '^untraced: setup .* before the phases, teardown .* after them' \
	"$TMPROOT/out")" = 1
