# The raw_tp fallback (per-task state in a tid hash) gives the same exact counts as tp_btf.
#
# witness: calib's known count (20,000 getppid); tolerance: exact (raw_tp), +2 for the shell's own
#   (late fallback); observed: not recorded
# witness: dd's own size (4 MiB of O_DIRECT writes, bs=1M count=4); tolerance: >= 4 MiB in the
#   tree's write requests (a lower bound); observed: not recorded
# witness: behaviour: probe_mode raw_tp, no block_rq_* probe missing, exit 0; tolerance: exact;
#   observed: not recorded
# witness: calib witness between iowhy and the workload (calib getppid 20000; in the late fallback
#   a shell that runs calib getppid, then execs dd, so that the witness reaps dd; the shell reaps
#   calib getppid, whose run-queue wait the witness does not know): check_phase_invariants with
#   it (lib.sh, check_cpu_witness: the tree's CPU against the witness's task-clock and getrusage;
#   its tolerances there); observed: tree CPU - getrusage +0.1 to +1.3 ms in the raw_tp run (8
#   runs, 3 beside two CPU spinners), +1.1 to +2.0 ms in the late fallback (4 runs, 2 beside
#   spinners), at most 23% of the tolerance
need_root
j=$TMPROOT/r.json wf=$TMPROOT/witness
IOWHY_PROBE_MODE=raw_tp $IOWHY run --no-io --json "$j" -- "$CALIB" witness "$wf" -- "$CALIB" getppid 20000 \
	>"$TMPROOT/raw.txt" 2>&1 || fail "run exited $?"
check "probe mode is raw_tp" test "$(jqr "$j" .probe_mode)" = raw_tp
n=$(sys_count "$j" 0 getppid)
check "getppid count is exactly 20000 (got $n)" test "$n" = 20000
check_phase_invariants "$j" 0 0 "$wf"

# The flavour is chosen before anything loads (tp_btf here); a core that then loads only as raw_tp
# (IOWHY_TEST_FAIL_TP_BTF=1 makes its tp_btf load fail) has the I/O and FUSE objects, which loaded
# beside it with the tree's maps of the first flavour, made again: I/O still counted, the counts
# exact, nothing left loaded.
j=$TMPROOT/late.json wf=$TMPROOT/late.witness
IOWHY_TEST_FAIL_TP_BTF=1 $IOWHY run --json "$j" -- "$CALIB" witness "$wf" -- sh -c \
	"'$CALIB' getppid 20000 && exec dd if=/dev/zero of='$TMPROOT/late.bin' bs=1M count=4 oflag=direct status=none" \
	>"$TMPROOT/late.txt" 2>&1
rc=$?
check "late fallback: iowhy run exits 0 (got $rc)" test "$rc" = 0
[ "$rc" = 0 ] || tail -n 5 "$TMPROOT/late.txt"
check "late fallback: probe mode is raw_tp" test "$(jqr "$j" .probe_mode)" = raw_tp
n=$(sys_count "$j" 0 getppid)
# calib's 20,000 and the shell's own (dash asks its parent's pid once at start)
check "late fallback: getppid count is calib's 20000 and the shell's (got $n)" \
	fcmp "$n >= 20000 && $n <= 20002"
w=$(jqr "$j" '[.phases[0].io.requests[] | select(.op == "write" and .class == "tree") | .bytes] | add // 0')
check "late fallback: the tree's 4 MiB of direct writes seen by the I/O probes (got $w B)" \
	fcmp "$w >= 4194304"
check "late fallback: the block probes attached" test \
	"$(jqr "$j" '[.missing_probes[] | select(startswith("block:block_rq_"))] | length')" = 0
check "late fallback: the witness's command (the shell, dd after its exec) exited 0 (status $(wit "$wf" status))" \
	test "$(wit "$wf" status)" = 0
check_phase_invariants "$j" 0 0 "$wf"
rm -f "$TMPROOT/late.bin"
