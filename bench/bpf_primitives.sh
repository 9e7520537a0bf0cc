#!/usr/bin/env bash
# What one BPF building block costs on this host (issue 14: where iowhy's per-event cost goes): a
# clock read, a probe read against a plain load, a ring-buffer record, hash and LRU operations, task
# storage, a shared spin lock and atomic. bench/primitives/primitives.bpf.c repeats one operation
# 50 times in a sys_enter program for this benchmark's threads; the loader times getppid under
# each mode (interleaved, best of REPS) against the program returning at once, first on one thread,
# then on one thread per CPU at once (what sharing a ring, a hash, a lock costs).
#
#   bench/bpf_primitives.sh [REPS]     (root; default 7)
# Output: the table on stdout and bench/results/bpf-primitives-DATE.txt
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench/bpf_primitives.sh: needs root" >&2; exit 1; }
ARCH=$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
W=$(mktemp -d /var/tmp/iowhy-prim.XXXXXX)
trap 'rm -rf "$W"' EXIT
clang -g -O2 -target bpf -D__TARGET_ARCH_"$ARCH" -I"vmlinux/$ARCH" -Ibpf \
	-c bench/primitives/primitives.bpf.c -o "$W/primitives.bpf.o"
bpftool gen skeleton "$W/primitives.bpf.o" >"$W/primitives.skel.h"
cc -O2 -Wall -I"$W" bench/primitives/primitives.c -o "$W/primitives" -lbpf -lpthread
mkdir -p bench/results
out=bench/results/bpf-primitives-$(date +%Y%m%d-%H%M%S).txt
{
	echo "# bench/bpf_primitives.sh, $(date -u '+%F %H:%M UTC'), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
	"$W/primitives" "${1:-7}"
} | tee "$out"
