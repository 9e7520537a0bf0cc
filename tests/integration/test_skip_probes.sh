# IOWHY_SKIP_PROBES reaches every probe, core and I/O: a skipped probe is not loaded, is listed as
# missing with its reason (JSON: missing_probes, probes.missing, io.missing; text: the header), and
# the report still completes; a skipped required probe stops iowhy with one line and exit 1; a name
# no probe has is warned about.
# The session's load/attach/detach times are in the JSON.
#
# witness: the BPF programs held by the iowhy that runs the command (its /proc fdinfo and
#   bpftool, read from inside the workload); tolerance: exact (io_rq_issue and btf_tick loaded
#   or not, no raw_ program in tp_btf mode, two fewer when skipped); observed: not recorded
# witness: dd's 16 O_DIRECT writes of 1 MiB; tolerance: >= 16 tree requests with every probe,
#   0 without block_rq_issue; observed: not recorded
# witness: behaviour: skipped probes listed with reason "skipped" (JSON, io.missing, text), the
#   report completes, a required one exits 1 with one line and no report, an unknown name is
#   warned about; load/attach/detach times > 0; tolerance: exact; observed: not recorded
# witness: calib witness between iowhy and the workload (dd without block_rq_issue; calib sleep 20
#   without sched_wakeup, in both probe modes): check_phase_invariants with it (lib.sh,
#   check_cpu_witness: the tree's CPU against the witness's task-clock and getrusage; its
#   tolerances there); observed: tree CPU - getrusage -0.0 to +4.3 ms, at most 34% of the
#   tolerance (15 phases in 5 runs, 6 beside two CPU spinners)
need_root
dd_cmd=(dd if=/dev/zero of="$TMPROOT/f" bs=1M count=16 oflag=direct status=none)
tree_reqs='[.phases[0].io.requests[] | select(.class == "tree") | .requests] | add // 0'
reason() { jqr "$1" ".probes.missing[] | select(.name == \"$2\") | .reason"; } # json probe
listed() { jqr "$1" ".missing_probes | index(\"$2\") != null"; }            # json probe

# Without a skip list: block rows from the tree, nothing missing for the block layer.
j=$TMPROOT/all.json
$IOWHY run --json "$j" -- "${dd_cmd[@]}" >"$TMPROOT/out" 2>&1; rc=$?
check "all probes: exit 0 (got $rc)" test "$rc" = 0
check "all probes: the tree's block requests are seen ($(jqr "$j" "$tree_reqs"))" \
	test "$(jqr "$j" "$tree_reqs")" -ge 16
check "all probes: block:block_rq_issue is not missing" \
	test "$(listed "$j" block:block_rq_issue)" = false
for t in load_ns attach_ns detach_ns; do
	check "probes.$t is recorded ($(jqr "$j" .probes.$t) ns)" fcmp "$(jqr "$j" .probes.$t) > 0"
done
check "loading takes longer than attaching" \
	fcmp "$(jqr "$j" .probes.load_ns) > $(jqr "$j" .probes.attach_ns)"

# Skip block:block_rq_issue: listed with its reason, no request of the tree is tracked (they are
# tracked from their issue), the completions without an issue are counted, the report completes.
j=$TMPROOT/skip.json w=$TMPROOT/skip.witness
IOWHY_SKIP_PROBES=block:block_rq_issue $IOWHY run --json "$j" -- "$CALIB" witness "$w" -- "${dd_cmd[@]}" \
	>"$TMPROOT/out" 2>&1; rc=$?
check "skip block_rq_issue: exit 0 (got $rc)" test "$rc" = 0
check "missing_probes lists block:block_rq_issue" \
	test "$(listed "$j" block:block_rq_issue)" = true
check "probes.missing gives the reason: skipped" \
	test "$(reason "$j" block:block_rq_issue)" = skipped
check "io.missing of the phase lists it" \
	test "$(jqr "$j" '.phases[0].io.missing | index("block:block_rq_issue") != null')" = true
# (tracepoints this kernel lacks, such as nfs:*, are listed as absent on every run: not counted)
check "no other probe is missing ($(jqr "$j" '.missing_probes | join(",")'))" \
	test "$(jqr "$j" '[.probes.missing[] | select(.reason != "absent")] | length')" = 1
check "no tree request is tracked without the issue probe (got $(jqr "$j" "$tree_reqs"))" \
	test "$(jqr "$j" "$tree_reqs")" = 0
check "completions without an issue are counted" \
	fcmp "$(jqr "$j" .phases[0].io.lost.complete_untracked) > 0"
check "the text header names it with the reason" \
	grep -q "missing optional probes.*block:block_rq_issue (skipped by IOWHY_SKIP_PROBES)" \
	"$TMPROOT/out"
check "the report completes (explanation printed)" grep -q "== explanation" "$TMPROOT/out"
check_phase_invariants "$j" 0 0 "$w"

# A core optional probe, in both probe modes.
for mode in tp_btf raw_tp; do
	j=$TMPROOT/wakeup-$mode.json w=$TMPROOT/wakeup-$mode.witness
	IOWHY_PROBE_MODE=$mode IOWHY_SKIP_PROBES=' sched:sched_wakeup ' \
		$IOWHY run --no-io --json "$j" -- "$CALIB" witness "$w" -- "$CALIB" sleep 20 >/dev/null 2>&1; rc=$?
	check "$mode: skip sched:sched_wakeup: exit 0 (got $rc)" test "$rc" = 0
	check "$mode: probe mode is $mode" test "$(jqr "$j" .probe_mode)" = $mode
	check "$mode: sched:sched_wakeup is listed as skipped" \
		test "$(reason "$j" sched:sched_wakeup)" = skipped
	check "$mode: sched:sched_wakeup_new is not" \
		test "$(listed "$j" sched:sched_wakeup_new)" = false
	check_phase_invariants "$j" 0 0 "$w"
done

# A required one: one line, exit 1, no report.
IOWHY_SKIP_PROBES=raw_syscalls:sys_enter $IOWHY run -- true >"$TMPROOT/out" 2>"$TMPROOT/err"; rc=$?
check "skip raw_syscalls:sys_enter: exit 1 (got $rc)" test "$rc" = 1
check "one line: $(head -c 200 "$TMPROOT/err")" test "$(wc -l <"$TMPROOT/err")" = 1
check "it names the probe and the reason" grep -q \
	"required tracepoint raw_syscalls:sys_enter: skipped by IOWHY_SKIP_PROBES" "$TMPROOT/err"
check "no report" test ! -s "$TMPROOT/out"

# A name no probe stands on (the category is missing) is not silently taken for a skip.
IOWHY_SKIP_PROBES=block_rq_issue $IOWHY run -- true >/dev/null 2>"$TMPROOT/err"; rc=$?
check "unknown name: exit 0 (got $rc)" test "$rc" = 0
check "unknown name: one warning naming it" \
	test "$(grep -c "IOWHY_SKIP_PROBES names block_rq_issue, but no probe" "$TMPROOT/err")" = 1

# Programs that will not be used are not even loaded: list the programs held by the iowhy process
# that runs the command ($PPID of the traced shell: other iowhy sessions may run at the same time).
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
[ -x "$BPFTOOL" ] || skip "bpftool not installed"
cat >"$TMPROOT/progs.sh" <<'END'
ids=$(grep -h '^prog_id:' /proc/$PPID/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un |
	paste -sd, -)
"$BPFTOOL" -j prog show |
	jq -r "[$ids] as \$ids | .[] | select(.id as \$i | \$ids | index(\$i)) | .name" >"$1"
END
progs() { # skip-list file: the names of the programs our iowhy loaded, one a line, into file
	IOWHY_SKIP_PROBES=$1 BPFTOOL=$BPFTOOL $IOWHY run -- sh "$TMPROOT/progs.sh" "$2" \
		>/dev/null 2>&1
}
progs '' "$TMPROOT/all.progs"
progs block:block_rq_issue,timer:hrtimer_expire_entry "$TMPROOT/skip.progs"
n_all=$(wc -l <"$TMPROOT/all.progs") n_skip=$(wc -l <"$TMPROOT/skip.progs")
check "without skips: io_rq_issue and btf_tick are loaded ($n_all programs)" \
	sh -c "grep -qx io_rq_issue '$TMPROOT/all.progs' && grep -qx btf_tick '$TMPROOT/all.progs'"
check "no raw_tp program is loaded in tp_btf mode" sh -c "! grep -q '^raw_' '$TMPROOT/all.progs'"
check "skipped: io_rq_issue is not loaded" sh -c "! grep -qx io_rq_issue '$TMPROOT/skip.progs'"
check "skipped: btf_tick is not loaded" sh -c "! grep -qx btf_tick '$TMPROOT/skip.progs'"
check "two programs fewer ($n_skip vs $n_all)" test "$n_skip" = "$((n_all - 2))"
