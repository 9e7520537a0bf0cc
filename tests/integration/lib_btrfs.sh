# A btrfs multi-device rig for the hunt tests, always torn down (sourced after lib.sh, lib_dev.sh).
#
#   make_btrfs_loops N SIZE_MB  N files under $TMPROOT written full (so reads reach the disk), each
#                               a loop device with direct I/O, mkfs.btrfs -d raid0 -m raid1 over
#                               them, mounted on $TMPROOT/bmnt. Exports BT_LOOPS (loopA loopB ...),
#                               BT_MNT and BT_LOWER (the disk holding $TMPROOT, e.g. vda).
#                               BT_BACKING_FILE_<i> (optional): member i's file instead.
#   make_fuse_delay SIZE_MB US [NAME [NFILES]]
#                               a FUSE file system (tests/fuse_delay.c) at $TMPROOT/NAME (fuse)
#                               whose file FUSE_IMG (NFILES files: FUSE_IMGS, SIZE_MB each) waits
#                               US microseconds before every read, or with US as "N/MiB" N µs a
#                               MiB read (one FUSE thread: reads of all its files are served one
#                               at a time).
#   write_counts                "loopA=N loopB=N ...": writes completed (stat field 5) of BT_LOOPS

make_btrfs_loops() {
	local n=$1 size_mb=$2 i img dev devs=() var
	command -v mkfs.btrfs >/dev/null || skip "mkfs.btrfs missing (btrfs-progs)"
	command -v losetup >/dev/null || skip "losetup missing"
	BT_LOOPS=""
	for ((i = 0; i < n; i++)); do
		img=$TMPROOT/member$i.img
		# BT_BACKING_FILE_<i>: member i's backing file is that (existing) file instead
		var=BT_BACKING_FILE_$i
		if [ -n "${!var}" ]; then
			img=${!var}
		else
			on_exit "rm -f '$img'"
		fi
		dd if=/dev/zero of="$img" bs=1M count="$size_mb" oflag=direct conv=notrunc \
			status=none || skip "cannot write $img"
		dev=$(losetup --find --show --direct-io=on "$img") || skip "no free loop device"
		# a detach while udev still has the device open is deferred: wait until it is gone
		on_exit "losetup -d '$dev'; for t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do losetup '$dev' >/dev/null 2>&1 || break; sleep 0.1; done"
		devs+=("$dev")
		BT_LOOPS="$BT_LOOPS $(basename "$dev")"
	done
	BT_LOOPS=${BT_LOOPS# }
	mkfs.btrfs -q -f -d raid0 -m raid1 "${devs[@]}" >/dev/null 2>&1 || skip "mkfs.btrfs failed"
	# after the unmount and before the detach: drop the kernel's record of the members
	on_exit "btrfs device scan --forget ${devs[*]}"
	BT_MNT=$TMPROOT/bmnt
	mkdir -p "$BT_MNT"
	mount -t btrfs "${devs[0]}" "$BT_MNT" || skip "cannot mount btrfs"
	on_exit "umount '$BT_MNT' || umount -l '$BT_MNT'"
	BT_LOWER=$(basename "$(findmnt -n -o SOURCE -T "$TMPROOT")")
	# a partition names its disk last in the stack
	[ -e "/sys/class/block/$BT_LOWER/partition" ] && \
		BT_LOWER=$(basename "$(dirname "$(readlink -f "/sys/class/block/$BT_LOWER")")")
	sync
	export BT_LOOPS BT_MNT BT_LOWER
}

write_counts() {
	local d out=""
	for d in $BT_LOOPS; do out="$out $d=$(awk '{ print $5 }' "/sys/block/$d/stat")"; done
	echo "${out# }"
}

make_fuse_delay() {
	local size_mb=$1 us=$2 name=${3:-fuse} nfiles=${4:-1} bin=$TMPROOT/fuse_delay k backing=""
	command -v fusermount3 >/dev/null || skip "fusermount3 missing (fuse3)"
	# shellcheck disable=SC2046 # pkg-config's flags are several words
	[ -x "$bin" ] || gcc -O2 $(pkg-config --cflags fuse3 2>/dev/null) -o "$bin" tests/fuse_delay.c \
		$(pkg-config --libs fuse3 2>/dev/null) 2>/dev/null || skip "cannot build fuse_delay (libfuse3-dev)"
	for ((k = 0; k < nfiles; k++)); do
		truncate -s "${size_mb}M" "$TMPROOT/$name-backing$k.img" || skip "cannot create the FUSE backing file"
		on_exit "rm -f '$TMPROOT/$name-backing$k.img'"
		backing="$backing${backing:+,}$TMPROOT/$name-backing$k.img"
	done
	mkdir -p "$TMPROOT/$name"
	# -s: one thread, so reads queue behind each other as on a device that serves one at a time
	"$bin" "$backing" "$us" "$TMPROOT/$name" -s || skip "cannot mount fuse_delay"
	on_exit "fusermount3 -u '$TMPROOT/$name' || umount -l '$TMPROOT/$name'"
	FUSE_IMG=$TMPROOT/$name/img
	FUSE_IMGS=$FUSE_IMG
	for ((k = 1; k < nfiles; k++)); do FUSE_IMGS="$FUSE_IMGS $TMPROOT/$name/img$k"; done
	export FUSE_IMG FUSE_IMGS
}
