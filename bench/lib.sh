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
#   cpu_sampler_start F the machine's CPU time (/proc/stat), sampled every 100 ms into F until
#                       cpu_sampler_stop, without a fork per sample
#   cpu_window S L [H T] from sampler file S and fio's IOPS log L (--write_iops_log --log_avg_msec=100
#                       --log_unix_epoch=1 --per_job_logs=0): "IOS BUSY STEAL IDLE SECONDS" over fio's
#                       steady part (H ms after its first entry, default 1000, to T ms before its
#                       last, default 300): the requests done and the CPU seconds the machine spent
#                       busy (user, nice, system, irq, softirq), stolen by the host, and idle
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

# CPU per request (bench/io_floor.sh): a host that steals time from the VM (other guests) moves IOPS
# by tens of percent between runs; the kernel counts stolen time apart (steal), so the CPU time the
# VM was given per request (busy + idle) moves less: a run that lost a third of its CPUs to the
# host does a third fewer requests in the same unstolen time per request.
CPU_SAMPLER=''
cpu_sampler_start() {
	(
		exec {tick}<> <(:)
		while :; do
			read -r _ u n s i w q sq st _ </proc/stat
			echo "$EPOCHREALTIME $((u + n + s + q + sq)) $st $((i + w))"
			read -r -t 0.1 -u "$tick" _ || :
		done
	) >"$1" &
	CPU_SAMPLER=$!
}
cpu_sampler_stop() {
	[ -n "$CPU_SAMPLER" ] || return 0
	kill "$CPU_SAMPLER" 2>/dev/null
	wait "$CPU_SAMPLER" 2>/dev/null || :
	CPU_SAMPLER=''
}
cpu_window() {
	awk -v head="${3:-1000}" -v tail="${4:-300}" -v hz="$(getconf CLK_TCK)" '
	FNR == 1 { f++ }
	f == 1 { n++; ts[n] = $1; for (c = 1; c <= 3; c++) smp[n, c] = $(c + 1); next }
	f == 2 { sub(/,/, "", $1); sub(/,/, "", $2); x = $1 + 0; t[++m] = x; v[m] = $2 + 0
		if (m == 1 || x < tmin) tmin = x; if (x > tmax) tmax = x }
	# the sampled counter c (1 busy, 2 steal, 3 idle) at time x (s), linear between the samples
	# around it
	function at(c, x,   k) {
		for (k = 2; k < n && ts[k] < x; k++);
		return smp[k - 1, c] + (smp[k, c] - smp[k - 1, c]) * (x - ts[k - 1]) / (ts[k] - ts[k - 1])
	}
	END {
		w0 = tmin + head; w1 = tmax - tail
		if (n < 2 || m < 1 || w1 <= w0 || ts[1] > w0 / 1000 || ts[n] < w1 / 1000) { print "nan nan nan nan nan"; exit }
		for (i = 1; i <= m; i++) if (t[i] > w0 && t[i] <= w1) ios += v[i] * 0.1
		x0 = w0 / 1000; x1 = w1 / 1000
		printf "%.0f %.4f %.4f %.4f %.3f\n", ios, (at(1, x1) - at(1, x0)) / hz,
			(at(2, x1) - at(2, x0)) / hz, (at(3, x1) - at(3, x0)) / hz, x1 - x0
	}' "$1" "$2"
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
