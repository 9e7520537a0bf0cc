# exclusive: attach -a traces every process on the machine, and the test counts them
# iowhy attach -a: the whole machine, per process and per cgroup. A known writer (started before
# the window, writing only inside it) is listed with its write bytes within 1% of what it wrote
# itself. It and a second writer sit in a cgroup v2 directory of their own: that cgroup's row has
# both, with their write bytes summed (within 1% of what the two wrote).
#
# witness: each writer's own count of the bytes it wrote (attach_target writes it to a file);
#   tolerance: 1% (the writer's row, and the test cgroup's row against the two summed);
#   observed: not recorded
# witness: behaviour: the writer listed by name, iowhy not listed, > 10 processes, >= 3 interval
#   lines with processes, <= 10 each, the cgroup row with 2 processes; tolerance: exact;
#   observed: not recorded
# witness: none independent (iowhy against itself): the cgroup's buckets against its wall_ns,
#   its cpu_ns against its user + kernel buckets; tolerance: 1%; observed: not recorded
need_root
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
make_test_cgroup iowhy-test-all
cp "$TGT" "$TMPROOT/knownwriter"
cp "$TGT" "$TMPROOT/secondwriter"
start_bg P "$TMPROOT/knownwriter" write "$TMPROOT/w.dat" "$TMPROOT/w.count" $((48 << 20))
start_bg Q "$TMPROOT/secondwriter" write "$TMPROOT/w2.dat" "$TMPROOT/w2.count" $((16 << 20))
echo "$P" > "$CG/cgroup.procs" && echo "$Q" > "$CG/cgroup.procs" || skip "cannot move into $CG"
J=$TMPROOT/all.json
"$IOWHY" attach -a --duration 5 --interval 1s --json-lines "$TMPROOT/all.jsonl" -j "$J" \
	-o "$TMPROOT/all.txt" >"$TMPROOT/blocks" 2>"$TMPROOT/all.err" &
W=$!
wait_started "$TMPROOT/all.err" || fail "attach did not start: $(cat "$TMPROOT/all.err")"
kill -USR1 "$P" "$Q"
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
n=$(jqr "$TMPROOT/all.jsonl" '[.[] | select((.processes | length) > 0)] | length' -s)
check "--interval with -a: each interval lists its busiest processes ($n intervals)" [ "$n" -ge 3 ]
check "at most 10 each" [ "$(jqr "$TMPROOT/all.jsonl" '[.[] | select((.processes | length) > 10)] | length' -s)" = 0 ]
check "the blocks list processes (pid, comm, buckets)" \
	grep -qE '^ +[0-9]+ [^ ]+ +cpu outside syscalls +[0-9.]+% in +[0-9.]+% runq' "$TMPROOT/blocks"

# the cgroup view (cgroup v2 paths as /proc/PID/cgroup gives them: relative to the v2 mount)
rel=${CG#"$CGROOT"}
own2=$(cat "$TMPROOT/w2.count" 2>/dev/null || echo 0)
row=".phases[0].attach.cgroups[] | select(.path == \"$rel\")"
cgw=$(jqr "$J" "[$row | .write_bytes] | add // 0")
echo "  cgroup $rel: write bytes $cgw, the writers' own counts $own + $own2"
check "the second writer wrote its 16 MiB inside the window" [ "$own2" = $((16 << 20)) ]
check "the test cgroup has one row" [ "$(jqr "$J" "[$row] | length")" = 1 ]
check "with both processes in it" [ "$(jqr "$J" "[$row | .processes] | add // 0")" = 2 ]
check "its write bytes are the two writers' sum within 1%" within "$cgw" $((own + own2)) 1
check "both writers name it as their cgroup" [ "$(jqr "$J" "[.phases[0].attach.processes[] | select(.pid == $P or .pid == $Q) | select(.cgroup == \"$rel\")] | length")" = 2 ]
check "its wall view adds up to its time" within \
	"$(jqr "$J" "[$row | .wall | .user + .kernel + .runq + .iowait + .other + .unattributed] | add")" \
	"$(jqr "$J" "[$row | .wall_ns] | add")" 1
check "its tasks' CPU is at least its on-CPU wall" fcmp \
	"$(jqr "$J" "[$row | .cpu_ns] | add") >= $(jqr "$J" "[$row | .wall.user + .wall.kernel] | add") * 0.99"
check "the text report has the per-cgroup list" grep -q "== per cgroup" "$TMPROOT/all.txt"
check "the text row has the path and 2 processes" grep -qE " 2  $rel\$" "$TMPROOT/all.txt"
