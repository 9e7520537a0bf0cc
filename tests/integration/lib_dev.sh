# Real block devices for the I/O integration tests, always torn down (sourced after lib.sh).
#
#   make_loop_ext4 SIZE_MB      loop device over a file under $TMPROOT, mkfs.ext4 with a journal,
#                               mounted on a temp dir. Exports LOOPDEV (/dev/loopN), LOOPNAME
#                               (loopN), LOOPMAJMIN (MAJ:MIN), MNT. Teardown registered with on_exit.
#                               LOOP_DIO=1: the file is written full first and the loop device
#                               does direct I/O on it (its requests reach the disk below at once).
#   fio_loop_file SIZE_MB       make_loop_ext4 SIZE_MB with a 48 MiB file of zeros on it for fio's
#                               random reads: exports F (its path); skips without fio
#   dev_stat NAME FIELD         one field of /sys/block/NAME/stat (1-based, see block/stat.rst)
#   dev_read NAME               all of /sys/block/NAME/stat on one line: the test's own read, to
#                               take before and after a traced run
#   dev_diff BEFORE AFTER F,... the sum of fields F (1-based, comma-separated) from one dev_read
#                               line to a later one. DEV_IOS: the I/O counts (1,5,12,16: reads,
#                               writes, discards, flushes completed); 3 and 7: sectors read and
#                               written (512 bytes); 10: io_ticks (ms the disk was busy)
#   wit_dev WITNESS NAME F,...  the same over a `"$CALIB" witness WITNESS NAME -- CMD` run (its own
#                               reads of /sys/block just before it forks CMD and after it reaped
#                               the last of its tree: inside the traced phase)
#   io_witness JSON NAME WITNESS BEFORE AFTER
#                               disk NAME's requests in a report's work phase, as iowhy and the
#                               kernel count them: "COUNTED MISSED IOS_IN IOS_OUT", iowhy's
#                               completed requests on it (every op and class), its missed
#                               completions (the disk's own: io.lost.complete_missed has every
#                               disk's), and the test's own count of its I/Os (reads, writes,
#                               discards, flushes) over the witness's run (inside the phase) and
#                               from BEFORE to AFTER (dev_read lines taken around the iowhy run:
#                               the phase inside). With the kernel skipping completion programs,
#                               IOS_IN <= COUNTED + MISSED <= IOS_OUT.
#   jiffy_ns                    the kernel's tick in ns (CONFIG_HZ; 100 Hz, the coarsest, when the
#                               kernel's config is not to be read): io_ticks' unit
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

fio_loop_file() {
	command -v fio >/dev/null || skip "needs fio (tests/install-deps.sh installs it)"
	make_loop_ext4 "$1"
	F=$MNT/fio.dat
	dd if=/dev/zero of="$F" bs=1M count=48 status=none && sync
	export F
}

dev_stat() { awk -v f="$2" '{ print $f }' "/sys/block/$1/stat"; }

dev_read() { tr -s ' ' <"/sys/block/$1/stat" | sed 's/^ //'; }

DEV_IOS=1,5,12,16
dev_diff() {
	awk -v b="$1" -v a="$2" -v f="$3" 'BEGIN {
		split(b, B, " "); split(a, A, " "); n = split(f, F, ",")
		if (length(B) < 11 || length(A) < 11) exit 1
		for (i = 1; i <= n; i++) s += A[F[i]] - B[F[i]]
		print s }'
}

wit_dev() {
	local b a
	b=$(awk -v d="$2" '$1 == "dev_before" && $2 == d { $1 = $2 = ""; print; exit }' "$1" 2>/dev/null)
	a=$(awk -v d="$2" '$1 == "dev_after" && $2 == d { $1 = $2 = ""; print; exit }' "$1" 2>/dev/null)
	dev_diff "$b" "$a" "$3" || { fail "witness $1: no /sys/block reads of $2"; return 1; }
}

io_witness() {
	local c m i o
	read -r c m < <(jq -r --arg d "$2" '.phases[] | select(.kind == "work") | .io |
		[([.requests[] | select(.name == $d) | .requests] | add // 0),
		 ([.devices[] | select(.name == $d) | .missed_completions] | add // 0)] | @tsv' "$1")
	i=$(wit_dev "$3" "$2" "$DEV_IOS") && o=$(dev_diff "$4" "$5" "$DEV_IOS") || return 1
	echo "$c $m $i $o"
}

jiffy_ns() {
	local hz
	hz=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null) |
		sed -n 's/^CONFIG_HZ=//p')
	echo $(( 1000000000 / ${hz:-100} ))
}

drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }
