# The HTML report and the flame graph SVG in a real browser (headless Chromium, network off):
# no script errors, nothing fetched, the wall bars as wide as the JSON's shares, every frame drawn.
#
# witness: Chromium's layout (getBoundingClientRect of each bar segment), against the shares in
#   iowhy's JSON of the same run (a rendering check, not of the figures); tolerance: 1% of the
#   bar, the parts fill it within 1%, full-width bars within 0.5 px; observed: not recorded
# witness: the --folded file of the same run and a folded file the test wrote (distinct frames
#   counted by the test's awk), against the frames drawn and left out; tolerance: exact; after a
#   zoom the frames' widths within 0.01 px; observed: not recorded
# witness: behaviour: no http(s) reference, src= or external href, no script or console error,
#   hostile names escaped, screenshots made; tolerance: exact; observed: not recorded
# witness: none independent (iowhy against itself): the HTML histogram's request count = the
#   JSON's, six phases and six bars; tolerance: exact; observed: not recorded
source tests/integration/lib_dev.sh
source tests/integration/lib_browser.sh
need_chromium
[ -x "$CALIB" ] || skip "no $CALIB (make build/calib)"

# The bars of one page against its JSON: each segment's drawn width / its bar's = the bucket's
# share of the phase's wall within 1% (single-run columns); the parts of a bar fill it.
MEASURE='(function(){var out=[],frames=[];
function measure(mode){Array.prototype.forEach.call(document.querySelectorAll("rect.barframe"),function(f){
 var fw=f.getBoundingClientRect().width;if(mode==="full")frames.push(fw);
 Array.prototype.forEach.call(f.parentNode.querySelectorAll("rect.seg"),function(s){
  out.push({mode:mode,phases:f.getAttribute("data-phases"),kind:f.getAttribute("data-kind"),
   key:s.getAttribute("data-key"),w:s.getBoundingClientRect().width/fw});});});}
measure("common");var box=document.getElementById("wall-scale");if(box){box.click();measure("full");}
var p=document.createElement("pre");p.id="measured";
p.textContent=JSON.stringify({segs:out,full_frames:frames});document.body.appendChild(p);})();'

