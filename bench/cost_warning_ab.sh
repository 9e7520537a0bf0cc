#!/usr/bin/env bash
# Does the tracing-cost warning measure? The slowdown iowhy states for a phase
# (trace.tracing_cost_ns: the larger of its events x the per-event cost calibrated at start and its
# programs' run time from the kernel's statistics, scaled to the wall) against the slowdown measured
# by untraced A/B runs of the same workload, interleaved:
#
#   getppid: calib getppid N (a dense syscall loop: ~2 events a call);
#   fio:     16 psync jobs of 4 KiB random reads, a fixed amount each (io_size), on a loop device
#            over an image in /dev/shm (an I/O-rate-bound workload whose latencies tracing moves).
#
# Each round runs A (untraced) and B (traced: iowhy run with its defaults) of one case, the order
# alternating from round to round; both under `calib witness`, whose elapsed time (CLOCK_MONOTONIC,
# fork to last reap) is the wall compared, so A and B are measured the same way. The measured
# slowdown of a round is B's elapsed - A's; the warned one is B's tracing_cost_ns. Per case: the
# medians over the rounds and their ratio (warned / measured), and a floor control: A against A
# (two untraced runs a round: their difference is what the host's drift alone gives).
# The issue's target: the ratio within a factor of 1.5 either way.
#
#   bench/cost_warning_ab.sh [ROUNDS]      (root; default 5)
#
# Knobs: N=2000000 (getppid calls), FIO_JOBS=16, FIO_SIZE=8m (io_size per job), IMG=256M.
# Output: bench/results/cost-warning-ab-DATE.txt (what is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. bench/lib.sh
ROUNDS=${1:-5}
N=${N:-2000000} FIO_JOBS=${FIO_JOBS:-16} FIO_SIZE=${FIO_SIZE:-8m} IMG_SIZE=${IMG:-256M}
[ "$(id -u)" = 0 ] || { echo "bench/cost_warning_ab.sh: needs root" >&2; exit 1; }
for t in fio losetup jq; do
	command -v $t >/dev/null || { echo "bench/cost_warning_ab.sh: needs $t" >&2; exit 1; }
done
[ -n "${NO_MAKE:-}" ] || make -s all build/calib
mkdir -p bench/results
out=$ROOT/bench/results/cost-warning-ab-$(date +%Y%m%d-%H%M%S).txt
WORK=$(mktemp -d /var/tmp/iowhy-bench.XXXXXX)
IMGF=$(mktemp /dev/shm/iowhy-bench-img.XXXXXX)
DEV=''
cleanup() {
	trap - EXIT INT TERM
	[ -z "$DEV" ] || losetup -d "$DEV" 2>/dev/null || true
	rm -f "$IMGF"
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "bench/cost_warning_ab.sh: interrupted" >&2; exit 130' INT TERM
IOWHY=$WORK/iowhy CALIB=$WORK/calib # private copies: a `make` meanwhile cannot swap them
cp ./iowhy "$IOWHY"
cp build/calib "$CALIB"
truncate -s "$IMG_SIZE" "$IMGF"
dd if=/dev/urandom of="$IMGF" bs=1M count="${IMG_SIZE%M}" conv=notrunc status=none
DEV=$(losetup --find --show "$IMGF")

case_cmd() { # case_cmd CASE: the workload's command line
	case $1 in
	getppid) echo "$CALIB getppid $N" ;;
	fio) echo "fio --name=r --filename=$DEV --rw=randread --bs=4k --ioengine=psync --direct=1" \
		"--numjobs=$FIO_JOBS --io_size=$FIO_SIZE --size=$IMG_SIZE --group_reporting --output=/dev/null" ;;
	esac
}
# run_a CASE TAG: untraced; prints the elapsed ns
run_a() {
	local w=$WORK/$2.w
	# shellcheck disable=SC2046 # the command line, word-split on purpose
	"$CALIB" witness "$w" -- $(case_cmd "$1") >/dev/null 2>&1
	awk '$1 == "elapsed_ns" { print $2 }' "$w"
}
# run_b CASE TAG: traced; prints "elapsed_ns tracing_cost_ns events"
run_b() {
	local w=$WORK/$2.w j=$WORK/$2.json
	# shellcheck disable=SC2046
	"$IOWHY" run --json "$j" -o "$WORK/$2.txt" -- "$CALIB" witness "$w" -- $(case_cmd "$1") >/dev/null 2>&1
	echo "$(awk '$1 == "elapsed_ns" { print $2 }' "$w") $(jq -r '.phases[0].trace | "\(.tracing_cost_ns) \(.events)"' "$j")"
}

{
	echo "# iowhy tracing-cost warning against untraced A/B runs, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs"
	echo "# iowhy $(git describe --always --dirty 2>/dev/null); rounds: $ROUNDS; getppid N=$N; fio $FIO_JOBS jobs x $FIO_SIZE 4k randread psync direct on a loop over /dev/shm"
} | tee "$out"
for c in getppid fio; do
	: >"$WORK/$c.meas"; : >"$WORK/$c.warn"; : >"$WORK/$c.floor"
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then
			a=$(run_a $c a$r); read -r b cost ev <<<"$(run_b $c b$r)"; a2=$(run_a $c c$r)
		else
			a=$(run_a $c a$r); a2=$(run_a $c c$r); read -r b cost ev <<<"$(run_b $c b$r)"
		fi
		am=$(( (a + a2) / 2 ))
		echo "$((b - am))" >>"$WORK/$c.meas"
		echo "$cost" >>"$WORK/$c.warn"
		echo "$((a2 - a))" | tr -d - >>"$WORK/$c.floor"
		printf '  %s round %d (load %s): untraced %d / %d ms, traced %d ms (%s events): measured %+d ms, warned %d ms\n' \
			"$c" "$r" "$(cut -d' ' -f1 /proc/loadavg)" $((a / 1000000)) $((a2 / 1000000)) $((b / 1000000)) \
			"$ev" $(( (b - am) / 1000000 )) $((cost / 1000000)) | tee -a "$out"
	done
	m=$(median <"$WORK/$c.meas") w=$(median <"$WORK/$c.warn") f=$(median <"$WORK/$c.floor")
	rt=$(ratio "$w" "$m")
	verdict=$(awk -v r="$rt" 'BEGIN { print (r >= 1 / 1.5 && r <= 1.5) ? "within a factor of 1.5" : "NOT within a factor of 1.5" }')
	printf '%s: measured slowdown %d ms (median; the untraced runs differ by %d ms), warned %d ms: ratio %s, %s\n' \
		"$c" $((${m%.*} / 1000000)) $((${f%.*} / 1000000)) $((${w%.*} / 1000000)) "$rt" "$verdict" | tee -a "$out"
done
echo "results: $out"
