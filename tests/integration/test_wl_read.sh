# read: the MD5 iowhy computes equals md5sum's; the user's file is left alone.
#
# witness: md5sum of the file the test wrote, against the MD5 iowhy read printed, and again after
#   (the file unchanged); tolerance: exact; observed: not recorded
# witness: the command line's sizes (20,000,000 bytes in 1 MiB reads, 8 MiB in 64 KiB reads);
#   tolerance: >= 20 and >= 128 read calls (lower bounds); observed: not recorded
# witness: NOT independent: read's own facts (md5_matches, crc32_matches, bytes); tolerance:
#   exact; observed: not recorded
# exclusive: drops the page cache
need_root
$IOWHY read --help >/dev/null 2>&1 || skip "iowhy read is not wired into main.c"
f=$TMPROOT/data
head -c 20000000 /dev/urandom >"$f"
want=$(md5sum "$f" | cut -d' ' -f1)
j=$TMPROOT/r.json
$IOWHY read -v --no-io "$f" --bs 4k,1M --hash md5 --json "$j" >"$TMPROOT/out" || fail "read exited $?"
got=$(grep -oE 'md5 [0-9a-f]{32}' "$TMPROOT/out" | sort -u)
check "md5 equals md5sum ($want)" test "$got" = "md5 $want"
check "md5 checked against a separate read in both columns" test "$(jqr "$j" '[.phases[].facts.md5_matches] | add')" = 2
check "bs=1M: 20 MB in 20 read calls of at most 1 MiB" test "$(sys_count "$j" 1 read)" -ge 20
check "the file is still there, unchanged" test "$(md5sum "$f" | cut -d' ' -f1)" = "$want"

$IOWHY read --no-io "$f" --bs 1M --direct --hash crc32 --threads 2 --json "$j" >"$TMPROOT/out" || fail "read --direct exited $?"
check "O_DIRECT, 2 threads: crc32 matches a separate read" test "$(jqr "$j" '.phases[0].facts.crc32_matches')" = 1
check "O_DIRECT: all bytes read" test "$(jqr "$j" '.phases[0].facts.bytes')" = 20000000

$IOWHY read --no-io --size 8M --bs 64k --drop-caches --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" || fail "read --size exited $?"
check "--size: a file of 8 MiB read" test "$(jqr "$j" '.phases[0].facts.bytes')" = 8388608
check "--size: 128 reads of 64 KiB" test "$(sys_count "$j" 0 read)" -ge 128
