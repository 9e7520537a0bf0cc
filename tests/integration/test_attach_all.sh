# iowhy attach -a: the whole machine, per process. A known writer (started before the window,
# writing only inside it) is listed with its write bytes within 1% of what it wrote itself.
need_root
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
cp "$TGT" "$TMPROOT/knownwriter"
start_bg P "$TMPROOT/knownwriter" write "$TMPROOT/w.dat" "$TMPROOT/w.count" $((48 << 20))
J=$TMPROOT/all.json
"$IOWHY" attach -a --duration 5 --interval 1s --json-lines "$TMPROOT/all.jsonl" -j "$J" \
	-o "$TMPROOT/all.txt" >"$TMPROOT/blocks" 2>"$TMPROOT/all.err" &
W=$!
wait_started "$TMPROOT/all.err" || fail "attach did not start: $(cat "$TMPROOT/all.err")"
kill -USR1 "$P"
wait "$W"
rc=$?
check "attach -a exits 0 (got $rc)" [ "$rc" = 0 ]
[ -s "$J" ] || { fail "no JSON report"; finish; }
own=$(cat "$TMPROOT/w.count" 2>/dev/null || echo 0)
traced=$(jqr "$J" "[.phases[0].attach.processes[] | select(.pid == $P) | .write_bytes] | add // 0")
echo "  knownwriter: traced $traced bytes written, its own count $own"
check "the writer wrote its 48 MiB inside the window" [ "$own" = $((48 << 20)) ]
check "its write bytes are within 1% of its own count" within "$traced" "$own" 1
check "it is listed by name" fcmp "$(jqr "$J" "[.phases[0].attach.processes[] | select(.pid == $P and .comm == \"knownwriter\")] | length") == 1"
check "iowhy itself is not listed" fcmp "$(jqr "$J" "[.phases[0].attach.processes[] | select(.pid == $W)] | length") == 0"
check "many processes are listed" fcmp "$(jqr "$J" '.phases[0].attach.processes | length') > 10"
check "the text report lists processes" grep -q "per process" "$TMPROOT/all.txt"
n=$(jq -s '[.[] | select((.processes | length) > 0)] | length' "$TMPROOT/all.jsonl")
check "--interval with -a: each interval lists its busiest processes ($n intervals)" [ "$n" -ge 3 ]
check "at most 10 each" [ "$(jq -s '[.[] | select((.processes | length) > 10)] | length' "$TMPROOT/all.jsonl")" = 0 ]
check "the blocks list processes (pid, comm, buckets)" \
	grep -qE '^ +[0-9]+ [^ ]+ +user +[0-9.]+% kernel' "$TMPROOT/blocks"
