# rand: exactly K preads in the syscall table, K x bs bytes; fsbench prints its four columns.
#
# witness: the command line's counts (--ops 1000 preads of 4 KiB per phase, fsbench --ops 500
#   preads and pwrites); tolerance: exact; observed: not recorded
# witness: NOT independent: rand's own facts (bytes 4,096,000, ops 1000, p99 >= p50 > 0, fsbench
#   rates > 0); tolerance: exact; observed: not recorded
# witness: behaviour: the columns named after the sweep, fsbench's four columns, the scratch area
#   removed (the test's ls); tolerance: exact; observed: not recorded
need_root
$IOWHY rand --help >/dev/null 2>&1 || skip "iowhy rand is not wired into main.c"
j=$TMPROOT/r.json
$IOWHY rand --no-io --size 16M --bs 4k --ops 1000 --workers 1,4 --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" \
	|| fail "rand exited $?"
for i in 0 1; do
	n=$(sys_count "$j" $i pread64)
	check "phase $i: pread64 count exactly 1000 (got $n)" test "$n" = 1000
	check "phase $i: 4,096,000 bytes read in all" test "$(jqr "$j" ".phases[$i].facts.bytes")" = 4096000
	check "phase $i: the workload counted 1000 ops too" test "$(jqr "$j" ".phases[$i].facts.ops")" = 1000
	p50=$(jqr "$j" ".phases[$i].facts.lat_p50_ns") p99=$(jqr "$j" ".phases[$i].facts.lat_p99_ns")
	check "phase $i: p99 $p99 >= p50 $p50 > 0" fcmp "$p99 >= $p50 && $p50 > 0"
done
check "columns named after the sweep" test "$(jqr "$j" '[.phases[].column] | join(",")')" = "workers=1,workers=4"
check "scratch area removed" test -z "$(ls -A "$TMPROOT" | grep -v -e r.json -e out)"

$IOWHY fsbench --no-io --size 8M --ops 500 --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" || fail "fsbench exited $?"
check "fsbench: four columns" test "$(jqr "$j" '[.phases[].column] | join(",")')" = "seq read,rand read,seq write,rand write"
check "fsbench: rand read did exactly 500 preads" test "$(sys_count "$j" 1 pread64)" = 500
check "fsbench: rand write did exactly 500 pwrites" test "$(sys_count "$j" 3 pwrite64)" = 500
check "fsbench: every column has a rate" test "$(jqr "$j" '[.phases[].facts.rate > 0] | all')" = true
