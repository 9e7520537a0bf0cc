# The built-in workloads' one-line progress: on a terminal (a pty from script(1)) gen shows
# done/total with a rate and an ETA for its traced runs, its untraced verification and the
# scratch area's removal; -q silences it; a stderr that is not a terminal never gets it, and the
# report (-o, or stdout redirected) never holds any of it. IOWHY_PROGRESS_DELAY=0 shows a line at
# once (the default waits half a second), so short runs show one too.
#
# witness: behaviour: under a pty (script(1)) gen's progress lines (done/2,000 with a share, rate
#   and ETA; verifying; removing 2,001 entries), each erased; none with -q, none on a stderr that
#   is not a terminal, none in the report (-o or stdout); tolerance: exact; observed: not recorded
need_root
command -v script >/dev/null || skip "script (util-linux) missing"
export IOWHY_PROGRESS_DELAY=0
mkdir -p "$TMPROOT/w"
gen="$IOWHY gen --strategy direct --size 1k --count 2000 --dir $TMPROOT/w"
script -qec "$gen -o $TMPROOT/r1.txt" /dev/null >"$TMPROOT/tty1" 2>&1
rc=$?
check "gen under a pty exits 0 (got $rc)" [ "$rc" = 0 ]
lines=$(tr '\r' '\n' <"$TMPROOT/tty1")
check "the run's line: done/total files, a share, a rate and an ETA" \
	grep -qE '^gen direct: [0-9,]+/2,000 files \([0-9.]+%\), [0-9,]+/s, ETA ' <<<"$lines"
check "the untraced verification has its line" grep -qE '^gen direct: verifying: [0-9,]+/2,000 files' <<<"$lines"
check "so does the scratch area's removal (2,001 entries expected)" \
	grep -qE '^removing the scratch area: [0-9,]+/2,001 entries' <<<"$lines"
check "each line is erased when its step ends" grep -q $'\r\033\[K' "$TMPROOT/tty1"
check "the report file holds none of it" bash -c "! grep -qE $'files \\\\(|\r|\033' '$TMPROOT/r1.txt'"
check "the report file is a report" grep -q "where the wall time went" "$TMPROOT/r1.txt"

script -qec "$gen > $TMPROOT/r2.txt" /dev/null >"$TMPROOT/tty2" 2>&1
check "stdout redirected: the report there holds none of it" \
	bash -c "grep -q 'where the wall time went' '$TMPROOT/r2.txt' && ! grep -qE $'files \\\\(|\r' '$TMPROOT/r2.txt'"
check "while the terminal still got it" grep -q "gen direct: " "$TMPROOT/tty2"

script -qec "$gen -q -o $TMPROOT/r3.txt" /dev/null >"$TMPROOT/tty3" 2>&1
check "-q: no progress line" bash -c "! grep -qE 'files \\(|removing the scratch' '$TMPROOT/tty3'"

$gen -o "$TMPROOT/r4.txt" 2>"$TMPROOT/err4" </dev/null
check "stderr not a terminal: no progress line" bash -c "! grep -qE $'files \\\\(|removing the scratch|\r' '$TMPROOT/err4'"
