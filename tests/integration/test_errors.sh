# Error paths: exit codes and one-line messages.
#
# witness: behaviour: exit codes (1 for false, 127 and the message for a missing command, 143 for
#   SIGTERM, 2 and one line for bad sizes, strategies, --json paths, commands and subcommands, 1
#   and one line unprivileged), nothing run before a refusal; tolerance: exact;
#   observed: not recorded
$IOWHY run --no-io -- false >/dev/null 2>&1; rc=$?
if [ "$(id -u)" = 0 ]; then
	check "run -- false exits 1 (got $rc)" test "$rc" = 1
	$IOWHY run --no-io -- /nonexistent >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "run -- /nonexistent exits 127 (got $rc)" test "$rc" = 127
	check "and says why" grep -q "/nonexistent: No such file or directory" "$TMPROOT/err"
	$IOWHY run --no-io -- no-such-command-xyz >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "unknown command exits 127 (got $rc)" test "$rc" = 127
	check "says command not found" grep -q "no-such-command-xyz: command not found" "$TMPROOT/err"
	$IOWHY run --no-io -- sh -c 'kill -TERM $$' >/dev/null 2>&1; rc=$?
	check "a command killed by SIGTERM gives 143 (got $rc)" test "$rc" = 143
fi
for bad in 0 -1 10q 1.5k "" 2T k; do
	$IOWHY gen --strategy direct --size "$bad" --count 10 --dir "$TMPROOT" >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "gen --size '$bad' exits 2 (got $rc)" test "$rc" = 2
	check "gen --size '$bad' prints one line" test "$(wc -l <"$TMPROOT/err")" = 1
done
$IOWHY gen --strategy nope --size 1k --count 10 >/dev/null 2>&1; rc=$?
check "unknown strategy exits 2 (got $rc)" test "$rc" = 2
if [ "$(id -u)" = 0 ]; then
	$IOWHY run --no-io --json /nonexistent/dir/r.json -- touch "$TMPROOT/ran" >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "an unwritable --json path exits 2 (got $rc)" test "$rc" = 2
	check "before running anything" test ! -e "$TMPROOT/ran"
	check "with one line" test "$(wc -l <"$TMPROOT/err")" = 1
fi
$IOWHY run >/dev/null 2>&1; rc=$?
check "run without a command exits 2 (got $rc)" test "$rc" = 2
$IOWHY frobnicate >/dev/null 2>&1; rc=$?
check "unknown subcommand exits 2 (got $rc)" test "$rc" = 2
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		$IOWHY run -- true >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "unprivileged run exits 1 (got $rc)" test "$rc" = 1
	check "and says it needs root or CAP_BPF+CAP_PERFMON" grep -q "needs root or CAP_BPF" "$TMPROOT/err"
	check "in one line" test "$(wc -l <"$TMPROOT/err")" = 1
fi
