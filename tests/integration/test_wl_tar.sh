# tar: the archive iowhy builds is one GNU tar reads; each member's byte range holds that member.
#
# witness: GNU tar -t, -tv and -xO of the archive (40 members of 30,000 bytes, 25 gzipped), and
#   md5sum of dd's byte range of 4 members against tar's extraction; tolerance: exact; observed:
#   not recorded
# witness: the command line's counts (4 readers x 41 headers + 40 members = 204 preads);
#   tolerance: exact; observed: not recorded
# witness: NOT independent: tar's own facts (checksums_ok 40 and 25, headers_read 160);
#   tolerance: exact; observed: not recorded
# witness: behaviour: --archive refuses to overwrite; tolerance: exact; observed: not recorded
need_root
$IOWHY tar --help >/dev/null 2>&1 || skip "iowhy tar is not wired into main.c"
a=$TMPROOT/a.tar j=$TMPROOT/t.json
$IOWHY tar --no-io --members 40 --member-size 30000 --readers 4 --archive "$a" --json "$j" >"$TMPROOT/out" \
	|| fail "tar exited $?"
check "GNU tar lists 40 members" test "$(tar -tf "$a" | wc -l)" = 40
check "GNU tar -t agrees on sizes" test "$(tar -tvf "$a" | awk '$3 != 30000' | wc -l)" = 0
check "all 40 members read back with their checksums" test "$(jqr "$j" '.phases[0].facts.checksums_ok')" = 40
check "each reader read every header" test "$(jqr "$j" '.phases[0].facts.headers_read')" = 160
ok=0
for k in 0 1 17 39; do
	name=$(printf 'm%06d.bin' $k)
	off=$((k * (512 + 30208) + 512))
	x=$(tar -xOf "$a" "$name" | md5sum)
	y=$(dd if="$a" bs=1M iflag=skip_bytes,count_bytes skip=$off count=30000 status=none | md5sum)
	[ "$x" = "$y" ] && ok=$((ok+1))
done
check "byte ranges hold what GNU tar extracts (4 members)" test "$ok" = 4
n=$(sys_count "$j" 0 pread64)
check "preads: 4 readers x (40 headers + the end block) + 40 members (got $n)" test "$n" = 204

g=$TMPROOT/a.tar.gz
$IOWHY tar --no-io --members 25 --member-size 4k --readers 3 --gzip --archive "$g" --json "$j" >"$TMPROOT/out" \
	|| fail "tar --gzip exited $?"
check "gzip: GNU tar lists 25 members" test "$(tar -tzf "$g" | wc -l)" = 25
check "gzip: all 25 checksums match" test "$(jqr "$j" '.phases[0].facts.checksums_ok')" = 25
check "--archive refuses to overwrite" bash -c "! $IOWHY tar --archive '$g' 2>/dev/null"
