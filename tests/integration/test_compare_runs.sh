# `iowhy compare A.json B.json` on two run reports of known, different workloads: A makes N_A
# getppid calls and K_A sleeps of D ms, B three times as many of each. compare prints a headline
# ("B is X.Xx slower (A a s, B b s): P% of the difference is more PART (A x s, B y s)") and the
# differences ranked, times first, each row's A and B (s, 3 decimals) and its change (B - A).
#
# Witnesses:
# - the two JSON files themselves: every printed row's A and B are their values (wall, wall
#   buckets, time in each syscall, I/O wait by device, device busy) to the printed digits, its
#   change is B - A, the rows are in the order of |B - A|, and the headline's ratio, seconds and
#   share are computed from them;
# - the workloads' own counts: the getppid counts of the two reports differ by exactly N_B - N_A
#   (each run's shell adds the same few); the sleeping each workload asked for (K x D ms) is its
#   other-wait time as compare shows it (nanosleep on hrtimers: the wakeup is on time, the wait for
#   a CPU after it is run-queue wait); and the test's own clock of each workload: the traced
#   command is `calib witness OUT -- bash -c ...` (tests/calib.c), which reads CLOCK_MONOTONIC
#   before it forks the workload and after its last reaping, and its own start CPU and run-queue
#   wait: own <= wall <= own + start + run-queue wait + SLACK, and so for the walls' change and
#   ratio.
# Tolerances (observed over 3 quiet runs and 2 beside two CPU spinners, 2026-12-04, with another
# developer's tests loading the machine: load average 6-10):
# - printed values and changes: exact (the same printf of the same doubles);
# - other waits against K x D: TOL_SLEEP 3 ms a sleep above, TOL_SHORT 0.5 ms a sleep below
#   (observed +0.06 to +0.14 ms a sleep in the 5 runs; before them, at a load average of 10,
#   +1.58 ms once and -0.11 ms once);
# - the wall's bound: SLACK 20 ms (wall - own - start - run-queue wait observed -12.4 to +1.7 ms;
#   -14.1 to +6.5 ms in test_repeat's runs).
need_root
command -v jq >/dev/null || skip "jq missing"
N_A=200000 N_B=600000 K_A=10 K_B=30 D=20 TOL_SLEEP=3000000 TOL_SHORT=500000 SLACK=20000000

# run_wl LABEL NCALLS NSLEEPS: a run report of the workload, under calib witness (tests/calib.c):
# sets OWN_<LABEL> (CLOCK_MONOTONIC from before its fork of the workload to its last reaping) and
# HI_<LABEL> (that plus the witness's own start CPU and run-queue wait, and SLACK: the wall's bound)
run_wl() {
	local label=$1 n=$2 k=$3 j=$TMPROOT/$1.json w=$TMPROOT/$1.witness rc own st rq
	"$IOWHY" run --no-io --json "$j" -o "$TMPROOT/$label.txt" -- "$CALIB" witness "$w" -- bash -c \
		'"$0" getppid "$1"; for ((i = 0; i < $2; i++)); do "$0" sleep "$3"; done' \
		"$CALIB" "$n" "$k" "$D"
	rc=$?
	check "$label: iowhy run exits 0 (got $rc)" test "$rc" = 0
	own=$(awk '$1 == "elapsed_ns" { print $2 }' "$w" 2>/dev/null)
	st=$(awk '$1 == "self_start_cpu_ns" { print $2 }' "$w" 2>/dev/null)
	rq=$(awk '$1 == "self_run_delay_ns" { print $2 }' "$w" 2>/dev/null)
	printf -v "OWN_$label" '%s' "$own"
	printf -v "HI_$label" '%s' "$((own + st + rq + SLACK))"
}
run_wl A "$N_A" "$K_A"
run_wl B "$N_B" "$K_B"
JA=$TMPROOT/A.json JB=$TMPROOT/B.json
[ -s "$JA" ] && [ -s "$JB" ] || { fail "no JSON reports"; finish; }
out=$TMPROOT/compare.txt
"$IOWHY" compare "$JA" "$JB" >"$out" 2>&1
check "iowhy compare exits 0" test $? = 0
sed 's/^/  | /' "$out"

# the workloads' own counts in the reports
ca=$(sys_count "$JA" 0 getppid) cb=$(sys_count "$JB" 0 getppid)
check "getppid: B's $cb - A's $ca = the workloads' $N_B - $N_A exactly" test "$((cb - ca))" = "$((N_B - N_A))"
check "getppid: A's count $ca is calib's $N_A and its shell's few" fcmp "$ca >= $N_A && $ca <= $N_A + 5"

