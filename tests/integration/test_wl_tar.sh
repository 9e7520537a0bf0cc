# tar: the archive iowhy builds is one GNU tar reads; each member's byte range holds that member.
#
# witness: GNU tar -t, -tv and -x of the archive (40 members of 30,000 bytes; 25 of 4,096 bytes
#   gzipped), and cmp of dd's byte range of every member against what GNU tar extracted; tolerance:
#   exact; observed: exact (5 runs, 2 beside two CPU spinners)
# witness: the command line's counts and GNU tar's layout (4 readers x 41 header blocks of 512
#   bytes + 40 members of 30,000 bytes: 204 preads, 1,283,968 bytes); tolerance: exact; observed:
#   exact (5 runs, 2 beside spinners)
# consistency only (NOT independent: tar's own facts, figures iowhy wrote): checksums_ok 40 and
#   25, headers_read 160; tolerance: exact
# witness: behaviour: --archive refuses to overwrite; tolerance: exact; observed: not recorded
# No check_phase_invariants here (built-in workloads: no calib witness can stand between).
need_root
$IOWHY tar --help >/dev/null 2>&1 || skip "iowhy tar is not wired into main.c"
a=$TMPROOT/a.tar j=$TMPROOT/t.json
$IOWHY tar --no-io --members 40 --member-size 30000 --readers 4 --archive "$a" --json "$j" >"$TMPROOT/out" \
	|| fail "tar exited $?"
check "GNU tar lists 40 members" test "$(tar -tf "$a" | wc -l)" = 40
check "GNU tar -t agrees on sizes" test "$(tar -tvf "$a" | awk '$3 != 30000' | wc -l)" = 0
check "tar's own count: all 40 members read back with their checksums (consistency)" \
	test "$(jqr "$j" '.phases[0].facts.checksums_ok')" = 40
check "tar's own count: each reader read every header (consistency)" test "$(jqr "$j" '.phases[0].facts.headers_read')" = 160
mkdir "$TMPROOT/x"
tar -xf "$a" -C "$TMPROOT/x" || fail "GNU tar -x exited $?"
ok=0
for k in $(seq 0 39); do
	name=$(printf 'm%06d.bin' $k)
	off=$((k * (512 + 30208) + 512))
	dd if="$a" bs=1M iflag=skip_bytes,count_bytes skip=$off count=30000 status=none |
		cmp -s - "$TMPROOT/x/$name" && ok=$((ok+1))
done
check "byte ranges hold what GNU tar extracts ($ok of 40 members)" test "$ok" = 40
n=$(sys_count "$j" 0 pread64)
b=$(jqr "$j" '[.phases[0].syscalls[] | select(.name == "pread64") | .bytes] | add // 0')
check "pread64 bytes: 4 readers x 41 header blocks of 512 + 40 members of 30,000 = 1,283,968 (got $b)" \
	test "$b" = 1283968
check "preads: 4 readers x (40 headers + the end block) + 40 members (got $n)" test "$n" = 204

g=$TMPROOT/a.tar.gz
$IOWHY tar --no-io --members 25 --member-size 4k --readers 3 --gzip --archive "$g" --json "$j" >"$TMPROOT/out" \
	|| fail "tar --gzip exited $?"
check "gzip: GNU tar lists 25 members" test "$(tar -tzf "$g" | wc -l)" = 25
check "gzip: GNU tar -tv agrees on sizes (4,096)" test "$(tar -tvzf "$g" | awk '$3 != 4096' | wc -l)" = 0
check "gzip: tar's own count: all 25 checksums match (consistency)" test "$(jqr "$j" '.phases[0].facts.checksums_ok')" = 25
check "--archive refuses to overwrite" bash -c "! $IOWHY tar --archive '$g' 2>/dev/null"
