# iowhy report JSON: a saved JSON report gives the same text report as the run (default, -q and
# -v: every phase in full, with the syscalls' percentiles, the facts' labels, the CPU samples and
# off-CPU stacks), and an HTML page whose wall bars and explanation are the run's own.
#
# witness: none independent (iowhy against itself): iowhy report of a saved JSON against the
#   run's own text (default, -q, -v, over bindfs) and HTML (bars, explanation, device sections);
#   tolerance: byte for byte (cmp); observed: not recorded
# witness: none independent: iowhy report of attach -a and attach --lite JSONs against the
#   windows' own text (-o); tolerance: byte for byte; observed: equal
# witness: behaviour: >= 4 syscall tables, the samples' section, the facts' labels, -q < 40
#   lines, --html prints no text without --text, bad inputs exit 2 with one line, -q -v: the last
#   wins; tolerance: exact; observed: not recorded
need_root
J=$TMPROOT/r.json
"$IOWHY" gen --strategy loop,direct --size 4k --count 100 --sync --dir "$TMPROOT" --json "$J" \
	--html "$TMPROOT/run.html" >"$TMPROOT/run.txt" 2>&1
check "gen exits 0" test $? = 0
"$IOWHY" report "$J" >"$TMPROOT/re.txt" 2>"$TMPROOT/err"
check "report exits 0" test $? = 0
check "the same text report as the run" cmp "$TMPROOT/run.txt" "$TMPROOT/re.txt"
diff "$TMPROOT/run.txt" "$TMPROOT/re.txt" | head -10
"$IOWHY" gen --strategy split --size 4k --count 50 -q --dir "$TMPROOT" --json "$TMPROOT/q.json" \
	>"$TMPROOT/runq.txt" 2>&1
"$IOWHY" report -q "$TMPROOT/q.json" >"$TMPROOT/req.txt"
check "the same brief report (-q)" cmp "$TMPROOT/runq.txt" "$TMPROOT/req.txt"
"$IOWHY" gen --strategy loop,direct --size 4k --count 100 --sync -v --dir "$TMPROOT" \
	--json "$TMPROOT/v.json" >"$TMPROOT/runv.txt" 2>&1
check "gen -v exits 0" test $? = 0
"$IOWHY" report -v "$TMPROOT/v.json" >"$TMPROOT/rev.txt" 2>"$TMPROOT/err"
check "report -v exits 0" test $? = 0
head -3 "$TMPROOT/err"
check "the same verbose report (-v) as the run" cmp "$TMPROOT/runv.txt" "$TMPROOT/rev.txt"
diff "$TMPROOT/runv.txt" "$TMPROOT/rev.txt" | head -10
check "-v: with the syscall tables ($(grep -c '^  syscall  ' "$TMPROOT/rev.txt"))" \
	test "$(grep -c '^  syscall  ' "$TMPROOT/rev.txt")" -ge 4
if [ "$(jqr "$TMPROOT/v.json" '.missing_probes | index("perf:cpu-clock") != null')" = true ]; then
	skip_part "no CPU samples on this machine: the samples' sections are not checked"
else
	check "-v: with the CPU samples' section" grep -q "Where the CPU went" "$TMPROOT/rev.txt"
fi
check "-v: with the workload's facts by their labels" grep -q "files written: 100" "$TMPROOT/rev.txt"
"$IOWHY" report -q "$TMPROOT/v.json" >"$TMPROOT/revq.txt"
check "-q of the same JSON: the brief report" test "$(wc -l <"$TMPROOT/revq.txt")" -lt 40
# -v with FUSE requests and their daemon (bindfs): the FUSE tables from the JSON's rows,
# histograms and daemons
if command -v bindfs >/dev/null; then
	source tests/integration/lib_fuse.sh
	mkdir -p "$TMPROOT/src" "$TMPROOT/mnt"
	bindfs -f "$TMPROOT/src" "$TMPROOT/mnt" &
	DPID=$!
	on_exit "fuse_teardown $TMPROOT/mnt $DPID"
	if fuse_mount_wait "$TMPROOT/mnt" "$DPID"; then
		"$IOWHY" run -v -o "$TMPROOT/fuse.txt" --json "$TMPROOT/fuse.json" -- \
			dd if=/dev/zero of="$TMPROOT/mnt/f" bs=1M count=4 status=none
		"$IOWHY" report -v "$TMPROOT/fuse.json" >"$TMPROOT/refuse.txt" 2>&1
		check "FUSE: the same verbose report (-v) as the run" \
			cmp "$TMPROOT/fuse.txt" "$TMPROOT/refuse.txt"
		diff "$TMPROOT/fuse.txt" "$TMPROOT/refuse.txt" | head -10
		check "FUSE: with the requests and the daemon" \
			grep -q "pid $DPID (bindfs) serving" "$TMPROOT/refuse.txt"
	else
		fail "bindfs mounted"
	fi
