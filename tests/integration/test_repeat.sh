# `--repeat N`: each run is a work phase of its own (run#1 .. run#N, column "run"), and the report
# shows the column's trimmed mean (with 3 or more runs the fastest and the slowest dropped) and the
# runs' min/median/max wall (text: "run: runs: N, min/median/max wall A / B / C"; JSON: the walls
# per phase, the trimmed mean in explanation_sentences[].numbers.whole_ns).
#
# Witness: the test's own clock of every run. The traced command is `calib witness OUT -- bash
# SCRIPT`: calib witness (tests/calib.c) reads CLOCK_MONOTONIC before it forks the script and
# after its last reaping (elapsed_ns), and its own start (self_start_cpu_ns: its CPU when main
# began) and run-queue wait (self_run_delay_ns, schedstat). The script takes a run number from a
# counter file and sleeps a planned time that differs by run (spread so that which run is the
# fastest, the slowest and the median is known before it runs). A phase's wall holds that span
# plus the witness's exec before its first clock read and its exit after the last: so
# own_i <= wall_i <= own_i + its start CPU + its run-queue wait + SLACK.
# The arithmetic (trimmed mean, min, median, max) is checked over the JSON's walls exactly, and
# over the test's own spans between their lower and upper bounds (each is monotone in the runs).
# Tolerances (observed over 3 quiet runs and 2 beside two CPU spinners, 2026-12-04, with another
# developer's tests loading the machine: load average 6-10):
# - SLACK = 20 ms: wall - own - start - run-queue wait observed between -14.1 and +6.5 ms quiet,
#   -13.3 and +2.1 ms beside spinners (10 runs) (bash's $EPOCHREALTIME in the script, tried first, left up
#   to 150 ms of bash's start beside spinners: the witness's own start and wait are known);
# - the text's figures against the JSON's: the text's 3 significant digits (0.6%).
need_root
command -v jq >/dev/null || skip "jq missing"
SLACK=20000000

# to_ns "298 ms" -> ns
to_ns() { awk -v v="$1" 'BEGIN { n = split(v, p, " "); u = p[2]; m = 1
	if (u == "s") m = 1e9; else if (u == "ms") m = 1e6; else if (u == "µs" || u == "us") m = 1e3
	else if (u != "ns") { print "bad"; exit } printf "%.0f", p[1] * m }'; }
# stats over numbers on stdin (one a line): "min median max trimmed_mean mean"
stats() { sort -g | awk '{ v[NR] = $1; s += $1 } END {
	n = NR; med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	tm = n < 3 ? s / n : (s - v[1] - v[n]) / (n - 2)
	printf "%.0f %.0f %.0f %.3f %.3f\n", v[1], med, v[n], tm, s / n }'; }

