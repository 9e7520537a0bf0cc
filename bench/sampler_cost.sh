#!/usr/bin/env bash
# The CPU sampler's own cost (issue 9: <= 1% at the default frequency, 99 Hz, on gen direct 100,000 x 1 KiB),
# measured so that a noisy host can decide it: by amplification.
#
# A 1% difference drowns in the round-to-round swing of a small-file run (bench/overhead.sh's
# sampler B/S on a shared host: median +6%, 95% CI 0.87-1.56). But the sampler costs per sample. So
# each round runs the same workload under `iowhy run` with the sampler off (--no-sample) and at
# each of FREQS (99, 4999 and 19999 Hz), the order rotating from round to round, and fits the
# workload's wall time (the phase's wall, from the JSON) against the number of samples that landed
# on the workload (least squares over the round's runs). The slope is the cost of one sample, seen
# over ~20x the default's samples. The default's overhead in that round is then
#   slope x (samples at the first of FREQS) / (wall with the sampler off).
# The per-round overheads give a median and a distribution-free ~95% interval (bench/lib.sh ci);
# decided when the interval lies on one side of TARGET, else more rounds up to MAX_ROUNDS, then
# "not decidable". The cost per sample is also shown per frequency ((T_f - T_off) / samples_f):
# if those agree, the cost is linear in the rate and the extrapolation holds.
# A floor control runs in every round too: `iowhy run --no-sample` under `iowhy __floor --sampler`
# at the highest of FREQS, an empty program on the same cpu-clock events. Its cost per sample
# (counting as many samples per second of wall as the highest frequency's run had) is what
# sampling costs on this host before iowhy's program does anything; iowhy's own part is the rest.
#
#   bench/sampler_cost.sh [MIN_ROUNDS]     (root; default 5; MAX_ROUNDS=3*MIN_ROUNDS)
#
# Knobs (environment): FILES=100000, FREQS="99 4999 19999", TARGET=1 (%), IMG_DIR=/dev/shm (the
# file system's image in RAM: the disk's swings stay out), IMG_SIZE=2G, SETTLE=1, NO_MAKE=1.
# Output: bench/results/sampler-cost-DATE.txt (what is printed) and .tsv (one line per run).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. bench/lib.sh
MIN_ROUNDS=${1:-5}
MAX_ROUNDS=${MAX_ROUNDS:-$((3 * MIN_ROUNDS))}
[ "$MAX_ROUNDS" -ge "$MIN_ROUNDS" ] || MAX_ROUNDS=$MIN_ROUNDS
FILES=${FILES:-100000}
FREQS=${FREQS:-99 4999 19999}
TARGET=${TARGET:-1}
IMG_DIR=${IMG_DIR:-/dev/shm}
IMG_SIZE=${IMG_SIZE:-2G}
SETTLE=${SETTLE:-1}
[ "$(id -u)" = 0 ] || { echo "bench/sampler_cost.sh: needs root" >&2; exit 1; }
for t in losetup mkfs.ext4 mountpoint numfmt jq; do
	command -v $t >/dev/null || { echo "bench/sampler_cost.sh: needs $t" >&2; exit 1; }
done
[ -n "${NO_MAKE:-}" ] || make -s all

mkdir -p bench/results
stamp=$(date +%Y%m%d-%H%M%S)
out=$ROOT/bench/results/sampler-cost-$stamp.txt
tsv=$ROOT/bench/results/sampler-cost-$stamp.tsv
WORK=$(mktemp -d /var/tmp/iowhy-bench.XXXXXX)
cleanup() {
	trap - EXIT INT TERM
	fs_cleanup
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "bench/sampler_cost.sh: interrupted" >&2; exit 130' INT TERM
IOWHY=$WORK/iowhy # a private copy: a `make` meanwhile cannot swap it
cp ./iowhy "$IOWHY"
IMG=$(mktemp "$IMG_DIR/iowhy-bench-img.XXXXXX")
fs_image_create "$IMG" "$IMG_SIZE"

# run_one KIND (off, a frequency, or floor): sets WALL (ns) and SAMPLES of the workload's phase
run_one() {
	local kind=$1 opt=(--no-sample) pre=() rc=0
	case $kind in
	off) ;;
	floor) pre=("$IOWHY" __floor --sampler "$top" --) ;;
	*) opt=(--freq "$kind") ;;
	esac
	fs_fresh
	mkdir "$FS_MNT/w"
	rm -f "$WORK/r.json"
	drop_caches
	sleep "$SETTLE"
	(cd "$WORK" && "${pre[@]}" "$IOWHY" run --json "$WORK/r.json" "${opt[@]}" -- \
		"$IOWHY" __gen direct 1k "$FILES" "$FS_MNT/w" >/dev/null 2>"$WORK/err") || rc=$?
	fs_release
	if [ "$rc" != 0 ]; then
		echo "bench/sampler_cost.sh: the $kind run failed (exit $rc):" >&2
		cat "$WORK/err" >&2
		exit 1
	fi
	WALL=$(jq '.phases[0].wall_ns' "$WORK/r.json")
	SAMPLES=$(jq '.phases[0].cpu_samples.samples // 0' "$WORK/r.json")
}

