# Start-up without libbpf's kallsyms parse and with untrusted I/O pointers, and the fallbacks for
# kernels without those features (IOWHY_FALLBACKS=1: the kallsyms scan, the I/O object built
# without bpf_rdonly_cast) give the same answers. ext4 on a loop device, `run --sync` of a 32 MiB
# buffered write, once each way: the bytes the loop driver's worker wrote below loopN (found by
# the work functions' addresses) are charged to the workload within 2% of loopN's own write bytes
# (/sys/block/loopN/stat over the same run); the same I/O programs load, with different verifier
# work; only the fallback reads /proc/kallsyms (strace; --no-sample: the sampler reads it too).
#
# witness: /sys/block/loopN/stat write sectors (field 7), read by the test around each run;
#   tolerance: the bytes charged to the workload below loopN within 2%, both ways; observed: not
#   recorded
# witness: strace -f -e openat of the run (the test's own); tolerance: /proc/kallsyms read 0
#   times by default, once with IOWHY_FALLBACKS=1 (exact); observed: not recorded
# witness: none independent (iowhy against itself): the same I/O programs and missing probes both
#   ways, io_rq_issue's verified instruction counts differ; tolerance: exact; observed: not
#   recorded
need_root
command -v strace >/dev/null || skip "strace not installed"
source tests/integration/lib_dev.sh
make_loop_ext4 128
src=$(findmnt -no SOURCE --target "$TMPROOT" | sed 's/\[.*//')
DISK=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1)
[ -n "$DISK" ] || DISK=$(basename "$src")
[ -e "/sys/block/$DISK/stat" ] || skip "backing file not on a block device ($src)"
below="[.phases[].io.requests[] | select(.disk == \"$DISK\" and .op == \"write\" and .class == \"stack\" and .upper == \"$LOOPNAME\") | .workload_bytes] | add // 0"
insns() { jqr "$1" "[.probes.programs[] | select(.program == \"$2\") | .verified_insns] | add // 0"; }
for way in default fallback; do
	J=$TMPROOT/$way.json
	rm -f "$MNT/f"
	sync
	loop0=$(dev_stat "$LOOPNAME" 7)
	fb=0
	[ $way = fallback ] && fb=1
	IOWHY_FALLBACKS=$fb strace -f -qq -e trace=openat -o "$TMPROOT/$way.st" "$IOWHY" run \
		--no-sample --json "$J" --sync "$MNT" -- dd if=/dev/zero of="$MNT/f" bs=1M count=32 \
		status=none >"$TMPROOT/$way.out" 2>&1
	check "$way: iowhy run exits 0" test $? = 0
	loop_w=$(( ($(dev_stat "$LOOPNAME" 7) - loop0) * 512 ))
	charged=$(jqr "$J" "$below")
	echo "  $way: $LOOPNAME wrote $loop_w B; $DISK bytes below it charged to the workload: $charged B"
	check "$way: bytes below $LOOPNAME charged to the workload within 2% of its writes" \
		within "$charged" "$loop_w" 2
	jqr "$J" '[.probes.programs[] | select(.set == "I/O") | .program] | sort | .[]' >"$TMPROOT/$way.progs"
	jqr "$J" '.missing_probes[]' >"$TMPROOT/$way.missing"
	reads=$(grep -c '/proc/kallsyms' "$TMPROOT/$way.st")
	if [ $way = default ]; then
		check "default: /proc/kallsyms is not read (read $reads times)" test "$reads" = 0
	else
		check "fallback: /proc/kallsyms is read once (read $reads times)" test "$reads" = 1
	fi
done
check "both ways load the same I/O programs ($(wc -l <"$TMPROOT/default.progs"))" \
	cmp -s "$TMPROOT/default.progs" "$TMPROOT/fallback.progs"
check "both ways miss the same probes ($(wc -l <"$TMPROOT/default.missing"))" \
	cmp -s "$TMPROOT/default.missing" "$TMPROOT/fallback.missing"
a=$(insns "$TMPROOT/default.json" io_rq_issue)
b=$(insns "$TMPROOT/fallback.json" io_rq_issue)
check "io_rq_issue is verified differently ($a, trusted $b instructions): another object" \
	fcmp "$a > 0 && $b > 0 && $a != $b"
finish
