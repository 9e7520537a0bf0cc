# libbpf relocates iowhy's objects against a cut-down copy of the kernel's BTF (the candidates of
# the root types the objects name, with what they embed: src/collect/core_btf.h), not the whole of
# it. The witness: libbpf's own account of every CO-RE relocation (IOWHY_DEBUG=1 prints it), the
# same session run with the kernel's whole BTF (IOWHY_TEST_WHOLE_CORE_BTF=1). Each relocation
# must find the same candidates, match the same field path at the same offset and patch the same
# instruction with the same value; only the candidates' type ids may differ. Every object is
# loaded: run (core, I/O, sampler, FUSE) and attach --slow (the task iterator, the slow-call probes).
need_root
W=$TMPROOT
# relocs LOG: libbpf's relocation lines without the type ids (which differ between the two BTFs)
relocs() {
	grep -E "found target candidate|matching candidate|patched insn|poison" "$1" |
		sed -e 's/^libbpf: //' -e 's/\[[0-9]*\] //g' | sort
}
# session MODE: a run and an attach, libbpf's debug output in $W/MODE.log, the JSON in $W/MODE-*.json
session() {
	local mode=$1 whole=0

	[ "$mode" = whole ] && whole=1
	IOWHY_DEBUG=1 IOWHY_TEST_WHOLE_CORE_BTF=$whole "$IOWHY" run -q --json "$W/$mode-run.json" \
		-o "$W/$mode-run.txt" -- /bin/true 2>"$W/$mode.log"
	check "iowhy run exits 0 ($mode BTF)" test $? = 0
	sleep 30 &
	local pid=$!
	IOWHY_DEBUG=1 IOWHY_TEST_WHOLE_CORE_BTF=$whole "$IOWHY" attach -q -p "$pid" --duration 0.3 \
		--slow 5 --json "$W/$mode-attach.json" -o "$W/$mode-attach.txt" 2>>"$W/$mode.log"
	check "iowhy attach --slow exits 0 ($mode BTF)" test $? = 0
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	relocs "$W/$mode.log" >"$W/$mode.relocs"
}
session cut
session whole

types=$(jqr "$W/cut-run.json" .probes.core_btf_types)
check "the cut-down BTF was used ($types types)" fcmp "$types > 0 && $types < 20000"
check "it was used by attach too" fcmp "$(jqr "$W/cut-attach.json" .probes.core_btf_types) == $types"
check "IOWHY_TEST_WHOLE_CORE_BTF=1 relocates against the whole BTF" \
	fcmp "$(jqr "$W/whole-run.json" .probes.core_btf_types) == 0"
check "making it is timed" fcmp "$(jqr "$W/cut-run.json" .probes.core_btf_ns) > 0"
n=$(grep -c "patched insn" "$W/whole.relocs")
check "libbpf reported the relocations ($n patched instructions)" fcmp "$n >= 100"
for obj in btf_sys_enter btf_sched_switch io_rq_issue fuse_send on_sample seed_tasks slow_commit_start; do
	check "relocations of $obj are among them" grep -q "prog '$obj'" "$W/whole.relocs"
done
check "every relocation found the same candidates, matched the same access and patched the same value ($(wc -l <"$W/cut.relocs") lines)" \
	cmp -s "$W/cut.relocs" "$W/whole.relocs"
if ! cmp -s "$W/cut.relocs" "$W/whole.relocs"; then
	diff "$W/whole.relocs" "$W/cut.relocs" | head -20
fi
check "no relocation failed" test "$(grep -c poison "$W/cut.relocs")" = "$(grep -c poison "$W/whole.relocs")"
check "the same programs loaded" test \
	"$(jqr "$W/cut-run.json" '[.probes.programs[].program] | sort | join(",")')" = \
	"$(jqr "$W/whole-run.json" '[.probes.programs[].program] | sort | join(",")')"