# check_page NAME HTML JSON [CHROME ARGS...]: the args go to the Chromium that measures the page
# (a screenshot in the same start: each start of Chromium took 3-7 s)
check_page() {
	local name=$1 html=$2 json=$3 dom=$TMPROOT/$1.dom err=$TMPROOT/$1.log
	shift 3
	check "$name: the page has no http(s):// reference" bash -c "! grep -Eq 'https?://' '$html'"
	check "$name: no src= or external href" \
		bash -c "! grep -Eq '(src|href)=\"[^#\"]' '$html'"
	with_probe "$html" "$MEASURE" "$TMPROOT/$name.probe.html"
	chrome --dump-dom "$@" "file://$TMPROOT/$name.probe.html" >"$dom" 2>"$err"
	check "$name: Chromium rendered it" grep -q 'data-ready="1"' "$dom"
	check "$name: no script errors in the page" grep -q 'data-js-errors="0"' "$dom"
	local ce
	ce=$(console_errors "$err")
	check "$name: no console errors in Chromium's log${ce:+: $ce}" test -z "$ce"
	sed -n 's:.*<pre id="measured">\([^<]*\)</pre>.*:\1:p' "$dom" | sed 's/&amp;/\&/g' \
		>"$TMPROOT/$name.measured.json"
	jq -n --slurpfile m "$TMPROOT/$name.measured.json" --slurpfile r "$json" '
		def abs: if . < 0 then -. else . end;
		[$m[0].segs[] | select(.phases | test("^[0-9]+$"))
		 | (.phases | tonumber) as $i | $r[0].phases[$i] as $p | (.key | split(".")) as $k
		 | {i: $i, mode, key, w, share: (($p.wall | getpath($k)) / $p.wall_ns)}
		 | . + {d: ((.w - .share) | abs)}]' >"$TMPROOT/$name.cmp.json"
	local n bad worst bars nz sums
	n=$(jqr "$TMPROOT/$name.cmp.json" length)
	bad=$(jqr "$TMPROOT/$name.cmp.json" '[.[] | select(.d > 0.01)] | length')
	worst=$(jqr "$TMPROOT/$name.cmp.json" '[.[].d] | max // 0')
	echo "  $name: $n segments measured, largest |width - share| $worst"
	check "$name: segments measured ($n)" fcmp "$n >= 2"
	check "$name: every segment's width is its JSON share within 1% ($bad off)" test "$bad" = 0
	# every bucket with time has its segment; the segments of a bar fill it
	bars=$(jqr "$TMPROOT/$name.cmp.json" '[.[].i] | unique | length')
	local modes
	modes=$(jqr "$TMPROOT/$name.cmp.json" '[.[].mode] | unique | join(",")' -r)
	nz=$(jq --slurpfile c "$TMPROOT/$name.cmp.json" '. as $r | [$c[0] | map(.i) | unique | .[]
		| $r.phases[.].wall | [.user_ns, .kernel_groups[], .runq_ns, .iowait_ns, .other_ns,
		  .unattributed_ns] | map(select(. > 0)) | length] | add' "$json")
	n=$(jqr "$TMPROOT/$name.cmp.json" '[.[] | select(.mode == "common")] | length')
	check "$name: one segment per bucket with time ($n segments, $nz buckets, $bars bars)" \
		test -n "$n" -a "$n" = "$nz"
	sums=$(jqr "$TMPROOT/$name.cmp.json" '[group_by([.i, .mode])[] | (map(.w) | add)] | map(. - 1 | if . < 0 then -. else . end)
		| max')
	check "$name: the parts of each bar fill it (max off $sums)" fcmp "$sums <= 0.01"
	if [ "$bars" -gt 1 ]; then
		local spread
		check "$name: measured at the common scale and each bar to full width ($modes)" \
			test "$modes" = "common,full"
		spread=$(jqr "$TMPROOT/$name.measured.json" '.full_frames | (max - min)')
		check "$name: full width: every bar as long ($spread px apart)" fcmp "$spread < 0.5"
	fi
}

# 1. Three strategies with sync: six phases, three columns.
"$IOWHY" gen --strategy loop,split,direct --size 10k --count 100 --sync --dir "$TMPROOT" \
	--json "$TMPROOT/gen.json" --html "$TMPROOT/gen.html" --folded "$TMPROOT/gen.folded" \
	>"$TMPROOT/gen.txt" 2>&1
check "gen with --html exits 0" test $? = 0
# the fsync run of part 2 here, before the browsers: the test's I/O is over then (io_done)
make_loop_ext4 128
"$IOWHY" run --json "$TMPROOT/fs.json" --html "$TMPROOT/fs.html" -- "$CALIB" fsync "$MNT/f" 100 \
	>"$TMPROOT/fs.txt" 2>&1
fsrc=$?
io_done
check "gen: six phases in the JSON" test "$(jqr "$TMPROOT/gen.json" '.phases | length')" = 6
check "gen: six bars (three columns, work and flush)" \
	test "$(grep -c 'class="barframe"' "$TMPROOT/gen.html")" = 6
# (the screenshot is of the measured page, taken by the Chromium that measures it)
check_page gen "$TMPROOT/gen.html" "$TMPROOT/gen.json" --screenshot="$TMPROOT/gen.png" \
	--window-size=1280,900
# the page's on-CPU flame graph: the --folded stacks of the same run, one frame per distinct one
uniq_frames() {
	awk '{ sub(/[ \t]+[0-9]+$/, ""); n = split($0, f, ";"); p = "";
		for (i = 1; i <= n; i++) { p = p ";" f[i]; seen[p] = 1 } } END { print length(seen) }' "$1"
}
if [ -s "$TMPROOT/gen.folded" ]; then
	fg=$(sed -n '/<svg class="flame" id="flame-0"/,/<\/svg>/p' "$TMPROOT/gen.html")
	fdrawn=$(grep -c '<g class="f"' <<<"$fg")
	fomit=$(grep -o 'data-omitted="[0-9]*"' <<<"$fg" | head -1 | grep -o '[0-9]*')
	fwant=$(uniq_frames "$TMPROOT/gen.folded")
	echo "  gen: on-CPU flame graph: $fdrawn frames drawn, $fomit left out, $fwant in --folded"
	check "gen: the page's flame graph has one frame per distinct frame of --folded" \
		test "$((fdrawn + ${fomit:-0}))" = "$fwant"
	check "gen: its script set it up in the browser" \
		grep -q 'id="flame-0"[^>]*data-ready="1"' "$TMPROOT/gen.dom"
else
	skip_note="no CPU samples (sampling off?): the page has no flame graph"
	echo "  $skip_note"
	check "gen: no samples, no flame graph section" bash -c "! grep -q 'id=\"flames\"' '$TMPROOT/gen.html'"
fi
check "gen: a screenshot at 1280 px" test -s "$TMPROOT/gen.png"

# 2. fsync-style run on a journaled ext4: latency histograms of its device (checked below).
check "run (fsync) with --html exits 0" test "$fsrc" = 0
check "fsync: a latency histogram of $LOOPNAME" grep -q "$LOOPNAME write: queue time" "$TMPROOT/fs.html"
hist_total=$(grep -o "$LOOPNAME write: queue time ([0-9]* requests)" "$TMPROOT/fs.html" | head -1 |
	grep -o '[0-9]* requests' | cut -d' ' -f1)
json_total=$(jqr "$TMPROOT/fs.json" "[.phases[0].io.requests[] | select(.name == \"$LOOPNAME\" and
	.op == \"write\") | .requests] | add // 0")
check "fsync: the histogram counts the JSON's $LOOPNAME write requests ($hist_total vs $json_total)" \
	test "$hist_total" = "$json_total"
check_page fsync "$TMPROOT/fs.html" "$TMPROOT/fs.json"

