# I/O wait by syscall (.phases[].iowait_by_syscall) against the workload's own accounts of its
# waits, per kind of call: calib iomix makes N O_DIRECT 4 KiB preads at random places of a file on
# a loop-device ext4 and M x (write 4 KiB + fsync) of another, in M rounds, and reads its own
# witnesses just before and just after every call.
# witnesses (calib reads them, for its own thread):
# - delay accounting (taskstats over netlink, as getdelays: blkio_delay_total; kernel.task_delayacct
#   set to 1 for the test and restored): the sleeps with in_iowait, from the switch-out to the
#   wakeup. It does not count fsync's wait for the journal commit (jbd2_log_wait_commit sleeps in D
#   without in_iowait): for fsync it is only a lower bound.
# - the sleep: CLOCK_MONOTONIC less the thread's CPU clock less its run-queue wait (schedstat),
#   over the call. Every sleep in these calls is in D (none of them sleeps interruptibly).
# tolerances and observed errors (iowhy against the witness; 11 quiet runs, 4 beside two CPU
# spinners; "quiet" here had other test suites running on the VM, load 5-12):
# - pread64 against the sleep: within 10% (observed -1.7%..+4.4%, loaded -0.7%..+0.3%)
# - fsync against the sleep: within 1% (observed -0.19%..+0.30%, loaded -0.08%..+0.01%); and at
#   least 98% of delay accounting's in_iowait part (which was 8-15% of it)
# - the three kinds' sum against the sum of their sleeps: within 5% (observed -0.7%..+1.6%,
#   loaded -0.4%..+0.1%)
# - pread64 against delay accounting: within 50% (observed -19%..+1.5%, loaded -12%..+2%). Delay
#   accounting itself moves when a tracer is attached: without iowhy it ran -2%..-0.5% of the
#   sleep on the same reads, with iowhy's programs (even --no-io) +4%..+19%, while iowhy and the
#   sleep agree (the cause was not found; delay accounting closes a sleep at the wakeup, on the
#   waker's local_clock, the sleep at the scheduler's enqueue).
# - the phase's whole I/O wait is the three kinds' and at most 2% more (the loader's faults;
#   observed: equal in every run).
# - calib witness between iowhy and calib iomix (getrusage, perf task-clock, run-queue wait,
#   elapsed, steal): check_phase_invariants with it (lib.sh, check_cpu_witness; its tolerances
#   there); observed: tree CPU - getrusage -59.8 to -10.8 ms, at most 44% of the tolerance
#   (run-queue wait 1.0-13.7 s; 5 runs, 2 beside two CPU spinners)
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_witness.sh
delayacct_on
LOOP_DIO=1 make_loop_ext4 256
N=4000 M=200
R=$MNT/r W=$MNT/w J=$TMPROOT/r.json O=$TMPROOT/calib.out WF=$TMPROOT/witness
dd if=/dev/urandom of="$R" bs=1M count=64 status=none && sync || skip "cannot write $R"
"$IOWHY" run -o "$TMPROOT/report.txt" --json "$J" -- "$CALIB" witness "$WF" -- "$CALIB" iomix "$R" "$W" $N $M \
	>"$O" 2>"$TMPROOT/calib.err"
rc=$?
check "iowhy run exits 0 (got $rc: $(head -c 200 "$TMPROOT/calib.err"))" test "$rc" = 0
declare -A iw sl bk
for s in pread64 write fsync; do
	sl[$s]=$(kv "$O" "${s}_sleep_ns") bk[$s]=$(kv "$O" "${s}_blkio_ns")
	check "calib read its witnesses around its $s calls ($(kv "$O" "${s}_n") calls: sleep ${sl[$s]} ns, delay accounting ${bk[$s]} ns)" \
		eval 'is_num "${sl[$s]}" && is_num "${bk[$s]}"'
	iw[$s]=$(jqr "$J" ".phases[0].iowait_by_syscall.$s // 0")
	echo "  $s: iowhy's I/O wait ${iw[$s]} ns, the sleep ${sl[$s]} ns, delay accounting ${bk[$s]} ns"
done
check "calib made $N preads, $M writes and $M fsyncs" \
	test "$(kv "$O" pread64_n) $(kv "$O" write_n) $(kv "$O" fsync_n)" = "$N $M $M"
# (a read whose completion came before its task went to sleep does not sleep)
echo "  delay accounting counted $(kv "$O" pread64_blkio_count) sleeps in the $N preads"
check "pread64: iowhy's ${iw[pread64]} ns within 50% of delay accounting's ${bk[pread64]} ns" \
	within "${iw[pread64]}" "${bk[pread64]}" 50
check "pread64: iowhy's ${iw[pread64]} ns within 10% of the sleep ${sl[pread64]} ns" \
	within "${iw[pread64]}" "${sl[pread64]}" 10
check "fsync: iowhy's ${iw[fsync]} ns within 1% of the sleep ${sl[fsync]} ns" \
	within "${iw[fsync]}" "${sl[fsync]}" 1
check "fsync: iowhy's ${iw[fsync]} ns >= delay accounting's in_iowait part ${bk[fsync]} ns" \
	fcmp "${iw[fsync]} >= 0.98 * ${bk[fsync]}"
isum=$(awk -v a="${iw[pread64]}" -v b="${iw[write]}" -v c="${iw[fsync]}" 'BEGIN { printf "%.0f", a + b + c }')
wsum=$(awk -v a="${sl[pread64]}" -v b="${sl[write]}" -v c="${sl[fsync]}" 'BEGIN { printf "%.0f", a + b + c }')
check "the three kinds: iowhy's $isum ns within 5% of their sleeps' $wsum ns" within "$isum" "$wsum" 5
# the phase's I/O wait beyond these calls (the loader's page faults, ...) is small
io=$(jqr "$J" '.phases[0].wall.iowait_ns')
echo "  the phase's I/O wait $io ns, the three kinds' $isum ns"
check "the phase's I/O wait $io ns: the three kinds' $isum ns and at most 2% more" \
	fcmp "$io >= $isum && $io <= 1.02 * $isum"
check_phase_invariants "$J" 0 0 "$WF"
