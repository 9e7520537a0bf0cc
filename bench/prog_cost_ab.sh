#!/usr/bin/env bash
# Builds of iowhy compared by their programs' own cost (bpf_stats), alternating in one run: fio 4k
# random reads, 16 jobs, on ext4 on a RAM-backed loop device, `bench/prog_cost.sh fio16` from each
# build's tree in turn, ROUNDS times. A host whose speed swings by tens of percent from one run to
# the next drowns a few percent of IOPS; the programs' ns per run swing with it, but a program the
# builds share swings alike, so each round prints the block programs' cost over that of programs
# the I/O changes do not touch: (io_rq_issue + io_rq_complete) / (io_bio_queue + btf_sys_exit).
#
#   bench/prog_cost_ab.sh [ROUNDS] DIR...     (root; each DIR a built checkout, e.g. a git worktree)
# Output: a line per round and build on stdout, and bench/results/prog-cost-ab-DATE.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. bench/lib.sh
[ "$(id -u)" = 0 ] || { echo "bench/prog_cost_ab.sh: needs root" >&2; exit 1; }
ROUNDS=3
if [[ ${1:-} =~ ^[0-9]+$ ]]; then ROUNDS=$1; shift; fi
[ $# -ge 1 ] || { echo "usage: bench/prog_cost_ab.sh [ROUNDS] DIR..." >&2; exit 2; }
for d in "$@"; do
	[ -x "$d/iowhy" ] && [ -x "$d/bench/prog_cost.sh" ] ||
		{ echo "bench/prog_cost_ab.sh: $d: no built iowhy checkout" >&2; exit 2; }
done
mkdir -p bench/results
out=$ROOT/bench/results/prog-cost-ab-$(date +%Y%m%d-%H%M%S).txt
# shellcheck disable=SC2034 # read by bench/lib.sh's fs_* helpers
FS_IMG='' FS_MNT='' FS_DEV=''
trap fs_cleanup EXIT
trap 'echo "bench/prog_cost_ab.sh: interrupted" >&2; exit 130' INT TERM
fs_image_create "$(mktemp /dev/shm/iowhy-bench-img.XXXXXX)" 1G
fs_fresh
exec > >(tee "$out")
echo "# iowhy programs' cost, builds alternating, $(date -u '+%F %H:%M UTC'), $(hostname), kernel $(uname -r), $(nproc) CPUs; fio 16 jobs on ext4 on $FS_DEV over /dev/shm; $ROUNDS rounds"
for d in "$@"; do echo "# $d: $(git -C "$d" log --oneline -1 2>/dev/null || echo '?')$(git -C "$d" diff --quiet 2>/dev/null || echo ' +dirty tree')"; done
for ((r = 1; r <= ROUNDS; r++)); do
	for d in "$@"; do
		(cd "$d" && DIR=$FS_MNT FIO_RUNTIME=${FIO_RUNTIME:-4} bench/prog_cost.sh fio16 2>&1) |
			awk -v d="$d" -v r="$r" -F'|' '
			/^\| [a-z_]+ \| [0-9]/ { n = $2; gsub(/ /, "", n); v = $4; gsub(/ /, "", v); ns[n] = v }
			/^fio.s IOPS/ { iops = $0; sub(/.* /, "", iops) }
			END { b = ns["io_bio_queue"] + ns["btf_sys_exit"]
				q = b > 0 ? sprintf("%.2f", (ns["io_rq_issue"] + ns["io_rq_complete"]) / b) : "nan"
				printf "r%d %s: IOPS %s; ns a run: issue %s complete %s bio_queue %s sys_exit %s switch %s wakeup %s | (issue + complete) / (bio_queue + sys_exit) %s\n",
					r, d, iops, ns["io_rq_issue"], ns["io_rq_complete"], ns["io_bio_queue"], ns["btf_sys_exit"],
					ns["btf_sched_switch"], ns["btf_sched_wakeup"], q }'
	done
done
echo "raw: $out"
