# attach -a --interval: each block lists the busiest cgroups of the interval (text and
# --json-lines), and --prometheus has per-cgroup counters for at most 10 cgroups plus "other".
# Two writers in two cgroups made here (started before the window, writing only inside it): their
# cgroups' write bytes summed over the intervals, and the Prometheus counters at the end, are
# within 1% of what each wrote itself. Ten more cgroups with a sleeper each make sure there are
# more cgroups than labels: the rest is summed as cgroup="other". promtool check metrics passes.
#
# witness: each writer's own count of the bytes it wrote (attach_target writes it to a file);
#   tolerance: 1% (its cgroup's json-lines bytes summed over the intervals, and its Prometheus
#   counter); observed: not recorded
# witness: behaviour: every interval lists <= 10 cgroups, promtool check metrics passes, <= 11
#   labels with the rest as "other", --lite has wall counters and null bytes; tolerance: exact;
#   observed: not recorded
# witness: none independent (iowhy against itself): each json-lines cgroup's buckets against its
#   ns; tolerance: exact; observed: not recorded
need_root
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
command -v promtool >/dev/null || skip "promtool missing (Debian package prometheus)"
build_attach_target
make_test_cgroup iowhy-test-cgiv-a
CGA=$CG
make_test_cgroup iowhy-test-cgiv-b
CGB=$CG
cp "$TGT" "$TMPROOT/writera"
cp "$TGT" "$TMPROOT/writerb"
start_bg A "$TMPROOT/writera" write "$TMPROOT/a.dat" "$TMPROOT/a.count" $((40 << 20))
start_bg B "$TMPROOT/writerb" write "$TMPROOT/b.dat" "$TMPROOT/b.count" $((12 << 20))
echo "$A" > "$CGA/cgroup.procs" && echo "$B" > "$CGB/cgroup.procs" || skip "cannot move into the cgroups"
for i in $(seq 10); do
	make_test_cgroup "iowhy-test-cgiv-s$i"
	start_bg S "$TGT" sleep
	echo "$S" > "$CG/cgroup.procs" || skip "cannot move into $CG"
done

L=$TMPROOT/c.jsonl
F=$TMPROOT/c.prom
"$IOWHY" attach -a --duration 3.5 --interval 1s --json-lines "$L" --prometheus "$F" \
	-o "$TMPROOT/c.txt" >"$TMPROOT/blocks" 2>"$TMPROOT/c.err" &
W=$!
wait_started "$TMPROOT/c.err" || fail "attach did not start: $(cat "$TMPROOT/c.err")"
kill -USR1 "$A" "$B"
wait "$W"
rc=$?
check "attach -a --interval exits 0 (got $rc)" [ "$rc" = 0 ]
own_a=$(cat "$TMPROOT/a.count" 2>/dev/null || echo 0)
own_b=$(cat "$TMPROOT/b.count" 2>/dev/null || echo 0)
check "the writers wrote 40 and 12 MiB inside the window ($own_a, $own_b)" \
	[ "$own_a" = $((40 << 20)) -a "$own_b" = $((12 << 20)) ]
ra=${CGA#"$CGROOT"}
rb=${CGB#"$CGROOT"}

# --json-lines: every interval has its busiest cgroups (at most 10); the writers' cgroups' bytes
# summed over the intervals are what they wrote
n=$(jqr "$L" '[.[] | select((.cgroups | length) > 0)] | length' -s)
check "every interval lists cgroups ($n of $(jqr "$L" length -s))" [ "$n" = "$(jqr "$L" length -s)" ]
check "at most 10 each" [ "$(jqr "$L" '[.[] | select((.cgroups | length) > 10)] | length' -s)" = 0 ]
sa=$(jqr "$L" "[.[].cgroups[] | select(.path == \"$ra\") | .write_bytes] | add // 0" -s)
sb=$(jqr "$L" "[.[].cgroups[] | select(.path == \"$rb\") | .write_bytes] | add // 0" -s)
echo "  json-lines: $ra wrote $sa bytes (own $own_a), $rb $sb bytes (own $own_b)"
check "json-lines: $ra's bytes within 1% of its writer's" within "$sa" "$own_a" 1
check "json-lines: $rb's bytes within 1% of its writer's" within "$sb" "$own_b" 1
check "json-lines: a cgroup's buckets add up to its time" [ "$(jqr "$L" '[.[].cgroups[] | select(.user_ns + .kernel_ns + .runq_ns + .iowait_ns + .other_ns != .ns)] | length' -s)" = 0 ]
check "text blocks: the writers' cgroups with their bytes" \
	grep -qE "^  cgroup +cpu outside syscalls .* written [0-9.]+ MiB  $ra\$" "$TMPROOT/blocks"

# --prometheus: counters since the start, at most 10 cgroups and "other"
promtool check metrics < "$F" >"$TMPROOT/lint" 2>&1
rc=$?
check "promtool check metrics passes ($(head -c 300 "$TMPROOT/lint"))" [ "$rc" = 0 ]
check "HELP and TYPE lines for the cgroup counters" \
	grep -q "^# TYPE iowhy_cgroup_write_bytes_total counter" "$F"
pa=$(awk -v k="iowhy_cgroup_write_bytes_total{cgroup=\"$ra\"}" '$1 == k { print $2 }' "$F")
pb=$(awk -v k="iowhy_cgroup_write_bytes_total{cgroup=\"$rb\"}" '$1 == k { print $2 }' "$F")
echo "  prometheus: $ra ${pa:-missing}, $rb ${pb:-missing}"
check "prometheus: $ra's write bytes within 1% of its writer's" within "${pa:-0}" "$own_a" 1
check "prometheus: $rb's write bytes within 1% of its writer's" within "${pb:-0}" "$own_b" 1
labels=$(grep -o '^iowhy_cgroup_wall_seconds_total{cgroup="[^"]*"' "$F" | sort -u | wc -l)
check "at most 11 cgroup labels ($labels)" [ "$labels" -le 11 ]
check "the rest summed as cgroup=\"other\"" \
	grep -q '^iowhy_cgroup_wall_seconds_total{cgroup="other",bucket="other"}' "$F"

# --lite: the cgroups' wall views, no bytes (not available)
"$IOWHY" attach -a --lite --duration 1.2 --interval 1s --json-lines "$L" --prometheus "$F" \
	-o "$TMPROOT/l.txt" >/dev/null 2>&1
check "--lite: attach exits 0" [ "$?" = 0 ]
promtool check metrics < "$F" >"$TMPROOT/lint" 2>&1
check "--lite: promtool check metrics passes" [ "$?" = 0 ]
check "--lite: cgroup wall counters, no byte counters" \
	bash -c "grep -q '^iowhy_cgroup_wall_seconds_total' '$F' && ! grep -q '^iowhy_cgroup_write_bytes' '$F'"
check "--lite: json-lines bytes are null" \
	[ "$(jqr "$L" '[.[].cgroups[] | select(.write_bytes != null)] | length' -s)" = 0 ]
finish
