# bigfile: 64M with bs 1k is exactly 65,536 write calls; fallocate allocates, truncate is sparse.
# The file is gone when iowhy ends (it unlinks it after each run), so the test's witness of what
# the fallocate and truncate runs did to it is strace -f of the same run (-ff -y -v: each process's
# calls with the file behind each descriptor, and the stat structures the kernel returned).
#
# witness: the command line's size / bs (64 MiB in 1 KiB writes: 65,536), one syncfs, one
#   fallocate, one ftruncate; tolerance: exact; observed: exact (5 runs, 2 beside two CPU spinners)
# witness: the test's own clock around the dd run (timed): the flush phase's real time (write loop
#   + flush, as bigfile measured it) no longer than the whole run; tolerance: a bound; observed:
#   44-59% of it (5 runs, 2 beside spinners)
# witness: strace of the same run: fallocate(FD<.../bigfile>, 0, 0, 67108864) = 0 once, and
#   ftruncate(FD<.../bigfile>, 67108864) = 0 once, each in a process of its own phase, with no
#   write to the file; the kernel's reply to the stat bigfile makes of the file after each (decoded
#   by strace -v, not by iowhy): st_size 67,108,864 both times, st_blocks x 512 >= 64 MiB after
#   fallocate, <= 4 KiB after ftruncate; tolerance: exact, and those bounds; observed: 131,072 and
#   0 blocks (5 runs, 2 beside spinners)
# consistency only (NOT independent: bigfile's own facts, figures iowhy wrote): writes 65,536, real
#   >= write seconds, dd's rate >= the real rate, file_size and allocated_bytes equal to the stat
#   strace decoded; tolerance: exact
# witness: behaviour: the flush phase follows, the text shows dd's view, the scratch area is
#   removed (the test's ls); tolerance: exact; observed: not recorded
# No check_phase_invariants here (a built-in workload: no calib witness can stand between; the
# traced CPU is checked against a witness elsewhere).
need_root
$IOWHY bigfile --help >/dev/null 2>&1 || skip "iowhy bigfile is not wired into main.c"
command -v strace >/dev/null || skip "strace not installed (tests/install-deps.sh installs it)"
j=$TMPROOT/b.json
timed $IOWHY bigfile -v --no-io --size 64M --bs 1k --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" ||
	fail "bigfile exited $?"
n=$(sys_count "$j" 0 write)
check "dd bs=1k: write count exactly 65,536 (got $n)" test "$n" = 65536
check "flush phase follows, with one syncfs" test "$(jqr "$j" '.phases[1].kind')/$(sys_count "$j" 1 syncfs)" = flush/1
rs=$(jqr "$j" '.phases[1].facts.real_seconds')
check "flush phase: the real time $rs s (write loop + flush) within the test's own timing of the run $TIMED_NS ns" \
	fcmp "$rs > 0 && $rs * 1e9 <= $TIMED_NS"
# consistency only: bigfile's own figures (NOT independent)
check "dd bs=1k: the workload counted 65,536 writes (consistency)" test "$(jqr "$j" '.phases[0].facts.writes')" = 65536
check "flush phase: real time >= write loop (consistency)" fcmp "$rs >= $(jqr "$j" '.phases[1].facts.write_seconds')"
check "flush phase: dd's rate >= the real rate (consistency)" fcmp "$(jqr "$j" '.phases[1].facts.dd_rate') >= $(jqr "$j" '.phases[1].facts.real_rate')"
check "text report shows dd's view" grep -q "dd's view" "$TMPROOT/out"

S=$TMPROOT/st
mkdir "$S"
strace -f -ff -q -v --seccomp-bpf -y -s0 -e trace=write,fallocate,ftruncate,newfstatat,statx,stat \
	-o "$S/s" "$IOWHY" bigfile --no-io --size 64M --method fallocate,truncate --dir "$TMPROOT" --json "$j" \
	>"$TMPROOT/out" || fail "bigfile fallocate,truncate exited $?"
# each call on the file, with the pid (the strace file) that made it
calls() { grep -HE "^$1\([0-9]+<[^>]*/bigfile>" "$S"/s.* | sed 's|^.*/s\.\([0-9]*\):|\1 |'; }
fa=$(calls fallocate) tr=$(calls ftruncate)
echo "  strace: ${fa:-no fallocate}; ${tr:-no ftruncate}"
check "strace: one fallocate of the whole 64 MiB, mode 0, returning 0" \
	test "$(grep -cE '^[0-9]+ fallocate\([0-9]+<[^>]*>, 0, 0, 67108864\) += 0$' <<<"$fa")/$(grep -c . <<<"$fa")" = 1/1
check "strace: one ftruncate to 64 MiB, returning 0" \
	test "$(grep -cE '^[0-9]+ ftruncate\([0-9]+<[^>]*>, 67108864\) += 0$' <<<"$tr")/$(grep -c . <<<"$tr")" = 1/1
check "strace: the two calls in processes of their own (phases: ${fa%% *} and ${tr%% *})" \
	test -n "${fa%% *}" -a -n "${tr%% *}" -a "${fa%% *}" != "${tr%% *}"
check "strace: no write to the file ($(calls write | grep -c .))" test "$(calls write | grep -c .)" = 0
# the kernel's reply to each stat of the file (strace -v decodes it), in order: after fallocate,
# after ftruncate
mapfile -t st < <(cat "$S"/s.* | grep -E '^(newfstatat|statx|stat)\(.*"bigfile"' | grep -E '\) += 0$' |
	sed -nE 's/.*st_blocks=([0-9]+), st_size=([0-9]+).*/\1 \2/p')
echo "  strace: stat of the file (blocks, size): ${st[*]}"
read -r fb fs <<<"${st[0]:-}"; read -r tb ts <<<"${st[1]:-}"
check "the kernel's stat after fallocate: size ${fs:-?} = 67108864, ${fb:-?} blocks x 512 >= 64 MiB" \
	fcmp "${#st[@]} == 2 && ${fs:-0} == 67108864 && ${fb:-0} * 512 >= 67108864"
check "the kernel's stat after ftruncate: size ${ts:-?} = 67108864, ${tb:-?} blocks x 512 <= 4 KiB (sparse)" \
	fcmp "${#st[@]} == 2 && ${ts:-0} == 67108864 && ${tb:-1e9} * 512 <= 4096"
check "fallocate: iowhy counts one fallocate call" test "$(sys_count "$j" 0 fallocate)" = 1
check "truncate: iowhy counts one ftruncate call" test "$(sys_count "$j" 2 ftruncate)" = 1
# consistency only: bigfile's own figures from that stat (NOT independent)
check "bigfile's own figures = the stat strace decoded (consistency)" test \
	"$(jqr "$j" '[.phases[0].facts.file_size, .phases[0].facts.allocated_bytes / 512, .phases[2].facts.file_size, .phases[2].facts.allocated_bytes / 512] | map(tostring) | join(" ")')" \
	= "${fs:-} ${fb:-} ${ts:-} ${tb:-}"
check "scratch area removed" test -z "$(ls -A "$TMPROOT" | grep -vx -e b.json -e out -e st)"
