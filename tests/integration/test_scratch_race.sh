# An unprivileged user who owns --dir races iowhy: it swaps the scratch directory for a symlink
# to a root-owned canary directory (renameat2 RENAME_EXCHANGE) and plants links, while gen, copy
# and delete run there (issue 10, item 1). Nothing outside the scratch area may ever be touched:
# the canary keeps exactly its files, nothing is written into it, and nothing iowhy made stays.
#
# witness: the canary directory the test made (find's listing and md5sum before and after, its
#   files' content) and the racer's own count of swaps; tolerance: exact (unchanged, > 0 swaps,
#   every run succeeded, nothing of root's left in --dir); observed: not recorded
# witness: behaviour: copy --to under another user's directory: exit 2, one line saying why,
#   nothing created; tolerance: exact; observed: not recorded
# io beside others: every run is --no-io; the checks are of the files and directories alone
need_root
command -v setpriv >/dev/null || skip "no setpriv"
command -v cc >/dev/null || skip "no C compiler for tests/racer.c"
cc -O2 -o "$TMPROOT/racer" tests/racer.c || skip "cannot build tests/racer.c"
chmod 755 "$TMPROOT" "$TMPROOT/racer"
race=$TMPROOT/race canary=$TMPROOT/canary
mkdir -p "$race" "$canary/sub"
chown 65534:65534 "$race"
for k in 1 2 3 4 5; do echo "canary $k" >"$canary/c$k"; done
echo deep >"$canary/sub/deep"
before=$(cd "$canary" && find . -printf '%p %s %m\n' | sort | md5sum)

runs=0 swapped=0 failed_runs=0
# race_run SUBCOMMAND ARGS...: one iowhy run in the raced --dir; counts runs and failures
race_run() {
	runs=$((runs + 1))
	$IOWHY "$@" --no-io --dir "$race" >>"$TMPROOT/log" 2>&1 || failed_runs=$((failed_runs + 1))
}
for round in 1 2 3 4; do
	# bounded: at most 2,000,000 rounds, and stopped (SIGTERM) once the runs are done
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TMPROOT/racer" "$race" "$canary" 2000000 >"$TMPROOT/swaps.$round" 2>"$TMPROOT/racer.err" &
	racer=$!
	on_exit "kill $racer"
	race_run gen --strategy loop,split --size 4k --count 100
	race_run copy --files 100 --size 4k --mode inproc,process
	race_run delete --files 100 --size 4k --mode inproc
	race_run bigfile --size 1M --method dd,fallocate
	kill -TERM $racer 2>/dev/null
	wait $racer
	swapped=$((swapped + $(cat "$TMPROOT/swaps.$round" 2>/dev/null || echo 0)))
done
echo "  $runs runs, the racer swapped the scratch directory $swapped times"
# The runs themselves go on in a directory being swapped (they work through their own fds).
check "every run succeeded despite the racer ($failed_runs failed)" test "$failed_runs" = 0
[ "$failed_runs" = 0 ] || grep "^iowhy" "$TMPROOT/log" | grep -v "^iowhy [a-z]*: iowhy" | head -5
check "the racer did swap the scratch directory (swaps: $swapped)" test "$swapped" -gt 0
after=$(cd "$canary" && find . -printf '%p %s %m\n' | sort | md5sum)
check "the canary directory is exactly as it was (no file deleted, none written)" test "$before" = "$after"
check "the canary's files still hold their content" test "$(cat "$canary"/c* "$canary/sub/deep" | md5sum)" = \
	"$( (for k in 1 2 3 4 5; do echo "canary $k"; done; echo deep) | md5sum)"
# What is left in --dir belongs to the racer (its links), never a directory or file of root's.
left=$(find "$race" -mindepth 1 -user 0 -printf '%p\n' | head -5)
check "nothing iowhy made is left in --dir (${left:-none})" test -z "$left"
# --to is written by name (the copies are kept): under a directory another user can change, it is
# refused with one line that says what to use instead (test_wl_copy runs --to in a root-owned one).
$IOWHY copy --no-io --files 5 --size 1k --to "$race/out" >"$TMPROOT/out" 2>"$TMPROOT/err"; rc=$?
check "copy --to under a directory another user owns exits 2 (got $rc)" test "$rc" = 2
check "with one line saying why and what to use" \
	test "$(wc -l <"$TMPROOT/err")/$(grep -c 'only root or you can write' "$TMPROOT/err")" = 1/1
check "and creates nothing there" test ! -e "$race/out"
finish
