#!/usr/bin/env bash
# Per-program cost of iowhy's BPF programs from the kernel's own statistics (bpf_stats): for each
# case, one run under `iowhy run` with kernel.bpf_stats_enabled=1; at the end of the workload (inside
# the traced tree) `bpftool prog show` is snapshotted, and every program iowhy loaded for this run is
# listed with its run count, its total run time, ns per run, and that time as a share of the
# workload's wall time. Output: a markdown table per case (for docs/PERFORMANCE.md) on stdout.
#
#   bench/prog_cost.sh [CASE...]            cases: getppid gen fio1 fio16 (default: all four)
#   bench/prog_cost.sh -- CMD [ARGS...]     any command
#
# Knobs: IOWHY_OPTS="--no-io" (options for iowhy run), IOWHY_RUN="__floor --io-timer" (another
#        iowhy mode in place of `run -o FILE OPTS`: the floor controls F0 `__floor`, F3
#        `__floor --io-timer`, whose programs are named ft_*), GETPPID=2000000, FILES=20000,
#        FIO_RUNTIME=5 (s), FIO_SIZE=256M, DIR=/var/tmp (where gen and fio write; use a RAM-backed
#        mount for the device-free figure). Counts (runs, programs) mean something on a busy machine;
#        ns per run is inflated by load (and the stats add ~2 clock reads per run).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
[ "$(id -u)" = 0 ] || { echo "bench/prog_cost.sh: needs root" >&2; exit 1; }
for t in bpftool jq column; do
	command -v $t >/dev/null || { echo "bench/prog_cost.sh: needs $t" >&2; exit 1; }
done
GETPPID=${GETPPID:-2000000}
FILES=${FILES:-20000}
FIO_RUNTIME=${FIO_RUNTIME:-5}
FIO_SIZE=${FIO_SIZE:-256M}
DIR=${DIR:-/var/tmp}
read -r -a OPTS <<<"${IOWHY_OPTS:-}"
[ -x build/calib ] || make -s build/calib
W=$(mktemp -d "$DIR/iowhy-progcost.XXXXXX")
IOWHY=$W/iowhy
cp ./iowhy "$IOWHY"
stats_prev=$(cat /proc/sys/kernel/bpf_stats_enabled)
cleanup() { echo "$stats_prev" >/proc/sys/kernel/bpf_stats_enabled; rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# The wrapper: times the command and snapshots the programs right after it, inside the tree, with
# the ids of the programs iowhy (the nearest ancestor called iowhy) holds open: another iowhy
# running at the same time loads programs of the same names.
TIMER='s=$EPOCHREALTIME; "$@"; r=$?; e=$EPOCHREALTIME
bpftool prog show -j >"$SNAP" 2>/dev/null
p=$PPID
while [ "$p" -gt 1 ] && [ "$(cat /proc/$p/comm)" != iowhy ]; do p=$(cut -d" " -f4 /proc/$p/stat); done
cat /proc/$p/fdinfo/* 2>/dev/null | awk "/^prog_id:/ { print \$2 }" | sort -un | jq -s . >"$IDS"
echo "${s/[.,]/} ${e/[.,]/}" >"$TFILE"; exit $r'

# cost_of NAME CMD...: one traced run with stats on, then the table.
cost_of() {
	local name=$1 ts te w
	shift
	echo 1 >/proc/sys/kernel/bpf_stats_enabled
	local mode=(run "${OPTS[@]}" -o "$W/report.txt")
	[ -z "${IOWHY_RUN:-}" ] || read -r -a mode <<<"$IOWHY_RUN"
	SNAP=$W/snap.json TFILE=$W/t IDS=$W/ids.json "$IOWHY" "${mode[@]}" -- \
		bash -c "$TIMER" timer "$@" >/dev/null 2>"$W/err" ||
		{ echo "bench/prog_cost.sh: '$name' failed:" >&2; cat "$W/err" >&2; exit 1; }
	echo "$stats_prev" >/proc/sys/kernel/bpf_stats_enabled
	read -r ts te <"$W/t"
	w=$((te - ts))
	echo "### $name (workload $((w / 1000)) ms, $(date -u '+%F %H:%M UTC'), $(hostname), load $(cut -d' ' -f1 /proc/loadavg))"
	echo
	# this run's programs: those iowhy held open
	local sel='[ .[] | select(.id as $i | $ids | index($i)) ]'
	jq -r --arg w "$w" --slurpfile idf "$W/ids.json" '$idf[0] as $ids | '"$sel"' as $all
		| ($all | map(select((.run_cnt // 0) > 0))) as $p
		| ($p | map(.run_time_ns) | add // 0) as $tot
		| "| program | runs | ns/run | total ms | % of workload wall | xlated bytes | jited bytes |",
		  "|---|---|---|---|---|---|---|",
		  ($p | sort_by(-.run_time_ns)[] | "| \(.name) | \(.run_cnt) | \(.run_time_ns / .run_cnt | round) | \(.run_time_ns / 1e5 | round / 10) | \(.run_time_ns / 1e3 / ($w | tonumber) * 1000 | round / 10) | \(.bytes_xlated) | \(.bytes_jited) |"),
		  "| all | \($p | map(.run_cnt) | add // 0) | | \($tot / 1e5 | round / 10) | \($tot / 1e3 / ($w | tonumber) * 1000 | round / 10) | | |",
		  "",
		  "(\($all | length) programs loaded, \($p | length) ran)"' "$W/snap.json"
	echo
}

fio_cmd() {
	echo fio --name=rr --filename="$W/fio.dat" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--numjobs="$1" --thread --size="$FIO_SIZE" --runtime="$FIO_RUNTIME" --time_based \
		--group_reporting --output-format=json --output="$W/fio.json"
}

if [ "${1:-}" = -- ]; then
	shift
	cost_of "$*" "$@"
	exit 0
fi
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=(getppid gen fio1 fio16)
for c in "${CASES[@]}"; do
	case $c in
	getppid) cost_of "calib getppid $GETPPID" "$ROOT/build/calib" getppid "$GETPPID" ;;
	gen) mkdir -p "$W/g"; cost_of "gen direct $FILES x 1k" "$IOWHY" __gen direct 1k "$FILES" "$W/g"
		rm -rf "$W/g" ;;
	fio1 | fio16)
		command -v fio >/dev/null || { echo "bench/prog_cost.sh: $c needs fio" >&2; exit 1; }
		[ -s "$W/fio.dat" ] || dd if=/dev/zero of="$W/fio.dat" bs=1M count=$(( $(numfmt --from=iec "$FIO_SIZE") >> 20 )) status=none
		read -r -a cmd <<<"$(fio_cmd "${c#fio}")"
		cost_of "fio 4k randread O_DIRECT, ${c#fio} jobs, $FIO_RUNTIME s, on $(df --output=source "$W" | tail -1)" "${cmd[@]}"
		echo "fio's IOPS: $(jq '.jobs[0].read.iops | round' "$W/fio.json")"
		echo ;;
	*) echo "bench/prog_cost.sh: unknown case $c (getppid gen fio1 fio16)" >&2; exit 2 ;;
	esac
done