# 3. The flame graph SVG: folded stacks (here the syscalls of the gen run per phase and group,
# and a hostile frame name), one frame per distinct prefix, zoom exact after a click.
jq -r '.phases[] | .name as $n | .syscalls[] | "iowhy;\($n);\(.group);\(.name) \(.count)"' \
	"$TMPROOT/gen.json" >"$TMPROOT/s.folded"
printf 'iowhy;<script>alert("x")</script> & "q";leaf 5\n' >>"$TMPROOT/s.folded"
"$IOWHY" flamegraph --title "syscalls of gen, per phase" "$TMPROOT/s.folded" >"$TMPROOT/s.svg"
check "flamegraph exits 0" test $? = 0
uniq_frames=$(awk '{ sub(/[ \t]+[0-9]+$/, ""); n = split($0, f, ";"); p = "";
	for (i = 1; i <= n; i++) { p = p ";" f[i]; seen[p] = 1 } } END { print length(seen) }' \
	"$TMPROOT/s.folded")
ZOOM='(function(){var s=document.documentElement;
var fr=Array.prototype.slice.call(s.querySelectorAll("g.f:not(.root)"));
s.setAttribute("data-test-frames",fr.length);
var z=fr.filter(function(g){return g.getAttribute("data-d")==="2";})
 .sort(function(a,b){return b.getAttribute("data-n")-a.getAttribute("data-n");})[0];
s.flameZoom(z);var W=+s.getAttribute("data-w"),zx=+z.getAttribute("data-x"),zn=+z.getAttribute("data-n");
var err=Math.abs(z.querySelector("rect").getAttribute("width")-W),shown=0;
fr.forEach(function(g){if(g.classList.contains("hide"))return;var x=+g.getAttribute("data-x"),
 n=+g.getAttribute("data-n");if(+g.getAttribute("data-d")<2)return;shown++;
 err=Math.max(err,Math.abs(g.querySelector("rect").getAttribute("width")-n/zn*W));
 if(x<zx||x+n>zx+zn)err=1e9;});
s.setAttribute("data-test-zoom-err",err.toFixed(4));s.setAttribute("data-test-zoom-shown",shown);
s.setAttribute("data-test-search",s.flameSearch(/write/));})();'
with_probe "$TMPROOT/s.svg" "$ZOOM" "$TMPROOT/s.probe.svg"
# (and its screenshot, after the zoom, by the same Chromium)
chrome --dump-dom --screenshot="$TMPROOT/flame.png" --window-size=1200,500 \
	"file://$TMPROOT/s.probe.svg" >"$TMPROOT/s.dom" 2>"$TMPROOT/s.log"
drawn=$(grep -o 'data-test-frames="[0-9]*"' "$TMPROOT/s.dom" | grep -o '[0-9]*')
omitted=$(grep -o 'data-omitted="[0-9]*"' "$TMPROOT/s.svg" | grep -o '[0-9]*')
echo "  flame graph: $drawn frames drawn, $omitted left out, $uniq_frames distinct in the file"
check "flame graph: set up by its script" grep -q 'data-ready="1"' "$TMPROOT/s.dom"
check "flame graph: as many frames as the folded file has distinct frames" \
	test "$((drawn + omitted))" = "$uniq_frames"
check "flame graph: hostile frame escaped" grep -q '&lt;script&gt;alert' "$TMPROOT/s.svg"
zerr=$(sed -n 's/.*data-test-zoom-err="\([0-9.]*\)".*/\1/p' "$TMPROOT/s.dom")
zshown=$(sed -n 's/.*data-test-zoom-shown="\([0-9]*\)".*/\1/p' "$TMPROOT/s.dom")
check "flame graph: after a zoom the $zshown frames shown are as wide as their share ($zerr px off)" \
	fcmp "${zerr:-1e9} < 0.01 && ${zshown:-0} >= 2"
check "flame graph: search matches samples" grep -q 'data-test-search="[1-9]' "$TMPROOT/s.dom"
ce=$(console_errors "$TMPROOT/s.log")
check "flame graph: no console errors${ce:+: $ce}" test -z "$ce"
check "flame graph: a screenshot" test -s "$TMPROOT/flame.png"
# The screenshots for docs/img (README): kept when IOWHY_KEEP_SCREENSHOTS names a directory.
if [ -n "$IOWHY_KEEP_SCREENSHOTS" ]; then
	# (the checks' screenshots are of the measured pages; these of the pages as they are)
	chrome --screenshot="$TMPROOT/gen.png" --window-size=1280,900 "file://$TMPROOT/gen.html" \
		>/dev/null 2>&1
	chrome --screenshot="$TMPROOT/flame.png" --window-size=1200,500 "file://$TMPROOT/s.svg" \
		>/dev/null 2>&1
	cp "$TMPROOT/gen.png" "$TMPROOT/flame.png" "$TMPROOT/gen.html" "$TMPROOT/fs.html" \
		"$TMPROOT/s.svg" "$IOWHY_KEEP_SCREENSHOTS/"
	chrome --screenshot="$IOWHY_KEEP_SCREENSHOTS/fs.png" --window-size=1280,2400 \
		"file://$TMPROOT/fs.html" >/dev/null 2>&1
fi
