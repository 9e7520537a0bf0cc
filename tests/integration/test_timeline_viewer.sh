# The timeline in a real viewer: a run's --timeline (tasks, a loop device's requests, flows,
# counters) loaded into the trace engine of Chromium's DevTools Performance panel (headless
# Chromium, network off; tests/trace_viewer.js). The import raises no error; every task's and
# every device lane's slices are the viewer's entries for that thread, and every one of them is
# placed in the thread's tree (none dropped as badly nested: the slices tile exactly in the
# viewer's doubles); the trace's bounds cover the phase. (chrome://tracing and Perfetto UI could
# not be used here: docs/PICTURES.md says why.)
#
# witness: Chromium DevTools' own trace engine (tests/trace_viewer.js, headless), loading the
#   run's --timeline; tolerance: exact (no import error, every thread and every slice as the
#   file has them, none dropped as badly nested, >= 3 task tracks and a device lane, bounds
#   cover the phase); observed: 74 of dd's 633 slices left out before times were 1/1024 us
source tests/integration/lib_browser.sh
need_chromium
command -v node >/dev/null || sh tests/install-deps.sh browser >"$TMPROOT/apt.log" 2>&1
command -v node >/dev/null || skip "apt cannot install nodejs: $(tail -1 "$TMPROOT/apt.log")"
img=$TMPROOT/dev.img
truncate -s 64M "$img"
on_exit "rm -f '$img'"
LOOP=$(losetup --find --show "$img") || skip "no free loop device"
on_exit "losetup -d '$LOOP'"
T=$TMPROOT/t.json
"$IOWHY" run --timeline "$T" -- sh -c "dd if=/dev/zero of=$LOOP bs=64k count=64 oflag=direct \
	status=none; for i in 1 2 3; do cat /etc/hostname; done >/dev/null" >"$TMPROOT/out.txt" 2>&1
check "run --timeline exits 0" test $? = 0
io_done
node tests/trace_viewer.js "$T" --no-sandbox --disable-gpu --no-first-run \
	--proxy-server=127.0.0.1:9 --disable-background-networking --disable-component-update \
	--user-data-dir="$TMPROOT/chrome-profile" >"$TMPROOT/viewer.json" 2>"$TMPROOT/viewer.log"
check "the viewer ran (exit $?)" test -s "$TMPROOT/viewer.json"
err=$(jqr "$TMPROOT/viewer.json" '.error // empty')
check "DevTools imported the timeline without an error${err:+: $err}" test -z "$err"
[ -z "$err" ] || finish
# the file's complete events per thread (tasks and device lanes; the phases on pid 0 are one more)
jq -c '[.traceEvents[] | select(.ph == "X")] | group_by([.pid, .tid]) | map({pid: .[0].pid,
	tid: .[0].tid, n: length})' "$T" >"$TMPROOT/file.json"
cmp=$(jq -c --slurpfile f "$TMPROOT/file.json" '[$f[0][] as $t | (.threads[] | select(.pid ==
	$t.pid and .tid == $t.tid)) as $v | {pid: $t.pid, tid: $t.tid, file: $t.n, viewer:
	$v.entries, tree: $v.in_tree}]' "$TMPROOT/viewer.json")
nfile=$(jqr "$TMPROOT/file.json" length)
echo "  $nfile threads with slices; per thread (file, viewer, in its tree): $(jq -c \
	'map([.file, .viewer, .tree]) | .[0:6]' <<<"$cmp") ..."
check "every thread with slices is a thread of the viewer ($(jq length <<<"$cmp") of $nfile)" \
	test "$(jq length <<<"$cmp")" = "$nfile"
check "the viewer has every slice of every thread" \
	test "$(jq '[.[] | select(.file != .viewer)] | length' <<<"$cmp")" = 0
dropped=$(jq '[.[] | .viewer - .tree] | add' <<<"$cmp")
check "every slice placed in its thread's tree ($dropped left out as badly nested)" \
	test "$dropped" = 0
check "tasks and a device lane among them" test "$(jq '[.[] | select(.pid > 0 and
	.pid < 1073741824)] | length' <<<"$cmp")" -ge 3 -a "$(jq '[.[] | select(.pid >=
	1073741824)] | length' <<<"$cmp")" -ge 1
# bounds (µs): the viewer's trace spans the phase slice
read -r p0 p1 <<<"$(jqr "$T" '[.traceEvents[] | select(.cat == "phase")][0] | "\(.ts) \(.ts + .dur)"')"
read -r b0 b1 <<<"$(jqr "$TMPROOT/viewer.json" '"\(.bounds.min) \(.bounds.max)"')"
check "the viewer's bounds [$b0, $b1] cover the phase [$p0, $p1]" fcmp "$b0 <= $p0 && $b1 >= $p1"
