# docs/json.md names every member the JSON report writes: real reports (gen with a flush phase and
# the I/O section, run --sync, a --no-io run) are walked key path by key path, and a member whose
# path the document's list does not name fails the test.
#
# witness: docs/json.md's own lists of member paths (```paths and ```jsonl-paths), against every
#   leaf path of real reports (gen --sync, run --sync, run --no-io, attach -a --slow, --lite, a
#   --json-lines line) walked by the test's jq; tolerance: exact (no member unnamed, > 50 paths a
#   report, > 20 a line, a planted member found, no time member outside _ns); observed: not
#   recorded
need_root
doc=docs/json.md
pats=$TMPROOT/documented
awk '/^```paths$/ { f = 1; next } /^```/ { f = 0 } f && NF' "$doc" >"$pats"
check "docs/json.md has a list of member paths" test -s "$pats"
# one regular expression per documented path: `*` stands for any one key
sed -e 's/[].[]/\\&/g' -e 's/\*/[^.[]+/g' -e 's/^/^/' -e 's/$/$/' "$pats" >"$TMPROOT/regex"

# Every leaf (scalar, null, empty array or object) as .a.b[].c
walk() {
	jq -r '[paths(type != "object" and type != "array" or length == 0)] | .[] |
	       map(if type == "number" then "[]" else "." + . end) | join("")' "$1" | sort -u
}
undocumented() { walk "$1" | grep -vEf "$TMPROOT/regex"; }
jqe() { jq -e "$@" >/dev/null; }

mkdir -p "$TMPROOT/work"
$IOWHY gen --strategy loop,direct --size 4k --count 50 --sync --dir "$TMPROOT/work" \
	--json "$TMPROOT/gen.json" >/dev/null 2>&1
check "gen --json wrote a report" jqe '.phases | length == 4' "$TMPROOT/gen.json"
check "gen: the report has the io object" jqe '.phases[0].io.layers' "$TMPROOT/gen.json"
$IOWHY run --sync "$TMPROOT/work" --json "$TMPROOT/run.json" -- \
	sh -c 'dd if=/dev/zero of="$1" bs=64k count=16 status=none && cat "$1" >/dev/null' _ \
	"$TMPROOT/work/f" >/dev/null 2>&1
check "run --sync --json wrote a report" jqe '.phases | length == 2' "$TMPROOT/run.json"
$IOWHY run --no-io --json "$TMPROOT/noio.json" -- true >/dev/null 2>&1
check "run --no-io --json wrote a report" jqe '.phases[0] | has("io") | not' "$TMPROOT/noio.json"

# iowhy attach: -a with --slow (per-process list, slow calls), and --json-lines' own list. A quiet
# machine may make no call of 1 ms in the window: a sleeper of our own makes 50 ms ones.
sh -c 'while :; do sleep 0.05; done' &
sleeper=$!
on_exit "kill $sleeper"
$IOWHY attach -a --duration 1.5 --slow 1 --interval 500ms --json-lines "$TMPROOT/lines.jsonl" \
	--json "$TMPROOT/attach.json" -o "$TMPROOT/attach.txt" >/dev/null 2>&1
check "attach --json wrote a report" jqe '.phases[0].attach.processes | length > 0' \
	"$TMPROOT/attach.json"
check "attach: slow calls listed" jqe '.phases[0].slow_calls.kept > 0' "$TMPROOT/attach.json"
kill "$sleeper" 2>/dev/null; wait "$sleeper" 2>/dev/null
$IOWHY attach -a --lite --duration 1 --json "$TMPROOT/lite.json" -o "$TMPROOT/lite.txt" >/dev/null 2>&1
check "attach --lite --json wrote a report" jqe '.phases[0].syscalls == null' "$TMPROOT/lite.json"
awk '/^```jsonl-paths$/ { f = 1; next } /^```/ { f = 0 } f && NF' "$doc" |
	sed -e 's/[].[]/\\&/g' -e 's/\*/[^.[]+/g' -e 's/^/^/' -e 's/$/$/' >"$TMPROOT/jl-regex"
check "docs/json.md has the --json-lines member paths" test -s "$TMPROOT/jl-regex"
head -n 2 "$TMPROOT/lines.jsonl" | tail -n 1 >"$TMPROOT/line.json"
u=$(walk "$TMPROOT/line.json" | grep -vEf "$TMPROOT/jl-regex" | tr '\n' ' ')
check "--json-lines: every member is named in docs/json.md${u:+ (not named: $u)}" test -z "$u"
check "--json-lines: walked its members" test "$(walk "$TMPROOT/line.json" | wc -l)" -gt 20

# (each report walked once, its paths kept for both checks: a walk of attach -a's report took
# seconds on a loaded host)
for j in gen run noio attach lite; do
	walk "$TMPROOT/$j.json" >"$TMPROOT/$j.paths"
	u=$(grep -vEf "$TMPROOT/regex" "$TMPROOT/$j.paths" | tr '\n' ' ')
	check "$j: every member is named in docs/json.md${u:+ (not named: $u)}" test -z "$u"
	n=$(wc -l <"$TMPROOT/$j.paths")
	check "$j: walked $n member paths" test "$n" -gt 50
done

# the walk fails on a member the document does not name
jq '.phases[0].undocumented_member = 1' "$TMPROOT/gen.json" >"$TMPROOT/bad.json"
check "a member the document does not name is found" \
	test "$(undocumented "$TMPROOT/bad.json")" = ".phases[].undocumented_member"
# times are _ns everywhere: no member named in ms, us or seconds outside facts
t=$(grep -vE '^\.phases\[\]\.(facts|fact_units|fact_labels)\.' "$TMPROOT/gen.paths" |
	grep -vE '_per_s$' | grep -E '(_ms|_us|_s|_sec|_seconds)$' | tr '\n' ' ')
check "no time member outside _ns${t:+ (found: $t)}" test -z "$t"
