# --folded FILE: FlameGraph folded stacks of the CPU samples. Every line is "frames count" with no
# space inside the frames, the counts add up to the samples the JSON reports as recorded, kernel
# frames carry _[k], and with two phases (--sync) every line starts with its phase's name.
need_root
j=$TMPROOT/r.json
f=$TMPROOT/stacks.folded
$IOWHY run --no-io --sync "$TMPROOT" --folded "$f" --json "$j" -- \
	sh -c "\"$CALIB\" getppid 300000; \"$CALIB\" touch 32" >/dev/null || fail "iowhy run exited $?"
check "the folded file exists and is not empty" test -s "$f"
bad=$(grep -cvE '^[^ ]+ [0-9]+$' "$f")
check "every line matches '^[^ ]+ [0-9]+\$' ($bad do not)" test "$bad" = 0
sum=$(awk '{ s += $NF } END { print s + 0 }' "$f")
rec=$(jqr "$j" '[.phases[].cpu_samples.recorded] | add')
check "the counts add up to the recorded samples ($sum vs $rec)" test "$sum" = "$rec"
check "calib's getppid shows with kernel frames" grep -qE '^run;calib;.*__x64_sys_getppid_\[k\]' "$f"
phases=$(jqr "$j" '[.phases[].name] | join("|")')
other=$(grep -cvE "^($phases);" "$f")
check "every line starts with a phase name ($phases): $other do not" test "$other" = 0
# errors: no samples to write, and a file that cannot be created
$IOWHY run --no-io --no-sample --folded "$TMPROOT/x" -- true >/dev/null 2>"$TMPROOT/err"
check "--folded with --no-sample is bad input (exit $?)" grep -q -- '--folded' "$TMPROOT/err"
$IOWHY run --no-io --folded /nonexistent/dir/x -- true >/dev/null 2>"$TMPROOT/err2"
rc=$?
check "an unwritable --folded file fails the run (exit $rc)" test "$rc" != 0
check "with one line saying so" grep -q -- '--folded /nonexistent/dir/x' "$TMPROOT/err2"