# value WHAT JSON: what compare shows for a row, from the JSON (ns)
value() {
	jqr "$2" '.phases[0] as $p | ($w | sub("^[^:]*: "; "")) as $x |
		if $x == "wall" then $p.wall_ns
		elif $x == "CPU outside syscalls" then $p.wall.user_ns
		elif $x == "kernel CPU in syscalls" then $p.wall.kernel_ns
		elif $x == "user CPU (sampled)" then $p.cpu_split.user_ns
		elif $x == "kernel CPU (sampled)" then $p.cpu_split.kernel_ns
		elif $x == "run-queue wait" then $p.wall.runq_ns
		elif $x == "I/O wait" then $p.wall.iowait_ns
		elif $x == "other waits" then $p.wall.other_ns
		elif ($x | test("^time in .*\\(\\)$")) then
			($x | sub("^time in "; "") | sub("\\(\\)$"; "")) as $s | [$p.syscalls[] | select(.name == $s) | .total_ns] | add // 0
		elif ($x | startswith("I/O wait on ")) then
			($x | sub("^I/O wait on "; "")) as $d | [$p.iowait_by_device[] | select(.name == $d) | .ns] | add // 0
		elif ($x | endswith(" busy")) then
			($x | sub(" busy$"; "")) as $d | [$p.io.devices[]? | select(.name == $d) | .busy_ns] | add // 0
		else error("unknown row \($x)") end' --arg w "$1"
}
f3() { awk -v v="$1" 'BEGIN { printf "%.3f", v / 1e9 }'; }

# every printed row against the two JSON files
rows=$TMPROOT/rows.txt
awk '/^  rank/ { on = 1; next } on && /^  [0-9]+ / { w = $2; for (i = 3; i <= NF - 4; i++) w = w " " $i
	print $1 "\t" w "\t" $(NF - 3) "\t" $(NF - 2) "\t" $(NF - 1) }' "$out" >"$rows"
nrows=$(wc -l <"$rows")
check "compare printed rows ($nrows)" fcmp "$nrows >= 5"
prev='' bad=0 order_ok=1 seen_getppid=0 seen_other=0
while IFS=$'\t' read -r rank what a b ch; do
	va=$(value "$what" "$JA") vb=$(value "$what" "$JB")
	ea=$(f3 "$va") eb=$(f3 "$vb")
	ech=$(awk -v x="$va" -v y="$vb" 'BEGIN { printf "%+.3f", y / 1e9 - x / 1e9 }')
	if [ "$a" != "$ea" ] || [ "$b" != "$eb" ] || [ "$ch" != "$ech" ]; then
		fail "row $rank '$what': printed A $a B $b change $ch; the JSON files give $ea $eb $ech"
		bad=1
	fi
	d=$(awk -v x="$va" -v y="$vb" 'BEGIN { d = y - x; printf "%.0f", (d < 0 ? -d : d) }')
	if [ -n "$prev" ] && fcmp "$d > $prev"; then order_ok=0; fi
	prev=$d
	case $what in
	*"time in getppid()") seen_getppid=1
		check "row '$what': B's $b s more than A's $a s (three times the calls)" fcmp "$vb > $va" ;;
	*": other waits") seen_other=1 oa=$va ob=$vb ;;
	esac
done <"$rows"
[ "$bad" = 0 ] && pass "every row's A, B and change are the JSON files' values (to the printed ms)"
check "the rows are ranked by |B - A|, largest first" test "$order_ok" = 1
check "time in getppid() is among the rows" test "$seen_getppid" = 1
check "other waits is among the rows" test "$seen_other" = 1

# the sleeping the workloads asked for
if [ "$seen_other" = 1 ]; then
	wa=$((K_A * D * 1000000)) wb=$((K_B * D * 1000000))
	check "other waits: A $oa ns = its $K_A x $D ms asked, at most $TOL_SLEEP ns a sleep more, $TOL_SHORT less" \
		fcmp "$oa >= $wa - $K_A * $TOL_SHORT && $oa <= $wa + $K_A * $TOL_SLEEP"
	check "other waits: B $ob ns = its $K_B x $D ms asked, at most $TOL_SLEEP ns a sleep more, $TOL_SHORT less" \
		fcmp "$ob >= $wb - $K_B * $TOL_SHORT && $ob <= $wb + $K_B * $TOL_SLEEP"
	check "other waits: the change $((ob - oa)) ns is the $((wb - wa)) ns more asked, within $TOL_SLEEP ns a sleep" \
		fcmp "abs($ob - $oa - $((wb - wa))) <= $K_B * $TOL_SLEEP"
