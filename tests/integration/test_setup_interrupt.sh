# Ctrl-C during the untraced setup is not ignored (issue 10, item 4): delete --files 100000 makes
# its tree for several seconds before its traced phase; SIGINT once the setup has made its first
# files stops it, no phase starts, iowhy says so in one line and exits 130 at once, and its scratch
# area is removed.
need_root
d=$TMPROOT/dir
mkdir "$d"
$IOWHY delete --no-io --files 100000 --size 1k --dir "$d" --json "$TMPROOT/j.json" \
	>"$TMPROOT/out" 2>"$TMPROOT/err" &
pid=$!
# The setup is under way once a file of the tree is there (iowhy's signal handlers are set before
# it loads its probes, and the setup comes after): wait for that, not for a time.
for ((i = 0; i < 400; i++)); do # 20 s
	[ -n "$(find "$d" -type f -print -quit 2>/dev/null)" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
made=$(find "$d" -type f 2>/dev/null | wc -l)
if [ "$made" = 0 ]; then
	fail "the setup made no file in 20 s (iowhy $(kill -0 "$pid" 2>/dev/null && echo running || echo exited): $(head -c 200 "$TMPROOT/err"))"
	kill -9 "$pid" 2>/dev/null; wait "$pid"
	finish
fi
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
