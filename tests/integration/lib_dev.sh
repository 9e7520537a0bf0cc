# Real block devices for the I/O integration tests, always torn down (sourced after lib.sh).
#
#   make_loop_ext4 SIZE_MB      loop device over a file under $TMPROOT, mkfs.ext4 with a journal,
#                               mounted on a temp dir. Exports LOOPDEV (/dev/loopN), LOOPNAME
#                               (loopN), LOOPMAJMIN (MAJ:MIN), MNT. Teardown registered with on_exit.
#                               LOOP_DIO=1: the file is written full first and the loop device
#                               does direct I/O on it (its requests reach the disk below at once).
#   throttle_write_bps DEV BPS  cgroup v1 blkio child cgroup with throttle.write_bps_device for DEV;
#                               exports THROTTLE_CG (its directory). Move a pid in with
#                               `echo PID > $THROTTLE_CG/cgroup.procs`. Teardown registered.
#   fio_loop_file SIZE_MB       make_loop_ext4 SIZE_MB with a 48 MiB file of zeros on it for fio's
#                               random reads: exports F (its path); skips without fio
#   dev_stat NAME FIELD         one field of /sys/block/NAME/stat (1-based, see block/stat.rst)
#   io_witness JSON NAME        disk NAME's requests in a report's work phase, as iowhy and the
#                               kernel count them: "COUNTED MISSED IOS", iowhy's completed requests
#                               on it (every op and class), its missed completions (the disk's
#                               own: io.lost.complete_missed has every disk's), and /sys/block's
#                               I/Os over the phase (reads, writes, discards, flushes). With the
#                               kernel skipping completion programs, COUNTED + MISSED = IOS.
#   drop_caches                 sync, then drop the page cache, dentries and inodes

make_loop_ext4() {
	local size_mb=$1 img
	command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null || skip "losetup/mkfs.ext4 missing"
	img=$TMPROOT/disk.img
	truncate -s "${size_mb}M" "$img" || skip "cannot create $img"
	on_exit "rm -f '$img'"
	local dio=()
	if [ "${LOOP_DIO:-0}" = 1 ]; then
		dd if=/dev/zero of="$img" bs=1M count="$size_mb" oflag=direct conv=notrunc status=none \
			|| skip "cannot write $img"
		dio=(--direct-io=on)
	fi
	LOOPDEV=$(losetup --find --show "${dio[@]}" "$img") || skip "no free loop device"
	on_exit "losetup -d '$LOOPDEV'"
	LOOPNAME=$(basename "$LOOPDEV")
	LOOPMAJMIN=$(cat "/sys/block/$LOOPNAME/dev")
	mkfs.ext4 -q -F -O has_journal -E lazy_itable_init=0,lazy_journal_init=0 "$LOOPDEV" \
		|| skip "mkfs.ext4 failed"
	MNT=$TMPROOT/mnt
	mkdir -p "$MNT"
	mount -t ext4 "$LOOPDEV" "$MNT" || skip "cannot mount $LOOPDEV"
	on_exit "umount '$MNT' || umount -l '$MNT'"
	export LOOPDEV LOOPNAME LOOPMAJMIN MNT
}

throttle_write_bps() {
	local dev=$1 bps=$2 root=/sys/fs/cgroup/blkio majmin
	[ -e "$root/blkio.throttle.write_bps_device" ] || skip "no cgroup v1 blkio throttling"
	majmin=$(cat "/sys/block/$(basename "$dev")/dev") || skip "no such device $dev"
	THROTTLE_CG=$root/iowhy-test.$$
	mkdir "$THROTTLE_CG" || skip "cannot create $THROTTLE_CG"
	on_exit "rmdir '$THROTTLE_CG'"
	# Processes still inside must leave before rmdir: move them back to the root group.
	on_exit "for p in \$(cat '$THROTTLE_CG/cgroup.procs'); do echo \$p > '$root/cgroup.procs'; done"
	echo "$majmin $bps" > "$THROTTLE_CG/blkio.throttle.write_bps_device" || skip "cannot set throttle"
	export THROTTLE_CG
}

fio_loop_file() {
	command -v fio >/dev/null || skip "needs fio (tests/install-deps.sh installs it)"
	make_loop_ext4 "$1"
	F=$MNT/fio.dat
	dd if=/dev/zero of="$F" bs=1M count=48 status=none && sync
	export F
}

dev_stat() { awk -v f="$2" '{ print $f }' "/sys/block/$1/stat"; }

io_witness() {
	jq -r --arg d "$2" '.phases[] | select(.kind == "work") | .io |
		[([.requests[] | select(.name == $d) | .requests] | add // 0),
		 (.devices[] | select(.name == $d) |
		  .missed_completions, (.stat | .read_ios + .write_ios + .discard_ios + .flush_ios))] |
		@tsv' "$1"
}

drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }
