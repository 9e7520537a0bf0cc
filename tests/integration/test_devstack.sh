# Device stack discovery on real stacks: btrfs raid0 over three loop devices over files on the
# root disk, ext4 on one loop device, a bare device; refusals of what cannot be mapped.
#
# witness: the stack the test built itself (btrfs raid0 over its three loop devices, ext4 on its
#   loop device, the lower disk from findmnt and sysfs); tolerance: exact (the printed line);
#   observed: not recorded
# witness: behaviour: what cannot be mapped (/dev/null, /dev/shm, /proc/self, a missing path):
#   exit 2, one line on stderr, nothing on stdout; tolerance: exact; observed: not recorded
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh

make_btrfs_loops 3 256
# (members in sysfs order, by name: losetup -f need not hand them out in that order on a host
# where other loop devices come and go)
# shellcheck disable=SC2046 # one name per word
set -- $(printf '%s\n' $BT_LOOPS | LC_ALL=C sort)
want="$BT_MNT (btrfs raid0) → $1, $2, $3 → $BT_LOWER"
out=$($IOWHY hunt --stack "$BT_MNT")
check "btrfs stack: '$out' is '$want'" [ "$out" = "iowhy hunt: $want" ]
out=$($IOWHY hunt --stack "$BT_MNT/.")
check "a path inside the btrfs maps to the same stack" [ "$out" = "iowhy hunt: $want" ]
out=$($IOWHY hunt --stack "/dev/$2")
check "a member device alone: '$out'" [ "$out" = "iowhy hunt: /dev/$2 → $BT_LOWER" ]

make_loop_ext4 64
out=$($IOWHY hunt --stack "$MNT")
check "ext4 on a loop device: '$out'" \
	[ "$out" = "iowhy hunt: $MNT (ext4) → $LOOPNAME → $BT_LOWER" ]

# what cannot be mapped: one line on stderr, exit 2, nothing on stdout
for bad in /dev/null /dev/shm /proc/self "$TMPROOT/nonexistent"; do
	$IOWHY hunt --stack "$bad" >"$TMPROOT/out" 2>"$TMPROOT/err"
	rc=$?
	check "hunt $bad: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "hunt $bad: one line on stderr" [ "$(wc -l < "$TMPROOT/err")" = 1 ]
	check "hunt $bad: nothing on stdout" [ ! -s "$TMPROOT/out" ]
done
