# Shared helpers for the bench/ scripts (sourced, not run). Bash, root.
#
#   median              numbers on stdin, one a line -> their median
#   ratio A B           A / B with 4 decimals
#   drop_caches         sync, then drop page cache, dentries and inodes
#   now_us              monotonic-enough wall clock in µs (EPOCHREALTIME)
#   fs_image_create F S a backing image of S (e.g. 4G) at F, fully written once (zeros), so that no
#                       run ever allocates blocks of the root file system (root ext4: discard, see
#                       ../shared/notes/kernel-facts.md)
#   fs_fresh            loop device over the image (direct I/O: no double caching in the root fs's
#                       page cache), mkfs.ext4 with a journal, mounted on a fresh temp dir: sets
#                       FS_DEV and FS_MNT
#   fs_release          unmount, detach, remove the mount point (safe to call twice)
#   fs_cleanup          fs_release + remove the image (for traps)
#   min_med_max         numbers on stdin, one a line -> "min / median / max" ("-" for none)
#   ci                  numbers on stdin -> "median lo hi" (lo, hi: a distribution-free ~95%
#                       interval of the median, ranks n/2 -+ 0.98 sqrt(n), clamped to the sample)
#   side MED LO HI LINE "below", "above" or "not decidable" (the interval straddles the line)
#   hide_fuse CMD...    CMD; with HIDE_FUSE=1 in a mount namespace of its own where the machine's
#                       FUSE mounts are unmounted (other users' mounts would make iowhy load its
#                       FUSE daemon programs; the machine's mounts stay)

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0) ? a / b : 0 }'; }
drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }
now_us() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }
min_med_max() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%s / %s / %s", v[1], m, v[NR] }'; }
# The median and a distribution-free ~95% interval for it (order statistics). Fewer than 5 values
# cannot give one (min..max covers the median with probability 1 - 2^(1-n): 94% for 5, 88% for
# 4, 75% for 3): the bounds are then nan, and side() says "not decidable".
ci() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "nan nan nan"; exit }
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	if (NR < 5) { print m, "nan", "nan"; exit }
	j = int(NR / 2 - 0.98 * sqrt(NR)); k = int(NR / 2 + 1 + 0.98 * sqrt(NR) + 0.999)
	if (j < 1) j = 1; if (k > NR) k = NR
	print m, v[j], v[k] }'; }
side() { awk -v lo="$2" -v hi="$3" -v l="$4" 'BEGIN { if (lo == "nan" || hi == "nan") print "not decidable"
	else if (hi + 0 < l + 0) print "below"; else if (lo + 0 > l + 0) print "above"; else print "not decidable" }'; }
hide_fuse() {
	if [ "${HIDE_FUSE:-1}" = 1 ]; then
		# shellcheck disable=SC2016 # expanded by the inner shell
		unshare -m --propagation private bash -c 'findmnt -rn -o FSTYPE,TARGET |
			awk "\$1 ~ /^fuse(blk)?([.]|\$)/ { print \$2 }" |
			while read -r t; do umount -l "$(printf "%b" "$t")"; done; exec "$@"' sh "$@"
	else
		"$@"
	fi
}

FS_IMG='' FS_DEV='' FS_MNT=''

fs_image_create() {
	FS_IMG=$1
	local size=$2
	truncate -s 0 "$FS_IMG" || return 1
	# Written, not sparse: the loop device then only ever overwrites blocks the root fs already has.
	dd if=/dev/zero of="$FS_IMG" bs=4M count=$(( $(numfmt --from=iec "$size") / 4194304 )) oflag=direct status=none || return 1
}

fs_fresh() {
	fs_release
	FS_DEV=$(losetup --direct-io=on -f --show "$FS_IMG") || { FS_DEV=''; return 1; }
	# nodiscard: do not punch the image; lazy_*_init=0: inode tables and journal initialised now, so
	# no ext4lazyinit thread writes in the background of a timed run. Journal: the default (on).
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$FS_DEV" >/dev/null || return 1
	FS_MNT=$(mktemp -d /tmp/iowhy-bench-mnt.XXXXXX) || return 1
	mount -t ext4 "$FS_DEV" "$FS_MNT" || { rmdir "$FS_MNT"; FS_MNT=''; return 1; }
}

fs_release() {
	if [ -n "$FS_MNT" ]; then
		if mountpoint -q "$FS_MNT"; then
			umount "$FS_MNT" 2>/dev/null || { sleep 1; umount "$FS_MNT" 2>/dev/null; } || umount -l "$FS_MNT"
		fi
		rmdir "$FS_MNT" 2>/dev/null
		FS_MNT=''
	fi
	if [ -n "$FS_DEV" ]; then
		losetup -d "$FS_DEV" 2>/dev/null
		FS_DEV=''
	fi
	return 0
}

fs_cleanup() {
	fs_release
	[ -n "$FS_IMG" ] && rm -f "$FS_IMG"
	FS_IMG=''
}
