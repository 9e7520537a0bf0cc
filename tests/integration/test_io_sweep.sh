# The sweep of dispatches whose completion no program saw (bpf/io.bpf.c io_sweep, run by
# io_probes.c every 50 ms and at a phase's end). Such a dispatch was otherwise ended only when its
# request was used again; until then the disk stayed in flight in iowhy's records and every gap
# between its later requests was counted busy (a fresh-clone run once had vda busy 689 ms of 838
# against the kernel's io_ticks of 24 ms).
# IOWHY_TEST_MISS_COMPLETIONS=5: both completion programs skip every fifth completion. fio random
# 4 KiB O_DIRECT reads, 4 threads, in bursts of 40 reads each with 200 ms idle between them, on a
# loop device. Witnesses: the kernel's busy time (/sys/block io_ticks, whole jiffies) and its read
# count (counted + missed). Control: the sweep skipped (IOWHY_SKIP_PROBES=prog_run:io_sweep, as on
# a kernel without syscall programs): the device is then busy for most of the wall (the gaps), and
# the report lists the probe as not used.
need_root
source tests/integration/lib_dev.sh
fio_loop_file 128
ph='.phases[] | select(.kind == "work") | .io'
for mode in sweep control; do
	J=$TMPROOT/$mode.json skip=
	[ $mode = control ] && skip=prog_run:io_sweep
	IOWHY_TEST_MISS_COMPLETIONS=5 IOWHY_SKIP_PROBES=$skip "$IOWHY" run --json "$J" -- \
		fio --name=b --filename="$F" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--numjobs=4 --thread --size=48M --runtime=2 --time_based --thinktime=200ms \
		--thinktime_blocks=40 --group_reporting --output-format=terse >/dev/null 2>"$TMPROOT/err"
	check "$mode: iowhy run exits 0" test $? = 0
	dev="$ph.devices[] | select(.name == \"$LOOPNAME\")"
	busy=$(jqr "$J" "$dev | .busy_ns")
	ticks=$(jqr "$J" "$dev | .stat.io_ticks_ns")
	read -r reqs missed ios < <(io_witness "$J" "$LOOPNAME")
	all=$(jqr "$J" "$ph.lost.complete_missed")
	swept=$(jqr "$J" "$ph.lost.complete_swept")
	wall=$(jqr "$J" '.phases[] | select(.kind == "work") | .wall_ns')
	listed=$(jqr "$J" '[.probes.missing[] | select(.name == "prog_run:io_sweep")] | length')
	echo "  $mode: busy $busy ns of $wall, the kernel's io_ticks $ticks ns; $reqs counted + $missed" \
		"missed ($swept by the sweep; $all on every disk), /sys/block $ios"
	# io_ticks counts whole jiffies (4 ms at HZ=250; 10 ms at 100): ~10 bursts of a few ms each
	# may add one jiffy more or less each, so 12 of 10 ms of slack, and a factor of 2
	ok="$busy <= 2 * $ticks + 12e7"
	if [ $mode = sweep ]; then
		check "sweep: missed completions counted, about one in five" \
			fcmp "$missed > 0.1 * $ios && $missed < 0.3 * $ios"
		check "sweep: some found by the sweep" fcmp "$swept > 0 && $swept <= $all"
		check "sweep: counted + missed agree with /sys/block within 1%" \
			within "$((reqs + missed))" "$ios" 1
		check "sweep: busy agrees with the kernel's io_ticks" fcmp "$ok"
		check "sweep: the sweep is not listed as missing" test "$listed" = 0
	else
		# the kernel's io_ticks can itself count an idle gap (at the next request's start), so
		# the control's witness is the wall: the bursts are a few ms of each ~200 ms
		check "control: without the sweep the idle gaps count busy (over half the wall)" \
			fcmp "$busy > 0.5 * $wall"
		check "control: the sweep is listed as not used" test "$listed" = 1
		check "control: nothing found by a sweep" test "$swept" = 0
	fi
done