fi

# the walls against the test's own clock of each workload
wa=$(jqr "$JA" .phases[0].wall_ns) wb=$(jqr "$JB" .phases[0].wall_ns)
echo "  walls A $wa B $wb ns; the workloads' own spans A $OWN_A B $OWN_B ns, bounds A $HI_A B $HI_B ns" \
	"(rest: A $((wa - HI_A + SLACK)) B $((wb - HI_B + SLACK)) ns)"
check "A's wall $wa ns between its own span $OWN_A ns and the bound $HI_A ns" fcmp "$wa >= $OWN_A && $wa <= $HI_A"
check "B's wall $wb ns between its own span $OWN_B ns and the bound $HI_B ns" fcmp "$wb >= $OWN_B && $wb <= $HI_B"
check "the walls' change $((wb - wa)) ns between the spans' bounds $((OWN_B - HI_A)) and $((HI_B - OWN_A)) ns" \
	fcmp "$wb - $wa >= $OWN_B - $HI_A && $wb - $wa <= $HI_B - $OWN_A"

# the headline
head=$(sed -n 2p "$out")
exp=$(awk -v a="$wa" -v b="$wb" 'BEGIN { a /= 1e9; b /= 1e9
	printf "B is %.1fx %s (A %.2f s, B %.2f s)", (a > b ? a / b : b / a), (a > b ? "faster" : "slower"), a, b }')
check "headline starts '$exp' (the JSON walls)" test -n "$exp" -a "${head:0:${#exp}}" = "$exp"
shown=$(sed -n 's/^B is \([0-9.]*\)x .*/\1/p' <<<"$head")
lo=$(awk -v a="$HI_A" -v b="$OWN_B" 'BEGIN { printf "%.4f", b / a }')
hi=$(awk -v a="$OWN_A" -v b="$HI_B" 'BEGIN { printf "%.4f", b / a }')
check "the headline's ratio ${shown}x between the spans' bounds ${lo}x and ${hi}x (to its 0.05)" \
	fcmp "${shown:-0} >= $lo - 0.05 && ${shown:-0} <= $hi + 0.05"
# the part named in the headline: the bucket (or I/O wait by device) that moved as the wall did by
# the most, the CPU split as the headline split has it (user code, all kernel) when both runs have
# one, else the tracepoints' two CPU buckets; its share of the wall's change
part=$(jq -rn --slurpfile a "$JA" --slurpfile b "$JB" '
	($a[0].phases[0]) as $pa | ($b[0].phases[0]) as $pb | ($pb.wall_ns - $pa.wall_ns) as $d |
	($pa.cpu_split.user_ns != null and $pb.cpu_split.user_ns != null) as $split |
	(if $split then
	   [["user CPU (sampled)", "user_ns"], ["kernel CPU (sampled)", "kernel_ns"]] |
	   map({name: .[0], a: $pa.cpu_split[.[1]], b: $pb.cpu_split[.[1]]})
	 else
	   [["CPU outside syscalls", "user_ns"], ["kernel CPU in syscalls", "kernel_ns"]] |
	   map({name: .[0], a: $pa.wall[.[1]], b: $pb.wall[.[1]]})
	 end) +
	([["run-queue wait", "runq_ns"], ["I/O wait", "iowait_ns"], ["other waits", "other_ns"]] |
	 map({name: .[0], a: $pa.wall[.[1]], b: $pb.wall[.[1]]})) |
	map(select((.b - .a) * $d > 0)) | max_by((.b - .a) | fabs) // empty |
	if ((.b - .a) | fabs) <= 1.05 * ($d | fabs) then
		"\(100 * ((.b - .a) | fabs) / ($d | fabs) | round)% of the difference is \(if .b < .a then "less" else "more" end) \(.name)"
	else "parts moved both ways; the largest is \(if .b < .a then "less" else "more" end) \(.name)" end')
check "the headline names '$part' (from the JSON files)" test -n "$part"
check "the headline says '$part' (from the JSON files)" grep -qF ": $part" <<<"$head"
