# read: the MD5 iowhy computes equals md5sum's; the user's file is left alone.
#
# witness: md5sum of the file the test wrote, against the MD5 iowhy read printed, and again after
#   (the file unchanged); tolerance: exact; observed: exact (5 runs, 2 beside two CPU spinners)
# witness: the CRC-32 of the file as gzip computes it (the last 8 bytes of gzip -c: CRC-32, then
#   the size), against the crc32 iowhy read computed with O_DIRECT in 2 threads; tolerance: exact;
#   observed: exact (5 runs, 2 beside spinners)
# witness: the file's size by the test's stat (20,000,000 bytes) and the command line's sizes
#   (1 MiB reads; --size 8M in 64 KiB reads): the bytes of read calls in the 1 MiB phases equal
#   to it, 8,388,608 with --size; tolerance: exact, and >= 20 and >= 128 read calls (lower
#   bounds); observed: exact (5 runs, 2 beside spinners)
# consistency only (NOT independent: read's own facts, figures iowhy wrote): md5_matches,
#   crc32_matches, bytes; tolerance: exact
# No check_phase_invariants here (built-in workloads: no calib witness can stand between).
# exclusive: drops the page cache
need_root
$IOWHY read --help >/dev/null 2>&1 || skip "iowhy read is not wired into main.c"
f=$TMPROOT/data
head -c 20000000 /dev/urandom >"$f"
want=$(md5sum "$f" | cut -d' ' -f1)
size=$(stat -c %s "$f")
# the CRC-32 gzip computed of the file: its trailer's first 4 bytes, little-endian
crc=$(gzip -c "$f" | tail -c 8 | od -An -tu4 -N4 | tr -d ' ')
rb() { jqr "$1" "[.phases[$2].syscalls[] | select(.name == \"read\") | .bytes] | add // 0"; }
j=$TMPROOT/r.json
$IOWHY read -v --no-io "$f" --bs 4k,1M --hash md5 --json "$j" >"$TMPROOT/out" || fail "read exited $?"
got=$(grep -oE 'md5 [0-9a-f]{32}' "$TMPROOT/out" | sort -u)
check "md5 equals md5sum ($want)" test "$got" = "md5 $want"
check "read's own check against a separate read, in both columns (consistency)" \
	test "$(jqr "$j" '[.phases[].facts.md5_matches] | add')" = 2
check "bs=1M: 20 MB in at least 20 read calls of at most 1 MiB ($(sys_count "$j" 1 read))" test "$(sys_count "$j" 1 read)" -ge 20
check "bs=1M: read calls' bytes $(rb "$j" 1) = the file's size $size (stat)" test "$(rb "$j" 1)" = "$size"
check "the file is still there, unchanged" test "$(md5sum "$f" | cut -d' ' -f1)" = "$want"

$IOWHY read --no-io "$f" --bs 1M --direct --hash crc32 --threads 2 --json "$j" >"$TMPROOT/out" || fail "read --direct exited $?"
c=$(jqr "$j" '.phases[0].facts.crc32')
check "O_DIRECT, 2 threads: crc32 $c = gzip's CRC-32 of the file $crc" test "$c" = "$crc"
check "O_DIRECT: read calls' bytes $(rb "$j" 0) = the file's size $size (stat)" test "$(rb "$j" 0)" = "$size"
check "O_DIRECT: read's own check and count, crc32 matches, 20,000,000 bytes (consistency)" \
	test "$(jqr "$j" '.phases[0].facts.crc32_matches')/$(jqr "$j" '.phases[0].facts.bytes')" = 1/20000000

$IOWHY read --no-io --size 8M --bs 64k --drop-caches --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" || fail "read --size exited $?"
check "--size: read calls' bytes $(rb "$j" 0) = 8 MiB" test "$(rb "$j" 0)" = 8388608
check "--size: read's own count, 8 MiB (consistency)" test "$(jqr "$j" '.phases[0].facts.bytes')" = 8388608
check "--size: 128 reads of 64 KiB" test "$(sys_count "$j" 0 read)" -ge 128
