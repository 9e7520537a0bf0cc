# Page faults: 64 MiB of fresh anonymous memory touched page by page is 16,384 faults. iowhy reads
# the kernel's own per-task counters at exec and exit, so the comm row must agree with what the
# program itself gets from getrusage (which also holds its few faults between fork and exec).
need_root
j=$TMPROOT/r.json
out=$($IOWHY run --no-io --json "$j" -- "$CALIB" touch 64 | sed -n 's/^faults \([0-9]*\)$/\1/p') ||
	fail "iowhy run exited $?"
n=$(comm_field "$j" 0 calib faults)
check "the program counted its own faults (got '$out')" test -n "$out"
check "calib has >= 16384 faults (got $n)" test "$n" -ge 16384
check "calib faults $n within 2% of its getrusage count $out" within "$n" "${out:-0}" 2
check_phase_invariants "$j" 0
