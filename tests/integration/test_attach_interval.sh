# --interval 1s over 3.5 s: at least 3 blocks while it runs (appended with a timestamp into a file),
# then the report; --json-lines: at least 3 valid JSON objects whose interval times add up to the
# session within 2%. run takes --interval too (its blocks on stderr, the command's stdout untouched).
#
# witness: behaviour: >= 3 timestamped blocks and >= 3 JSON lines, the last final, the final
#   report written; run --interval: >= 3 blocks on stderr, stdout only the command's;
#   tolerance: exact; observed: not recorded
# witness: none independent (iowhy against itself): the intervals' interval_ns summed against the
#   session's wall_ns, each line's buckets against its interval; tolerance: exact to the ns;
#   observed: not recorded
need_root
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
start_bg P "$TGT" fsync "$TMPROOT/f" "$TMPROOT/calls"
J=$TMPROOT/i.json
L=$TMPROOT/i.jsonl
"$IOWHY" attach -p "$P" --duration 3.5s --interval 1s --json-lines "$L" -j "$J" -o "$TMPROOT/i.txt" \
	>"$TMPROOT/blocks" 2>"$TMPROOT/err"
rc=$?
# the fsync loop's part is over: it stops, and the rest (no block I/O) runs beside the next I/O test
kill -9 "$P" 2>/dev/null; wait "$P" 2>/dev/null
io_done
check "attach --interval exits 0 (got $rc)" [ "$rc" = 0 ]
blocks=$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} #[0-9]+ ' "$TMPROOT/blocks")
echo "  $blocks blocks:"; sed 's/^/    /' "$TMPROOT/blocks" | head -12
check "at least 3 timestamped blocks ($blocks)" [ "$blocks" -ge 3 ]
check "blocks show the wall buckets, devices and the slowest call" \
	grep -q "slowest call: fsync" "$TMPROOT/blocks"
check "the final report is written too" grep -q "where the wall time went" "$TMPROOT/i.txt"
n=$(jqr "$L" length -s)
check "--json-lines: at least 3 valid JSON objects ($n)" [ "$n" -ge 3 ]
sum=$(jqr "$L" '[.[].interval_ns] | add' -s)
wall=$(jqr "$J" '.phases[0].wall_ns')
echo "  intervals add up to $sum ns, the session's wall is $wall ns"
check "the intervals add up to the session to the ns ($sum vs $wall)" fcmp "$sum == $wall && $wall > 0"
check "each line's buckets add up to its interval" \
	[ "$(jqr "$L" '[.[] | select((.wall.user_ns + .wall.kernel_ns + .wall.runq_ns + .wall.iowait_ns + .wall.other_ns + .wall.unattributed_ns) != .interval_ns)] | length' -s)" = 0 ]
check "the last line is marked final" [ "$(jqr "$L" '.[-1].final' -s)" = true ]

# run --interval: blocks on stderr; the command's stdout is its own
"$IOWHY" run --interval 500ms -o "$TMPROOT/r.txt" -- sh -c 'sleep 1.6; echo out' \
	>"$TMPROOT/r.out" 2>"$TMPROOT/r.err"
rc=$?
check "run --interval exits 0 (got $rc)" [ "$rc" = 0 ]
check "run's stdout is only the command's" [ "$(cat "$TMPROOT/r.out")" = out ]
rb=$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} #[0-9]+ ' "$TMPROOT/r.err")
check "run --interval 500ms over 1.6 s prints at least 3 blocks on stderr ($rb)" [ "$rb" -ge 3 ]
