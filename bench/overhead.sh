#!/usr/bin/env bash
# Tracing overhead: the same workload untraced and traced, alternating A/B, PAIRS pairs, median
# ratio traced/untraced of the wall time. Untraced = the same code run directly: `iowhy __gen`
# runs one gen strategy without probes; traced = `iowhy run -- <the same command>`.
# Usage: bench/overhead.sh [PAIRS]   (root; results appended to bench/results/overhead-DATE.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-5}
[ "$(id -u)" = 0 ] || { echo "bench/overhead.sh: needs root" >&2; exit 1; }
make -s all
mkdir -p bench/results
out=bench/results/overhead-$(date +%Y%m%d-%H%M%S).txt
scratch=$(mktemp -d /var/tmp/iowhy-bench.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

secs() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# fresh: empty the scratch area between runs (untimed) and settle the page cache.
fresh() { rm -rf "${scratch:?}"/*; mkdir -p "$scratch/d" "$scratch/l"; sync; echo 3 >/proc/sys/vm/drop_caches; sleep 1; }

# case NAME -- CMD...: CMD is run as is (A) and under `iowhy run` (B), interleaved.
bench_case() {
	local name=$1; shift; shift
	local ratios=() a b
	for ((i = 0; i < PAIRS; i++)); do
		fresh
		a=$(secs "$@")
		fresh
		b=$(secs ./iowhy run ${IOWHY_BENCH_OPTS:-} -- "$@")
		ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')")
		echo "  $name pair $((i + 1)): untraced $((a / 1000)) ms, traced $((b / 1000)) ms, ratio ${ratios[-1]}"
	done
	printf '%s\n' "${ratios[@]}" | median | awk -v n="$name" '{ printf "%-34s median traced/untraced = %.3f (overhead %+.1f%%)\n", n, $1, ($1 - 1) * 100 }'
}

{
	echo "# iowhy tracing overhead, $(date -u +%F), kernel $(uname -r), $(nproc) CPUs, $PAIRS pairs"
	bench_case "gen direct 100,000 x 1k" -- ./iowhy __gen direct 1k 100000 "$scratch/d"
	bench_case "gen loop 2,000 x 10k" -- ./iowhy __gen loop 10k 2000 "$scratch/l"
	if [ -n "${IOWHY_BENCH_IO:-1}" ]; then
		bench_case "O_DIRECT write 1 GiB (1 MiB blocks)" -- dd if=/dev/zero of="$scratch/big" bs=1M count=1024 oflag=direct status=none
		bench_case "buffered write 64 MiB + sync" -- sh -c "dd if=/dev/zero of=$scratch/b64 bs=1M count=64 status=none && sync"
	fi
} | tee "$out"
