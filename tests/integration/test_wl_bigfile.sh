# bigfile: 64M with bs 1k is exactly 65,536 write calls; fallocate allocates, truncate is sparse.
#
# witness: the command line's size / bs (64 MiB in 1 KiB writes: 65,536), one syncfs, one
#   fallocate, one ftruncate; tolerance: exact; observed: not recorded
# witness: NOT independent: bigfile's own facts (writes, file_size, allocated_bytes, real and
#   write seconds, dd and real rates), not the test's stat of the file; tolerance: exact, >= 64
#   MiB allocated, <= 4 KiB sparse, real >= write; observed: not recorded
# witness: behaviour: the flush phase follows, the text shows dd's view, the scratch area is
#   removed (the test's ls); tolerance: exact; observed: not recorded
need_root
$IOWHY bigfile --help >/dev/null 2>&1 || skip "iowhy bigfile is not wired into main.c"
j=$TMPROOT/b.json
$IOWHY bigfile -v --no-io --size 64M --bs 1k --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" || fail "bigfile exited $?"
n=$(sys_count "$j" 0 write)
check "dd bs=1k: write count exactly 65,536 (got $n)" test "$n" = 65536
check "dd bs=1k: the workload counted 65,536 writes" test "$(jqr "$j" '.phases[0].facts.writes')" = 65536
check "flush phase follows, with one syncfs" test "$(jqr "$j" '.phases[1].kind')/$(sys_count "$j" 1 syncfs)" = flush/1
check "flush phase: real time = write loop + flush" fcmp "$(jqr "$j" '.phases[1].facts.real_seconds') >= $(jqr "$j" '.phases[1].facts.write_seconds')"
check "flush phase: dd's rate and the real rate both reported" fcmp "$(jqr "$j" '.phases[1].facts.dd_rate') >= $(jqr "$j" '.phases[1].facts.real_rate')"
check "text report shows dd's view" grep -q "dd's view" "$TMPROOT/out"

$IOWHY bigfile --no-io --size 64M --method fallocate,truncate --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" \
	|| fail "bigfile fallocate,truncate exited $?"
check "fallocate: 64 MiB file" test "$(jqr "$j" '.phases[0].facts.file_size')" = 67108864
check "fallocate: all of it allocated" fcmp "$(jqr "$j" '.phases[0].facts.allocated_bytes') >= 67108864"
check "fallocate: one fallocate call" test "$(sys_count "$j" 0 fallocate)" = 1
check "truncate: 64 MiB file" test "$(jqr "$j" '.phases[2].facts.file_size')" = 67108864
check "truncate: sparse (at most 4 KiB allocated)" fcmp "$(jqr "$j" '.phases[2].facts.allocated_bytes') <= 4096"
check "truncate: one ftruncate call" test "$(sys_count "$j" 2 ftruncate)" = 1
check "scratch area removed" test -z "$(ls -A "$TMPROOT" | grep -v -e b.json -e out)"
