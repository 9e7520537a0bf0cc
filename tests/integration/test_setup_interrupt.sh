# Ctrl-C during the untraced setup is not ignored (issue 10, item 4): delete --files 100000 makes
# its tree for several seconds before its traced phase; SIGINT one second in stops the setup, no
# phase starts, iowhy says so in one line and exits 130 at once, and its scratch area is removed.
need_root
d=$TMPROOT/dir
mkdir "$d"
$IOWHY delete --no-io --files 100000 --size 1k --dir "$d" --json "$TMPROOT/j.json" \
	>"$TMPROOT/out" 2>"$TMPROOT/err" &
pid=$!
sleep 1
made=$(find "$d" -type f 2>/dev/null | wc -l)
kill -INT $pid
t0=$(date +%s%N)
wait $pid; rc=$?
secs=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
check "exit status 130 (got $rc)" test "$rc" = 130
check "still in setup when interrupted ($made of 100000 files made)" test "$made" -lt 100000
# Stopping means the next check of the setup loop plus removing what was made: seconds, where
# finishing the setup and running the phase would take far longer (the bound is 20 s, not a timing).
check "stopped within 20 s of the signal (took $secs s)" fcmp "$secs < 20"
check "no traced phase ran (no phase in the report)" test -z "$(grep -E '^== .*phase' "$TMPROOT/out")"
check "one line says so" grep -q "interrupted during setup, before any phase" "$TMPROOT/err"
check "the scratch area is removed" test -z "$(ls -A "$d")"
