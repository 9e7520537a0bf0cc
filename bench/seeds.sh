#!/usr/bin/env bash
# Reproduce the seed experiment (../shared/seeds/000): loop vs split for four file sizes / counts,
# each followed by its flush phase (--sync), side by side. Writes one text and one JSON report per
# case to a results folder (default results/seeds-DATE) and prints where they are.
#   bench/seeds.sh [RESULTS_DIR] [SCRATCH_PARENT]
# Seeds 001 and 002 (ext4, bindfs, S3fs, sshfs): bench/seeds_fuse.sh.
set -u
cd "$(dirname "$0")/.." || exit 1
IOWHY=${IOWHY:-./iowhy}
OUTDIR=${1:-results/seeds-$(date +%Y%m%d-%H%M%S)}
SCRATCH=${2:-.}
[ "$(id -u)" = 0 ] || { echo "seeds: needs root (BPF tracing)" >&2; exit 1; }
[ -x "$IOWHY" ] || { echo "seeds: build first (make)" >&2; exit 1; }
mkdir -p "$OUTDIR" || exit 1
# size x count, as in the seed write-up
cases="10k:10 10k:10000 1k:100000 100k:1000"
rc=0
for c in $cases; do
	size=${c%%:*} count=${c##*:}
	name="${count}x${size}"
	echo "== $name: gen --strategy loop,split --size $size --count $count --sync" >&2
	# Files deleted just before on ext4 with discard slow the next creations down (kernel-facts.md):
	# let the allocator settle between cases.
	sleep 5
	if ! "$IOWHY" gen --strategy loop,split --size "$size" --count "$count" --sync \
		--dir "$SCRATCH" --json "$OUTDIR/$name.json" >"$OUTDIR/$name.txt" 2>"$OUTDIR/$name.err"; then
		echo "   failed (see $OUTDIR/$name.err)" >&2
		rc=1
	fi
done
echo "$OUTDIR"
exit $rc
