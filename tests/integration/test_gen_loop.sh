# gen loop: one writer process per file, each exec'd and exiting once.
#
# witness: the command line's count (300 writers, each exec'd and exiting once); tolerance: exact;
#   observed: not recorded
# witness: NOT independent: the files on disk as iowhy's gen counted them (.facts.files,
#   files_wrong_size); tolerance: exact; observed: not recorded
# witness: behaviour: the scratch area removed (the test's ls); tolerance: exact; observed: not
#   recorded
# witness: none independent: check_phase_invariants (lib.sh); observed: not recorded
need_root
j=$TMPROOT/r.json
$IOWHY gen --no-io --strategy loop --count 300 --size 10k --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" \
	|| fail "gen exited $?"
w=$(command -v dd >/dev/null && echo dd || echo iowhy-writer)
ex=$(comm_field "$j" 0 "$w" execs); ez=$(comm_field "$j" 0 "$w" exits)
check "exactly 300 execs of $w (got $ex)" test "$ex" = 300
check "exactly 300 exits of $w (got $ez)" test "$ez" = 300
check "300 files on disk of 10 KiB" test "$(jqr "$j" '.phases[0].facts.files')" = 300
check "no file of the wrong size" test "$(jqr "$j" '.phases[0].facts.files_wrong_size')" = 0
check "the scratch area is gone" test -z "$(ls "$TMPROOT" | grep '^iowhy-')"
check_phase_invariants "$j" 0
