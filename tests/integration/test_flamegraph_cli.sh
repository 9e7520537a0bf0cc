# iowhy flamegraph: folded stacks to a well-formed SVG; malformed input refused in one line, exit 2.
#
# witness: the folded file the test wrote: one drawn frame per distinct stack prefix (counted by
#   the test's awk), xmllint's verdict, names escaped, stdin's SVG the same; tolerance: exact;
#   observed: not recorded
# witness: behaviour: malformed lines, a missing and an empty file: exit 2, one line naming the
#   line; tolerance: exact; observed: not recorded
printf 'main;read;vfs_read 30\nmain;write 10\nmain;read;vfs_read 5\n<b>&"x";y 5\n' >"$TMPROOT/ok.folded"
$IOWHY flamegraph "$TMPROOT/ok.folded" >"$TMPROOT/ok.svg" 2>"$TMPROOT/err"; rc=$?
check "a good folded file gives exit 0 (got $rc)" test "$rc" = 0
check "and nothing on stderr" test ! -s "$TMPROOT/err"
if command -v xmllint >/dev/null; then
	check "the SVG is well-formed XML" xmllint --noout "$TMPROOT/ok.svg"
fi
# unique frames: every distinct prefix of every stack
uniq_frames=$(awk '{ sub(/[ \t]+[0-9]+$/, ""); n = split($0, f, ";"); p = "";
	for (i = 1; i <= n; i++) { p = p ";" f[i]; seen[p] = 1 } } END { print length(seen) }' \
	"$TMPROOT/ok.folded")
drawn=$(grep -c '<g class="f"' "$TMPROOT/ok.svg")
check "one frame per distinct stack prefix ($drawn drawn, $uniq_frames in the file)" \
	test "$drawn" = "$uniq_frames"
check "hostile names are escaped" grep -q '&lt;b&gt;&amp;&quot;x&quot;' "$TMPROOT/ok.svg"
check "no raw <b> from a frame name" bash -c "! grep -q '<b>' '$TMPROOT/ok.svg'"
cat "$TMPROOT/ok.folded" | $IOWHY flamegraph - >"$TMPROOT/stdin.svg"
check "'-' reads stdin, same SVG" cmp -s "$TMPROOT/ok.svg" "$TMPROOT/stdin.svg"
for bad in 'a;b' 'a;b x' 'a;;b 3' 'a;b 1.5' '3'; do
	printf 'ok 1\n%s\n' "$bad" >"$TMPROOT/bad.folded"
	$IOWHY flamegraph "$TMPROOT/bad.folded" >"$TMPROOT/out" 2>"$TMPROOT/err"; rc=$?
	check "malformed line '$bad' exits 2 (got $rc)" test "$rc" = 2
	check "with one line on stderr naming line 2" \
		bash -c "[ \$(wc -l <'$TMPROOT/err') = 1 ] && grep -q 'line 2:' '$TMPROOT/err'"
done
$IOWHY flamegraph "$TMPROOT/nonexistent" >/dev/null 2>"$TMPROOT/err"; rc=$?
check "a missing file exits 2 (got $rc) in one line" \
	bash -c "[ $rc = 2 ] && [ \$(wc -l <'$TMPROOT/err') = 1 ]"
: >"$TMPROOT/empty.folded"
$IOWHY flamegraph "$TMPROOT/empty.folded" >/dev/null 2>"$TMPROOT/err"; rc=$?
check "no samples exits 2 (got $rc)" test "$rc" = 2
