# libbpf relocates iowhy's objects against a cut-down copy of the kernel's BTF (the candidates of
# the root types the objects name, with what they embed: src/collect/core_btf.h), not the whole of
# it. The witness: libbpf's own account of every CO-RE relocation (IOWHY_DEBUG=1 prints it), the
# same session run with the kernel's whole BTF (IOWHY_TEST_WHOLE_CORE_BTF=1), each without the
# machine's FUSE mounts (no_fuse: the FUSE daemon programs, loaded at the first, load in neither).
# Each relocation
# must find the same candidates, match the same field path at the same offset and patch the same
# instruction with the same value; only the candidates' type ids may differ. Every object is
# loaded: run (core, I/O, sampler, FUSE requests) and attach --slow (the task iterator, the slow-call probes).
# A root type vmlinux lacks (the loop driver's, on a kernel that has it as a module) is taken from
# the module BTFs, as libbpf does: a module made here of the kernel's own loop types, with those
# hidden from vmlinux's BTF, relocates the same.
#
# witness: libbpf's own account of each CO-RE relocation (IOWHY_DEBUG=1), with the cut-down BTF
#   against the kernel's whole BTF, and with the loop types in a module made here against the
#   kfunc-less I/O object on the whole BTF; tolerance: exact (the same lines but type ids);
#   observed: 951 identical lines when it was written
# witness: behaviour: core_btf_types (0 < N < 20000 cut, 0 whole or with a junk module BTF), the
#   same programs loaded, no failed load, gen_core_roots' output for a flavour and a type-id
#   relocation made here; tolerance: exact; observed: not recorded
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
	no_fuse env IOWHY_DEBUG=1 IOWHY_TEST_WHOLE_CORE_BTF=$whole "$IOWHY" run -q --json "$W/$mode-run.json" \
		-o "$W/$mode-run.txt" -- /bin/true 2>"$W/$mode.log"
	check "iowhy run exits 0 ($mode BTF)" test $? = 0
	relocs "$W/$mode.log" >"$W/$mode-run.relocs"
	sleep 30 &
	local pid=$!
	no_fuse env IOWHY_DEBUG=1 IOWHY_TEST_WHOLE_CORE_BTF=$whole "$IOWHY" attach -q -p "$pid" --duration 0.3 \
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

# A kernel with the loop driver as a module: its types hidden from vmlinux's BTF, a module BTF made
# of them (split over vmlinux's, as /sys/kernel/btf/loop would be) in a directory of module BTFs.
mkdir -p "$W/mods"
if "$OUT/mk_split_btf" "$W/mods/loop" loop_device loop_worker; then
	modrun() { # NAME MODULE_DIR [env...]: a run with the loop types hidden, debug log in $W/NAME.log
		local name=$1 dir=$2
		shift 2
		no_fuse env IOWHY_DEBUG=1 IOWHY_TEST_CORE_BTF_HIDE=loop_device,loop_worker \
			IOWHY_TEST_CORE_BTF_MODULES="$dir" "$@" "$IOWHY" run -q --json "$W/$name.json" \
			-o "$W/$name.txt" -- /bin/true 2>"$W/$name.log"
	}
	modrun mod "$W/mods"
	check "a run with the loop types in a module exits 0" test $? = 0
	mt=$(jqr "$W/mod.json" .probes.core_btf_types)
	check "the cut-down BTF was used ($mt types)" fcmp "$mt > 0 && $mt < 20000"
	# bpf_rdonly_cast takes vmlinux's type ids only: the I/O object built without it is loaded
	# (IOWHY_FALLBACKS=1 loads it too), so the witness is that object against the whole BTF
	no_fuse env IOWHY_DEBUG=1 IOWHY_FALLBACKS=1 IOWHY_TEST_WHOLE_CORE_BTF=1 "$IOWHY" run -q --json "$W/fb.json" \
		-o "$W/fb.txt" -- /bin/true 2>"$W/fb.log"
	relocs "$W/mod.log" >"$W/mod.relocs"
	relocs "$W/fb.log" >"$W/fb.relocs"
	check "every relocation came out as against the whole BTF ($(wc -l <"$W/mod.relocs") lines)" \
		cmp -s "$W/mod.relocs" "$W/fb.relocs"
	check "the loop driver's relocations are among them" grep -q "struct loop_device" "$W/mod.relocs"
	ins() { jqr "$1" '[.probes.programs[] | select(.set == "I/O") | "\(.program) \(.verified_insns)"] | sort | join(",")'; }
	check "without vmlinux ids for the loop types, the I/O object without the kfunc is loaded" \
		test "$(ins "$W/mod.json")" = "$(ins "$W/fb.json")"
	check "... which is not the default one" test "$(ins "$W/mod.json")" != "$(ins "$W/cut-run.json")"
	check "... chosen before loading, not after a failed load" \
		test "$(grep -c "failed to load" "$W/mod.log")" = 0
	# a module BTF that cannot be read: the whole BTF, and the session goes on
	mkdir -p "$W/bad"
	head -c 100 /dev/urandom >"$W/bad/junk"
	modrun bad "$W/bad"
	check "with an unreadable module BTF the run exits 0" test $? = 0
	check "... relocating against the whole BTF" fcmp "$(jqr "$W/bad.json" .probes.core_btf_types) == 0"
else
	fail "mk_split_btf could not make a module BTF"
fi

# The build step that names the root types (tools/gen_core_roots.c), on objects made here: a
# relocation against a flavour ("task_struct___old", as a program written for two kernels has)
# names the type without it; a type-id relocation, which the cut-down BTF cannot answer, sets
# core_btf_deep (the whole BTF is used then).
GEN=$OUT/gen_core_roots
ARCH_DIR=vmlinux/$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
if [ -x "$GEN" ] && command -v clang >/dev/null && [ -f "$ARCH_DIR/vmlinux.h" ]; then
	cat >"$W/flavour.bpf.c" <<'SRC'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
struct task_struct___old { long state; } __attribute__((preserve_access_index));
char LICENSE[] SEC("license") = "GPL";
__u64 out;
SEC("raw_tp/sched_switch")
int f(void *ctx)
{
	struct task_struct___old *t = (void *)bpf_get_current_task();
	out = BPF_CORE_READ(t, state);
	return 0;
}
SRC
	sed -e 's/out = BPF_CORE_READ(t, state);/out = BPF_CORE_READ(t, state) + bpf_core_type_id_kernel(struct file);/' \
		"$W/flavour.bpf.c" >"$W/deep.bpf.c"
	for o in flavour deep; do
		clang -g -O2 -target bpf -I"$ARCH_DIR" -c "$W/$o.bpf.c" -o "$W/$o.bpf.o" 2>"$W/$o.cc"
		check "the $o test object builds" test $? = 0
		"$GEN" "$W/$o.bpf.o" >"$W/$o.c"
		check "gen_core_roots reads it" test $? = 0
	done
	check "a flavour's relocation names the type without it" grep -qx '	"task_struct",' "$W/flavour.c"
	check "... and not the flavour" test "$(grep -c '___' "$W/flavour.c")" = 0
	check "field relocations leave core_btf_deep 0" grep -q 'core_btf_deep = 0;' "$W/flavour.c"
	check "a type-id relocation sets core_btf_deep" grep -q 'core_btf_deep = 1;' "$W/deep.c"
	check "... and names its type" grep -qx '	"file",' "$W/deep.c"
else
	skip_part "no $GEN, clang or $ARCH_DIR/vmlinux.h: the build step is not tried on its own"
fi
