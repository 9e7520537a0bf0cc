# Page faults: 256 MiB of fresh anonymous memory touched page by page is almost all page-fault
# time, which the syscall tracepoints call user CPU. The samples must put at least 70% of the
# tree's CPU under page faults, with the fault path by name among their kernel functions.
need_root
j=$TMPROOT/r.json
$IOWHY run --no-io --json "$j" -- "$CALIB" touch 256 >/dev/null || fail "iowhy run exited $?"
cs=".phases[0].cpu_samples"
samples=$(jqr "$j" "$cs.samples")
check "CPU samples were taken ($samples)" fcmp "${samples:-0} >= 50"
f=$(jqr "$j" "$cs | .tree_user_split.page_fault.ns / (.tree_user_ns + .tree_kernel_ns)")
check "page faults are $f of the tree's CPU (>= 0.70)" fcmp "$f >= 0.70"
names=$(jqr "$j" "[$cs.by_class.page_fault.top_kernel[].name] | join(\" \")")
check "the fault path is named ($names)" grep -qE \
	'(^| )(asm_exc_page_fault|exc_page_fault|do_user_addr_fault|handle_mm_fault|__handle_mm_fault|do_anonymous_page|clear_page_erms|clear_page_rep|clear_page_orig)( |$)' <<<"$names"
# the split of the wall view's user bucket adds up to the bucket
sum=$(jqr "$j" "[$cs.wall_user_split[].ns] | add")
user=$(jqr "$j" ".phases[0].wall.user_ns")
check "the user bucket's split ($sum ns) adds up to it ($user ns)" within "$sum" "$user" 0.1
check_phase_invariants "$j" 0
