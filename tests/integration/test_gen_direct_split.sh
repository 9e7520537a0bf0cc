# gen direct: exactly N*SIZE bytes written by the tree; split: N files of SIZE, no big file.
#
# witness: the command line's N x SIZE (1000 x 1 KiB written by gen direct); tolerance: exact;
#   observed: not recorded
# witness: NOT independent: the files on disk as iowhy's gen counted them (.facts.files,
#   files_wrong_size); tolerance: exact; observed: not recorded
# witness: behaviour: the side-by-side table printed; tolerance: exact; observed: not recorded
# witness: none independent: check_phase_invariants on both phases (lib.sh); observed: not
#   recorded
need_root
j=$TMPROOT/r.json
$IOWHY gen --no-io --strategy direct,split --count 1000 --size 1k --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" \
	|| fail "gen exited $?"
b=$(jqr "$j" '[.phases[0].syscalls[] | select(.name == "write") | .bytes] | add')
check "direct: write bytes in the tree exactly 1,024,000 (got $b)" test "$b" = 1024000
check "direct: 1000 files of 1 KiB on disk" test "$(jqr "$j" '.phases[0].facts.files')" = 1000
check "split: 1000 files on disk" test "$(jqr "$j" '.phases[1].facts.files')" = 1000
check "split: none of the wrong size (the big file is gone)" test "$(jqr "$j" '.phases[1].facts.files_wrong_size')" = 0
check "side-by-side table printed" grep -q "direct" "$TMPROOT/out"
for i in 0 1; do check_phase_invariants "$j" $i; done
