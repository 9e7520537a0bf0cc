# Every option run's --help lists works: --repeat R gives R runs, --drop-caches drops the page cache
# before each run, --sync DIR adds a flush phase; --dir does not apply to run (exit 2).
# exclusive: drops the page cache
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --repeat 2 --json "$j" -- true 2>/dev/null; rc=$?
check "run --repeat 2 exits 0 (got $rc)" test "$rc" = 0
check "2 runs in the JSON" test "$(jqr "$j" '[.phases[] | select(.kind == "work")] | length')" = 2
check "named run#1 and run#2" test "$(jqr "$j" '[.phases[].name] | join(",")' -r)" = "run#1,run#2"
$IOWHY run --no-io --repeat 2 --sync "$TMPROOT" --json "$j" -- true 2>/dev/null
check "--repeat 2 --sync: work, flush, work, flush" \
	test "$(jqr "$j" '[.phases[].kind] | join(",")' -r)" = "work,flush,work,flush"
$IOWHY run --no-io --repeat 3 --json "$j" -- sh -c 'test -e '"$TMPROOT"'/second && exit 3; touch '"$TMPROOT"'/second' \
	2>/dev/null; rc=$?
check "the exit status is the first failing run's (got $rc)" test "$rc" = 3

$IOWHY run --no-io --dir /nonexistent -- true >/dev/null 2>"$TMPROOT/err"; rc=$?
check "run --dir /nonexistent exits 2 (got $rc)" test "$rc" = 2
check "with one line" test "$(wc -l <"$TMPROOT/err")" = 1

# --drop-caches: a file read into the page cache is gone from it when the run starts.
if command -v fincore >/dev/null; then
	f=$TMPROOT/cached
	dd if=/dev/urandom of="$f" bs=1M count=8 status=none conv=fsync
	cat "$f" >/dev/null
	resident() { fincore -bn -o RES "$f" | tr -d ' '; }
	before=$(resident)
	$IOWHY run --no-io -- true 2>/dev/null
	kept=$(resident)
	$IOWHY run --no-io --drop-caches -- true 2>/dev/null
	after=$(resident)
	echo "  resident: $before B before, $kept B after a plain run, $after B after --drop-caches"
	check "the file was cached (>= 4 MiB resident)" test "$before" -ge 4194304
	check "a plain run leaves it cached" test "$kept" -ge 4194304
	check "run --drop-caches dropped it (< 1 MiB resident)" test "$after" -lt 1048576
else
	fail "fincore (util-linux) is missing: cannot check --drop-caches"
fi