# case N SLEEPS_MS...: a --repeat N run of the workload, one planned sleep per run
case_repeat() {
	local n=$1 tag=r$1 cnt times wl j txt i rc out
	shift
	cnt=$TMPROOT/$tag.cnt times=$TMPROOT/$tag.times wl=$TMPROOT/$tag.sh j=$TMPROOT/$tag.json txt=$TMPROOT/$tag.txt
	out=$TMPROOT/$tag.witness
	echo 0 >"$cnt"
	: >"$times"
	# calib witness times each run (CLOCK_MONOTONIC from before its fork to its last reaping) and
	# writes that, when the run ends, to the file it opened at its start: the script renames the
	# file to the run's own name first
	cat >"$wl" <<EOF
read -r i <"$cnt"; i=\$((i + 1)); echo "\$i" >"$cnt"
mv "$out" "$out.\$i"
set -- $*
eval "ms=\\\${\$i}"
echo "\$i \$ms" >>"$times"
"$CALIB" sleep "\$ms"
EOF
	"$IOWHY" run --repeat "$n" --no-io --json "$j" -o "$txt" -- "$CALIB" witness "$out" -- bash "$wl"
	rc=$?
	check "N=$n: iowhy run --repeat $n exits 0 (got $rc)" test "$rc" = 0
	[ -s "$j" ] || { fail "N=$n: no JSON report"; return; }
	check "N=$n: the workload ran $n times (its own log: $(wc -l <"$times") lines)" test "$(wc -l <"$times")" = "$n"
	check "N=$n: $n work phases run#1..run#$n in column run ($(jqr "$j" '[.phases[] | .name] | join(",")'))" \
		test "$(jqr "$j" '[.phases[] | select(.kind == "work" and .column == "run") | .name] | join(",")')" = \
		"$(seq -s, -f 'run#%g' 1 "$n")"
	check "N=$n: one column, its work phases the $n runs" \
		test "$(jqr "$j" '[.columns[] | "\(.name):\(.work_phases | length)"] | join(",")')" = "run:$n"

	# per run: the phase's wall against the run's own span
	local walls=() owns=() his=() own hi wall ms wst wrq
	for ((i = 1; i <= n; i++)); do
		read -r _ ms < <(awk -v i="$i" '$1 == i' "$times")
		own=$(awk '$1 == "elapsed_ns" { print $2 }' "$out.$i" 2>/dev/null)
		wst=$(awk '$1 == "self_start_cpu_ns" { print $2 }' "$out.$i" 2>/dev/null)
		wrq=$(awk '$1 == "self_run_delay_ns" { print $2 }' "$out.$i" 2>/dev/null)
		wall=$(jqr "$j" ".phases[] | select(.name == \"run#$i\") | .wall_ns")
		hi=$((own + wst + wrq + SLACK))
		walls+=("$wall") owns+=("$own") his+=("$hi")
		echo "  N=$n run#$i: planned $ms ms, its own span $own ns, iowhy's wall $wall ns (+$((wall - own)) ns;" \
			"the witness's start $wst ns and run-queue wait $wrq ns; rest $((wall - own - wst - wrq)) ns)"
		check "N=$n run#$i: the wall $wall ns holds the run's own span $own ns, at most its start, run-queue wait and $SLACK ns more ($hi)" \
			fcmp "$wall >= $own && $wall <= $hi && $own >= $ms * 1000000"
	done
	local wmin wmed wmax wtm wmean omin omed omax otm omean hmin hmed hmax htm
	read -r wmin wmed wmax wtm wmean < <(printf '%s\n' "${walls[@]}" | stats)
	read -r omin omed omax otm omean < <(printf '%s\n' "${owns[@]}" | stats)
	read -r hmin hmed hmax htm _ < <(printf '%s\n' "${his[@]}" | stats)
	echo "  N=$n: walls min/median/max $wmin / $wmed / $wmax, trimmed mean $wtm (mean $wmean);" \
		"own spans $omin / $omed / $omax, trimmed mean $otm (mean $omean); their upper bounds $hmin / $hmed / $hmax, $htm"
	# which run is the fastest and the slowest: planned, by the test's clock and by iowhy's
	local plan_min plan_max
	plan_min=$(printf '%s\n' "$@" | awk '{ print NR, $1 }' | sort -k2 -g | head -1 | cut -d' ' -f1)
	plan_max=$(printf '%s\n' "$@" | awk '{ print NR, $1 }' | sort -k2 -g | tail -1 | cut -d' ' -f1)
	check "N=$n: the fastest run by iowhy's walls is the planned one (run#$plan_min)" \
		test "$(jqr "$j" '[.phases[] | {name, wall_ns}] | min_by(.wall_ns) | .name')" = "run#$plan_min"
	check "N=$n: the slowest run by iowhy's walls is the planned one (run#$plan_max)" \
		test "$(jqr "$j" '[.phases[] | {name, wall_ns}] | max_by(.wall_ns) | .name')" = "run#$plan_max"

	# the trimmed mean: in the JSON's explanation, in the text's wall row
	local whole line tmin tmed tmax twall
	whole=$(jqr "$j" '[.explanation_sentences[] | select(.kind == "column") | .numbers.whole_ns] | first // empty')
	check "N=$n: the explanation's wall $whole ns = the trimmed mean of the phases' walls $wtm ns" \
		fcmp "abs($whole - $wtm) <= 1"
	check "N=$n: the trimmed mean $wtm ns between the test's own $otm ns and its bound $htm ns" \
		fcmp "$wtm >= $otm && $wtm <= $htm"
	if [ "$n" -ge 3 ]; then
		check "N=$n: the trimmed mean left out the best and the worst: the plain mean of the own spans $omean is above the trimmed mean's bound $htm" \
			fcmp "$omean > $htm"
	else
		check "N=$n: under 3 runs the trimmed mean is the plain mean ($wtm = $wmean)" fcmp "abs($wtm - $wmean) <= 0.001"
	fi
	twall=$(awk '/^== where the wall time went ==/ { on = 1; next } on && $1 == "wall" { print $2, $3; exit }' "$txt")
	check "N=$n: the text's wall '$twall' is the trimmed mean $wtm ns (3 digits)" \
		fcmp "abs($(to_ns "$twall") - $wtm) <= 0.006 * $wtm"
	line=$(grep -m1 "run: runs: $n, min/median/max wall" "$txt")
	check "N=$n: the text has the runs line ($line)" test -n "$line"
	IFS=/ read -r tmin tmed tmax <<<"${line##*wall }"
	tmin=$(to_ns "$(xargs <<<"$tmin")") tmed=$(to_ns "$(xargs <<<"$tmed")") tmax=$(to_ns "$(xargs <<<"$tmax")")
	check "N=$n: min $tmin ns = the walls' min $wmin (3 digits), between the test's own $omin and $hmin" \
		fcmp "abs($tmin - $wmin) <= 0.006 * $wmin && $tmin >= 0.994 * $omin && $tmin <= 1.006 * $hmin"
	check "N=$n: median $tmed ns = the walls' median $wmed (3 digits), between the test's own $omed and $hmed" \
		fcmp "abs($tmed - $wmed) <= 0.006 * $wmed && $tmed >= 0.994 * $omed && $tmed <= 1.006 * $hmed"
	check "N=$n: max $tmax ns = the walls' max $wmax (3 digits), between the test's own $omax and $hmax" \
		fcmp "abs($tmax - $wmax) <= 0.006 * $wmax && $tmax >= 0.994 * $omax && $tmax <= 1.006 * $hmax"
	# the saved report renders the same line again
	"$IOWHY" report "$j" >"$TMPROOT/$tag.report.txt" 2>&1
	check "N=$n: iowhy report renders the same runs line" grep -qF "$line" "$TMPROOT/$tag.report.txt"
}

# planned sleeps (ms), shuffled; the best and the worst far from the rest, so that the plain mean
# and the trimmed mean differ
case_repeat 5 300 100 1500 200 450
case_repeat 4 300 100 1200 200
case_repeat 2 100 300