# fit "samples wall" lines on stdin -> the least-squares slope (ns per sample)
fit() { awk '{ n++; x += $1; y += $2; xx += $1 * $1; xy += $1 * $2 }
	END { d = n * xx - x * x; printf "%.1f", (d > 0 ? (n * xy - x * y) / d : 0) }'; }
ms() { awk -v w="$1" 'BEGIN { printf "%.0f", w / 1e6 }'; }

read -ra freqs <<<"$FREQS"
kinds=(off "${freqs[@]}" floor)
K=${#kinds[@]}
def=${freqs[0]}
top=${freqs[-1]}
exec > >(tee "$out")
echo "# iowhy CPU sampler cost by amplification, $(date -u '+%F %H:%M UTC'), $(hostname), kernel $(uname -r), $(nproc) CPUs"
echo "# iowhy $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo '+dirty tree'); gen direct $FILES x 1k on a fresh ext4 per run (loop over $IMG_DIR); runs: --no-sample, --freq ${FREQS// /, }, and the floor (an empty program at $top Hz)"
printf 'round\tkind\twall_ns\tsamples\tload1\n' >"$tsv"
declare -A W S cost
over=() floors=()
i=0
while [ $i -lt "$MAX_ROUNDS" ]; do
	for ((k = 0; k < K; k++)); do
		kind=${kinds[$(((i + k) % K))]}
		run_one "$kind"
		W[$kind]=$WALL S[$kind]=$SAMPLES
		printf '%d\t%s\t%s\t%s\t%s\n' $((i + 1)) "$kind" "$WALL" "$SAMPLES" "$(cut -d' ' -f1 /proc/loadavg)" >>"$tsv"
	done
	slope=$(for kd in off "${freqs[@]}"; do echo "${S[$kd]} ${W[$kd]}"; done | fit)
	over+=("$(awk -v s="$slope" -v n="${S[$def]}" -v t="${W[off]}" 'BEGIN { printf "%.3f", s * n / t * 100 }')")
	# the floor's samples: as many per second of wall as the top frequency's run had
	floors+=("$(awk -v wf="${W[floor]}" -v wo="${W[off]}" -v n="${S[$top]}" -v wt="${W[$top]}" \
		'BEGIN { s = n * wf / wt; printf "%.0f", (s > 0 ? (wf - wo) / s : 0) }')")
	line="  round $((i + 1)) (load $(cut -d' ' -f1 /proc/loadavg)): off $(ms "${W[off]}") ms"
	for f in "${freqs[@]}"; do
		c=$(awk -v a="${W[$f]}" -v b="${W[off]}" -v n="${S[$f]}" 'BEGIN { printf "%.0f", (n > 0 ? (a - b) / n : 0) }')
		cost[$f]+="$c "
		line+=" | $f Hz $(ms "${W[$f]}") ms, ${S[$f]} samples, $c ns each"
	done
	echo "$line | floor $(ms "${W[floor]}") ms, ${floors[-1]} ns a sample | slope $slope ns/sample -> ${over[-1]}% at $def Hz"
	i=$((i + 1))
	[ $i -ge "$MIN_ROUNDS" ] || continue
	read -r q lo hi < <(printf '%s\n' "${over[@]}" | ci)
	verdict=$(side "$q" "$lo" "$hi" "$TARGET")
	[ "$verdict" = "not decidable" ] || break
done
echo "cost per sample (ns; median of the rounds, by frequency):"
for f in "${freqs[@]}"; do
	read -r cq clo chi < <(tr ' ' '\n' <<<"${cost[$f]}" | grep . | ci)
	echo "  $f Hz: $cq (CI $clo-$chi)"
done
read -r fq flo fhi < <(printf '%s\n' "${floors[@]}" | ci)
echo "  the floor, an empty program at $top Hz: $fq (CI $flo-$fhi)"
echo "sampler overhead at $def Hz: median $q% (95% CI $lo-$hi%) over $i rounds: $verdict the ${TARGET}% target"
read -r sq _ _ < <(tr ' ' '\n' <<<"${cost[$top]}" | grep . | ci)
echo "the floor is $(awk -v f="$fq" -v s="$sq" 'BEGIN { printf "%.0f%%", (s > 0 ? 100 * f / s : 0) }') of the cost per sample at $top Hz"
