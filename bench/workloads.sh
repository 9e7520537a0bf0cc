#!/usr/bin/env bash
# Performance comparisons of the storage workloads (issue 4), interleaved A/B, median ratio.
#
#   bash bench/workloads.sh [DIR]        (root; DIR defaults to a fresh directory under .)
#
# Each pair runs A then B (the order alternates), on the same file and block size. Throughputs
# are what each tool measures of its own I/O loop: fio's bw, iowhy's "rate" fact (read/rand run
# traced, as always, with --no-io), md5sum's bytes / wall time. Knobs: PAIRS (5), SIZE (1G),
# RAND_OPS (20000), COPY_FILES (10000).
set -u
IOWHY=${IOWHY:-./iowhy}
PAIRS=${PAIRS:-5} SIZE=${SIZE:-1G} RAND_OPS=${RAND_OPS:-20000} COPY_FILES=${COPY_FILES:-10000}
[ "$(id -u)" = 0 ] || { echo "bench/workloads.sh: needs root (tracing, drop_caches)" >&2; exit 1; }
for t in fio jq md5sum; do command -v $t >/dev/null || { echo "bench/workloads.sh: needs $t" >&2; exit 1; }; done
parent=${1:-.}
W=$(mktemp -d "$parent/iowhy-bench.XXXXXX") || exit 1
source "$(dirname "$0")/lib.sh"
# Cases that create and delete many files run on a fresh ext4 each time (the root ext4 here has
# discard and creates files several times slower shortly after many deletes: kernel-facts.md).
FS_IMAGE=/var/tmp/iowhy-bench-fs.$$.img
fs_image_create "$FS_IMAGE" 4G || exit 1
# on_fresh_fs 'CMD': eval CMD once $FS_MNT is a fresh ext4 (CMD may use "$FS_MNT"), then release it.
on_fresh_fs() { fs_fresh || return 1; drop_caches; eval "$1"; fs_release; }
cleanup() {
	losetup -j "$FS_IMAGE" 2>/dev/null | cut -d: -f1 | while read -r d; do
		umount "$d" 2>/dev/null; losetup -d "$d" 2>/dev/null; done
	for m in /tmp/iowhy-bench-mnt.*; do mountpoint -q "$m" 2>/dev/null && umount "$m"; rmdir "$m" 2>/dev/null; done
	rm -f "$FS_IMAGE"; rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
F=$W/file

drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
mib() { awk -v v="$1" 'BEGIN { printf "%.1f", v / 1048576 }'; }

# fio throughput (bytes/s) or IOPS: fio_run FIELD ARGS...
fio_run() {
	local field=$1; shift
	fio --output-format=json --name=b --filename="$F" --size="$SIZE" "$@" | jq -r ".jobs | map(.read.$field + .write.$field) | add"
}
# iowhy fact of phase 0: iowhy_run FACT ARGS...
iowhy_run() {
	local fact=$1; shift
	"$IOWHY" "$@" --no-io --json "$W/j.json" >/dev/null 2>"$W/err" || { cat "$W/err" >&2; echo 0; return; }
	jq -r ".phases[0].facts.$fact" "$W/j.json"
}

# compare NAME UNIT "A command" "B command": PAIRS interleaved pairs, median of A/B.
compare() {
	local name=$1 unit=$2 a=$3 b=$4 i va vb ratios=() as=() bs=()
	for ((i = 0; i < PAIRS; i++)); do
		if ((i % 2 == 0)); then va=$(eval "$a"); vb=$(eval "$b"); else vb=$(eval "$b"); va=$(eval "$a"); fi
		as+=("$va"); bs+=("$vb"); ratios+=("$(ratio "$va" "$vb")")
	done
	printf '%-44s A %12s  B %12s  %s  A/B median %s (pairs: %s)\n' "$name" \
		"$(printf '%s\n' "${as[@]}" | median)" "$(printf '%s\n' "${bs[@]}" | median)" "$unit" \
		"$(printf '%s\n' "${ratios[@]}" | median)" "${ratios[*]}"
}

echo "# $(date -u +%F) $(uname -r), $(nproc) CPUs, file $SIZE in $W, $PAIRS pairs"
head -c "$SIZE" /dev/urandom >"$F" 2>/dev/null || dd if=/dev/urandom of="$F" bs=1M count=1024 status=none
sync

compare "read bs=1M buffered cold: iowhy / fio" "MiB/s" \
	'drop; mib "$(iowhy_run rate read "$F" --bs 1M)"' \
	'drop; mib "$(fio_run bw_bytes --rw=read --bs=1M --ioengine=psync --direct=0)"'
compare "read bs=1M O_DIRECT: iowhy / fio" "MiB/s" \
	'mib "$(iowhy_run rate read "$F" --bs 1M --direct)"' \
	'mib "$(fio_run bw_bytes --rw=read --bs=1M --ioengine=psync --direct=1)"'
compare "rand 4k direct workers 1: iowhy / fio qd1" "IOPS" \
	'iowhy_run iops rand "$F" --bs 4k --direct --workers 1 --ops $RAND_OPS' \
	'fio_run iops --rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=1 --number_ios=$RAND_OPS'
compare "rand 4k direct workers 8: iowhy / fio numjobs 8" "IOPS" \
	'iowhy_run iops rand "$F" --bs 4k --direct --workers 8 --ops $((RAND_OPS * 4))' \
	'fio --output-format=json --name=b --filename="$F" --size="$SIZE" --rw=randread --bs=4k --ioengine=psync --direct=1 --numjobs=8 --group_reporting --number_ios=$((RAND_OPS / 2)) | jq -r ".jobs[0].read.iops"'
cat "$F" >/dev/null
compare "md5 warm: iowhy read --hash md5 / md5sum" "MiB/s" \
	'mib "$(iowhy_run rate read "$F" --bs 1M --hash md5)"' \
	's=$(now); md5sum "$F" >/dev/null; mib "$(awk -v b=$(stat -c %s "$F") -v s=$s -v e=$(now) "BEGIN { print b / (e - s) }")"'
rm -f "$F"

PAIRS=${COPY_PAIRS:-3} compare "copy $COPY_FILES x 64k: serial process / inproc jobs 4" "s" \
	"on_fresh_fs 'iowhy_run app_seconds copy --files $COPY_FILES --size 64k --mode process --jobs 1 --dir \"\$FS_MNT\"'" \
	"on_fresh_fs 'iowhy_run app_seconds copy --files $COPY_FILES --size 64k --mode inproc --jobs 4 --dir \"\$FS_MNT\"'"
PAIRS=${GEN_PAIRS:-3} compare "gen 100,000 x 1k: split / direct (> 1: direct faster)" "s" \
	"on_fresh_fs 'iowhy_run app_seconds gen --strategy split --size 1k --count 100000 --dir \"\$FS_MNT\"'" \
	"on_fresh_fs 'iowhy_run app_seconds gen --strategy direct --size 1k --count 100000 --dir \"\$FS_MNT\"'"
