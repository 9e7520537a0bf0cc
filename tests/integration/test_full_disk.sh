# A full disk: gen refuses up front when the files cannot fit, and a workload that fills the
# file system mid-run is reported with its own failure status; nothing of iowhy's is left behind.
#
# witness: behaviour: gen on a 512 KiB tmpfs: exit 2, one line about space, nothing written; dd
#   filling it: dd's own status 1 and its message, the report and JSON status; tolerance: exact;
#   observed: not recorded
need_root
MNT=$TMPROOT/small
mkdir -p "$MNT"
mount -t tmpfs -o size=512k tmpfs "$MNT" || skip "cannot mount a tmpfs"
on_exit "umount '$MNT'"
$IOWHY gen --no-io --strategy direct --count 1000 --size 10k --dir "$MNT" >/dev/null 2>"$TMPROOT/err"; rc=$?
check "gen refuses a run that cannot fit: exit 2 (got $rc)" test "$rc" = 2
check "with one line about space" grep -qi "space" "$TMPROOT/err"
check "in one line" test "$(wc -l <"$TMPROOT/err")" = 1
check "and leaves nothing in the directory" test -z "$(ls -A "$MNT")"
$IOWHY run -v --no-io --json "$TMPROOT/r.json" -o "$TMPROOT/report.txt" -- dd if=/dev/zero of="$MNT/f" bs=64k \
	count=64 status=none >"$TMPROOT/out" 2>"$TMPROOT/err"; rc=$?
check "dd filling the disk: iowhy exits with dd's status 1 (got $rc)" test "$rc" = 1
check "dd's own message comes through" grep -q "No space left on device" "$TMPROOT/err"
check "the report is still printed" grep -q "wall view" "$TMPROOT/report.txt"
check "JSON records the exit status" test "$(jqr "$TMPROOT/r.json" '.phases[0].status')" = 1
rm -f "$MNT/f"
