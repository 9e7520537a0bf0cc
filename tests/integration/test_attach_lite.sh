# attach --lite: no raw_syscalls programs; syscall counts are marked not available (JSON null, a
# line in the text), never zeros; the wall view still closes.
need_root
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
start_bg P "$TGT" fsync "$TMPROOT/f" "$TMPROOT/calls"
J=$TMPROOT/l.json
"$IOWHY" attach -p "$P" --lite --duration 4 -j "$J" -o "$TMPROOT/l.txt" -v 2>"$TMPROOT/err" &
W=$!
wait_started "$TMPROOT/err" || fail "attach --lite did not start: $(cat "$TMPROOT/err")"
running=$(leftovers -p "$P" --lite --duration 4 -j "$J" -o "$TMPROOT/l.txt" -v)
names=$(bpf_prog_names "$W")
progs=$(echo "$names" | grep -c .)
sysprogs=$(echo "$names" | grep -cE '^(btf|raw)_sys_(enter|exit)$')
echo "  programs held: $(echo "$names" | tr '\n' ' ')"
wait "$W"
rc=$?
check "the leftovers check sees iowhy and its BPF fds while it runs ($running)" [ "$running" -gt 5 ]
check "and nothing once it has exited" \
	[ "$(leftovers -p "$P" --lite --duration 4 -j "$J" -o "$TMPROOT/l.txt" -v)" = 0 ]
check "attach --lite exits 0 (got $rc)" [ "$rc" = 0 ]
check "iowhy had programs loaded ($progs)" [ "$progs" -gt 0 ]
check "none of them on raw_syscalls ($sysprogs)" [ "$sysprogs" = 0 ]
check "JSON: syscalls null (not available)" [ "$(jqr "$J" '.phases[0].syscalls')" = null ]
check "JSON: syscalls_available false" [ "$(jqr "$J" '.phases[0].syscalls_available')" = false ]
check "JSON: the attach object says lite" [ "$(jqr "$J" '.phases[0].attach.lite')" = true ]
check "JSON: per-process bytes null, not 0" [ "$(jqr "$J" '.phases[0].attach.processes[0].write_bytes')" = null ]
check "text: syscalls marked not available" grep -q "syscalls: not available (--lite" "$TMPROOT/l.txt"
check "text: no syscall table" bash -c "! grep -q 'top .* by total time' '$TMPROOT/l.txt'"
check "text: one on-CPU row, no zero kernel row" \
	bash -c "grep -q 'on CPU (not split)' '$TMPROOT/l.txt' && ! grep -q 'kernel CPU' '$TMPROOT/l.txt'"
check "JSON: the syscall probes left out are not 'missing'" \
	[ "$(jqr "$J" '[.missing_probes[] | select(startswith("raw_syscalls"))] | length')" = 0 ]
wall=$(jqr "$J" '.phases[0].wall_ns')
sum=$(jqr "$J" '.phases[0].wall | .user_ns + .kernel_ns + .runq_ns + .iowait_ns + .other_ns + .unattributed_ns')
un=$(jqr "$J" '.phases[0].wall.unattributed_ns')
check "the wall view closes within 1% ($sum vs $wall)" within "$sum" "$wall" 1
check "unattributed under 1%" fcmp "$un <= 0.01 * $wall"
check "on-CPU and I/O wait are both seen" fcmp "$(jqr "$J" '.phases[0].wall.user_ns') > 0 && $(jqr "$J" '.phases[0].wall.iowait_ns') > 0"
"$IOWHY" attach -p "$P" --lite --slow 10 >/dev/null 2>"$TMPROOT/e2"
check "--lite with --slow: exit 2, one line" [ "$?" = 2 ] && [ "$(wc -l < "$TMPROOT/e2")" = 1 ]
