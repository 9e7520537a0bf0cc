# rand: exactly K preads in the syscall table, K x bs bytes; fsbench prints its four columns.
#
# witness: the command line's counts (--ops 1000 preads of 4 KiB per phase: 1000 calls, 4,096,000
#   bytes; fsbench --size 8M --ops 500: 500 preads and 500 pwrites of 4 KiB, 8 MiB read and written
#   sequentially); tolerance: exact; observed: exact (5 runs, 2 beside two CPU spinners)
# consistency only (NOT independent: rand's and fsbench's own facts, figures iowhy wrote): bytes
#   4,096,000, ops 1000, p99 >= p50 > 0, fsbench rates > 0; tolerance: exact
# witness: behaviour: the columns named after the sweep, fsbench's four columns, the scratch area
#   removed (the test's ls); tolerance: exact; observed: not recorded
# No check_phase_invariants here (built-in workloads: no calib witness can stand between).
need_root
$IOWHY rand --help >/dev/null 2>&1 || skip "iowhy rand is not wired into main.c"
j=$TMPROOT/r.json
# sysb JSON IDX NAME: the bytes of a syscall in a phase's table (0 if absent)
sysb() { jqr "$1" "[.phases[$2].syscalls[] | select(.name == \"$3\") | .bytes] | add // 0"; }
$IOWHY rand --no-io --size 16M --bs 4k --ops 1000 --workers 1,4 --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" \
	|| fail "rand exited $?"
for i in 0 1; do
	n=$(sys_count "$j" $i pread64) b=$(sysb "$j" $i pread64)
	check "phase $i: pread64 count exactly 1000 (got $n)" test "$n" = 1000
	check "phase $i: pread64 bytes exactly 1000 x 4 KiB = 4,096,000 (got $b)" test "$b" = 4096000
	check "phase $i: rand's own count, 1000 ops and 4,096,000 bytes (consistency)" \
		test "$(jqr "$j" ".phases[$i].facts.ops")/$(jqr "$j" ".phases[$i].facts.bytes")" = 1000/4096000
	p50=$(jqr "$j" ".phases[$i].facts.lat_p50_ns") p99=$(jqr "$j" ".phases[$i].facts.lat_p99_ns")
	check "phase $i: rand's own latencies, p99 $p99 >= p50 $p50 > 0 (consistency)" fcmp "$p99 >= $p50 && $p50 > 0"
done
check "columns named after the sweep" test "$(jqr "$j" '[.phases[].column] | join(",")')" = "workers=1,workers=4"
check "scratch area removed" test -z "$(ls -A "$TMPROOT" | grep -vx -e r.json -e out)"

$IOWHY fsbench --no-io --size 8M --ops 500 --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" || fail "fsbench exited $?"
check "fsbench: four columns" test "$(jqr "$j" '[.phases[].column] | join(",")')" = "seq read,rand read,seq write,rand write"
check "fsbench: rand read did exactly 500 preads of 4 KiB ($(sys_count "$j" 1 pread64), $(sysb "$j" 1 pread64) B)" \
	test "$(sys_count "$j" 1 pread64)/$(sysb "$j" 1 pread64)" = 500/2048000
check "fsbench: rand write did exactly 500 pwrites of 4 KiB ($(sys_count "$j" 3 pwrite64), $(sysb "$j" 3 pwrite64) B)" \
	test "$(sys_count "$j" 3 pwrite64)/$(sysb "$j" 3 pwrite64)" = 500/2048000
check "fsbench: seq read read the 8 MiB ($(sysb "$j" 0 read) B)" test "$(sysb "$j" 0 read)" = 8388608
check "fsbench: seq write wrote the 8 MiB ($(sysb "$j" 2 write) B)" test "$(sysb "$j" 2 write)" = 8388608
check "fsbench: every column has a rate (consistency)" test "$(jqr "$j" '[.phases[].facts.rate > 0] | all')" = true
