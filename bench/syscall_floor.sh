#!/usr/bin/env bash
# What an exact per-syscall tracer cannot avoid, against what iowhy pays (issue 14: the syscall-heavy
# cases' target is <= 1.25x the floor). `calib getppid N` (null syscalls) under:
#   A   untraced
#   F1  empty programs on the raw_syscalls pair (`iowhy __floor --syscalls`): the tracepoints' price
#   F2  the least an exact syscall timer does on that pair (`iowhy __floor --timer`,
#       bpf/floor_timer.bpf.c): a clock read and a task-storage access at each end, one add
#   B'  `iowhy run --no-io --no-sample`: iowhy's syscall and scheduler probes
# the order rotating from round to round. Per kind, the added cost per call, (T - T_A) / N, and per
# round the ratios F2/F1 and B'/F1 of the added costs (the issue's "x the floor") and B'/F2 (iowhy
# against the minimal timer). Medians with a distribution-free ~95% interval (bench/lib.sh ci).
# If F2/F1 is itself above 1.25, no exact timer meets the target on this host.
#
#   bench/syscall_floor.sh [ROUNDS]     (root; default 7; N=GETPPID, default 2000000)
# Output: bench/results/syscall-floor-DATE.txt and .tsv
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. bench/lib.sh
ROUNDS=${1:-7}
N=${GETPPID:-2000000}
[ "$(id -u)" = 0 ] || { echo "bench/syscall_floor.sh: needs root" >&2; exit 1; }
[ -n "${NO_MAKE:-}" ] || make -s all build/calib
mkdir -p bench/results
stamp=$(date +%Y%m%d-%H%M%S)
out=$ROOT/bench/results/syscall-floor-$stamp.txt
tsv=$ROOT/bench/results/syscall-floor-$stamp.tsv
WORK=$(mktemp -d /var/tmp/iowhy-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
trap 'echo "bench/syscall_floor.sh: interrupted" >&2; exit 130' INT TERM
cp ./iowhy "$WORK/iowhy" # private copies: a `make` meanwhile cannot swap them
cp build/calib "$WORK/calib"
# the timed part, the same in every kind: bash's clock around the calib process
TIMER='s=$EPOCHREALTIME; "$@" || exit; e=$EPOCHREALTIME; echo "${s/[.,]/} ${e/[.,]/}" >"$T"'

run_one() { # KIND -> T (µs)
	local pre=()
	case $1 in
	A) pre=() ;;
	F1) pre=("$WORK/iowhy" __floor --syscalls --) ;;
	F2) pre=("$WORK/iowhy" __floor --timer --) ;;
	B\') pre=("$WORK/iowhy" run --no-io --no-sample --) ;;
	esac
	rm -f "$WORK/t"
	(cd "$WORK" && T=$WORK/t "${pre[@]}" bash -c "$TIMER" timer "$WORK/calib" getppid "$N" \
		>/dev/null 2>"$WORK/err") || { echo "bench/syscall_floor.sh: $1 failed:" >&2; cat "$WORK/err" >&2; exit 1; }
	read -r s e <"$WORK/t"
	T=$((e - s))
}

kinds=(A F1 F2 "B'")
declare -A M
exec > >(tee "$out")
echo "# iowhy syscall floor, $(date -u '+%F %H:%M UTC'), $(hostname), kernel $(uname -r), $(nproc) CPUs; calib getppid $N; $ROUNDS rounds"
echo "# iowhy $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo '+dirty tree')"
printf 'round\tkind\tus\tload1\n' >"$tsv"
r21=() rb1=() rb2=()
declare -A per
for ((i = 0; i < ROUNDS; i++)); do
	for ((k = 0; k < 4; k++)); do
		kind=${kinds[$(((i + k) % 4))]}
		run_one "$kind"
		M[$kind]=$T
		printf '%d\t%s\t%s\t%s\n' $((i + 1)) "$kind" "$T" "$(cut -d' ' -f1 /proc/loadavg)" >>"$tsv"
	done
	a=${M[A]}
	for kd in F1 F2 "B'"; do
		per[$kd]+="$(awk -v t="${M[$kd]}" -v a="$a" -v n="$N" 'BEGIN { printf "%.1f", (t - a) * 1000 / n }') "
	done
	add() { awk -v t="$1" -v a="$a" 'BEGIN { print t - a }'; }
	q() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.3f", x / y; else print "nan" }'; }
	f1=$(add "${M[F1]}") f2=$(add "${M[F2]}") b=$(add "${M[B\']}")
	r21+=("$(q "$f2" "$f1")") rb1+=("$(q "$b" "$f1")") rb2+=("$(q "$b" "$f2")")
	pc() { awk -v t="$1" -v a="$a" -v n="$N" 'BEGIN { printf "%.0f", (t - a) * 1000 / n }'; }
	b=${M[B\']}
	printf "  round %d (load %s): A %d ms  F1 %d ms  F2 %d ms  B' %d ms | added per call: F1 %s  F2 %s  B' %s ns | F2/F1 %s  B'/F1 %s  B'/F2 %s\n" \
		$((i + 1)) "$(cut -d' ' -f1 /proc/loadavg)" $((a / 1000)) $((M[F1] / 1000)) $((M[F2] / 1000)) \
		$((b / 1000)) "$(pc "${M[F1]}")" "$(pc "${M[F2]}")" "$(pc "$b")" \
		"${r21[-1]}" "${rb1[-1]}" "${rb2[-1]}"
done
echo "added cost per call (ns), median (95% CI):"
for kd in F1 F2 "B'"; do
	read -r m lo hi < <(tr ' ' '\n' <<<"${per[$kd]}" | grep . | ci)
	echo "  $kd: $m ($lo-$hi)"
done
read -r m lo hi < <(printf '%s\n' "${r21[@]}" | grep -v nan | ci)
echo "F2/F1 (the minimal exact timer, x the floor): $m ($lo-$hi): $(side "$m" "$lo" "$hi" 1.25) 1.25"
read -r m lo hi < <(printf '%s\n' "${rb1[@]}" | grep -v nan | ci)
echo "B'/F1 (iowhy, x the floor): $m ($lo-$hi): $(side "$m" "$lo" "$hi" 1.25) 1.25"
read -r m lo hi < <(printf '%s\n' "${rb2[@]}" | grep -v nan | ci)
echo "B'/F2 (iowhy, x the minimal timer): $m ($lo-$hi)"
