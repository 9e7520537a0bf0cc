# A run on one disk has no members to compare: fio 4k random reads (O_DIRECT) on one loop device
# over a file in /dev/shm, three runs. The run also touches vda (its binaries), so the report's
# devices are loopN and vda: independent disks, not peers of one stack. No slow-member or shared
# verdict may come out (the loop device is fast and busy, vda slow and idle: a comparison named
# each "the slow member" in turn), and no verdict names a device the workload did not wait on.
# Every verdict of the reports is also held to the rules by lib.sh's check_report_verdicts.
# witness: the test's own rig (one loop device it made) and /sys/block/loopN/stat reads completed,
#          read by the test around each run, against fio's own total_ios; tolerance: /sys/block
#          counts at least fio's reads (observed: fio's 4k reads + 0-4 reads of the loop's own
#          partition scan); the verdict rules: exact (no slow-member, no shared verdict).
need_root
command -v fio >/dev/null || skip "needs fio (tests/install-deps.sh installs it)"
[ -d /dev/shm ] || skip "no /dev/shm"
img=$(mktemp /dev/shm/iowhy-test-single.XXXXXX) || skip "cannot create a file in /dev/shm"
on_exit "rm -f '$img'"
truncate -s 64M "$img"
dev=$(losetup --find --show --direct-io=off "$img") || skip "no free loop device"
on_exit "losetup -d '$dev'"
name=$(basename "$dev")
for run in 1 2 3; do
	J=$TMPROOT/r$run.json
	r0=$(awk '{ print $1 }' "/sys/block/$name/stat")
	"$IOWHY" run -q --json "$J" -o "$TMPROOT/out$run.txt" -- fio --name=rr --filename="$dev" \
		--rw=randread --bs=4k --direct=1 --ioengine=psync --size=48M --runtime=1 --time_based \
		--output-format=json --output="$TMPROOT/fio$run.out" >/dev/null 2>"$TMPROOT/err$run"
	rc=$?
	r1=$(awk '{ print $1 }' "/sys/block/$name/stat")
	check "run $run: iowhy run exits 0 (got $rc)" test "$rc" = 0
	ios=$(jqr "$TMPROOT/fio$run.out" '.jobs[0].read.total_ios')
	check "run $run: /sys/block/$name counted $((r1 - r0)) reads, at least fio's $ios" \
		fcmp "$ios > 0 && $((r1 - r0)) >= $ios"
	check "run $run: no slow-member or shared verdict on one disk" \
		test "$(jqr "$J" '[.verdicts[] | select(.kind == "slow-member" or .kind == "shared")] | length')" = 0
	check "run $run: the disks are not peers (verdict_inputs.peers false, or no members)" \
		test "$(jqr "$J" '.verdict_inputs.peers // false')" = false
	check "run $run: no verdict sentence says 'slow member'" bash -c "! grep -q 'slow member' '$TMPROOT/out$run.txt'"
done