else
	skip_part "bindfs not installed: the FUSE part of -v is not checked"
fi
"$IOWHY" report "$J" --html "$TMPROOT/re.html" >"$TMPROOT/out" 2>&1
check "report --html exits 0" test $? = 0
check "and prints no text without --text" test ! -s "$TMPROOT/out"
bars() { sed -n '/<svg class="wallbars"/,/<\/svg>/p' "$1"; }
expl() { sed -n '/<ol class="expl">/,/<\/ol>/p' "$1"; }
check "the HTML's wall bars are the run's" cmp <(bars "$TMPROOT/run.html") <(bars "$TMPROOT/re.html")
check "with bars in it" test "$(bars "$TMPROOT/re.html" | grep -c 'class="seg"')" -ge 4
check "the HTML's explanation is the run's" cmp <(expl "$TMPROOT/run.html") <(expl "$TMPROOT/re.html")
io() { sed -n '/<h3 id="io-/,/<\/section>/p' "$1"; }
check "the HTML's devices, latency histograms and layer tables are the run's" \
	cmp <(io "$TMPROOT/run.html") <(io "$TMPROOT/re.html")
check "with histograms in them" test "$(io "$TMPROOT/re.html" | grep -c 'class="lathist"')" -ge 2
"$IOWHY" report "$J" --html "$TMPROOT/re2.html" --text >"$TMPROOT/re2.txt"
check "--text with --html prints the text too" cmp "$TMPROOT/run.txt" "$TMPROOT/re2.txt"
# errors: one line, exit 2
echo '{"a": 1}' >"$TMPROOT/not.json"
for bad in "$TMPROOT/not.json" "$TMPROOT/run.txt" "$TMPROOT/missing.json"; do
	"$IOWHY" report "$bad" >/dev/null 2>"$TMPROOT/err"; rc=$?
	check "report $(basename "$bad") exits 2 (got $rc) with one line" \
		bash -c "[ $rc = 2 ] && [ \$(wc -l <'$TMPROOT/err') = 1 ]"
done
"$IOWHY" report -q -v "$J" >"$TMPROOT/qv.txt" 2>&1
check "report -q -v: the last one wins (-v)" cmp <(grep -v '^$' "$TMPROOT/qv.txt" | head -3) \
	<("$IOWHY" report -v "$J" | grep -v '^$' | head -3)
# attach reports: the window's target, processes and cgroups (-a), and --lite's on-CPU row split by
# the samples, as the live report printed them (its two stderr lines, "tracing ..." and "window
# closed ...", are not the report)
source tests/integration/lib_attach.sh
start_bg SP "$CALIB" spin 30000
for mode in "-a" "--lite -p $SP"; do
	name=${mode%% *}
	# shellcheck disable=SC2086 # $mode: the options, split on purpose
	"$IOWHY" attach $mode --duration 1 --json "$TMPROOT/att$name.json" -o "$TMPROOT/att$name.txt" \
		2>"$TMPROOT/err"
	check "attach $mode exits 0 ($(head -c 200 "$TMPROOT/err"))" test $? = 0
	"$IOWHY" report "$TMPROOT/att$name.json" >"$TMPROOT/reatt$name.txt" 2>"$TMPROOT/err"
	check "report of attach $mode exits 0 ($(head -c 200 "$TMPROOT/err"))" test $? = 0
	check "attach $mode: the same text report as the window's" \
		cmp "$TMPROOT/att$name.txt" "$TMPROOT/reatt$name.txt"
	diff "$TMPROOT/att$name.txt" "$TMPROOT/reatt$name.txt" | head -10
done
check "attach -a: with its process table" grep -q '^== per process' "$TMPROOT/reatt-a.txt"
check "attach --lite: one on-CPU row split by samples, no user CPU row" \
	bash -c "grep -qE '^  on CPU ' '$TMPROOT/reatt--lite.txt' && ! grep -qE '^  user CPU ' '$TMPROOT/reatt--lite.txt'"
