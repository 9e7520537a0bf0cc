#!/bin/bash
# What a session's start costs, program by program: N runs of `iowhy run [OPTIONS] -- bash -c
# 'echo $EPOCHREALTIME'` and, from each run's JSON (probes.programs, load_ns, load_cpu_ns) and
# /usr/bin/time:
#   - per BPF program: its set, the instructions the verifier processed (verified_insns: the same
#     on every run of one kernel and binary, whatever else the machine does) and the verifier's
#     own time (median, ms: wall time inside the kernel, stretched by other load);
#   - per run (min / median / max): programs loaded, verified instructions, the load's CPU time
#     (user + system of the loading threads), iowhy's whole CPU time (getrusage via time(1):
#     start, the run, report, teardown), load_ns and attach_ns (wall), and exec to release: from
#     just before iowhy is exec'd to the workload's first instruction (bash's $EPOCHREALTIME, so
#     bash's own start, ~2 ms, is in it).
# CPU times and instruction counts mean something on a busy machine; wall times only on a quiet
# one (the header records the load average).
#
# Usage: bench/prog_load.sh [N] [BINARY...] [-- RUN-OPTIONS...]   (N default 10; BINARY default
#        ./iowhy; give two to compare, e.g. a copy of an older build and ./iowhy)
#   e.g. bench/prog_load.sh 10 /tmp/iowhy.old ./iowhy        bench/prog_load.sh 10 -- --no-io
# FUSE mounts of other users of the machine would make iowhy load the FUSE daemon programs (the
# largest): with HIDE_FUSE=1 (the default) every run is in a mount namespace of its own where they
# are unmounted (the machine's mounts stay); HIDE_FUSE=0 measures the machine as it is.
# An iowhy from before probes.programs (2026-11-30) shows 0 programs and 0 load CPU; its other
# columns are comparable. Needs root and jq.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
N=${1:-10}
shift || true
BINS=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do BINS+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
OPTS=("$@")
[ ${#BINS[@]} -gt 0 ] || BINS=(./iowhy)
[ "$(id -u)" = 0 ] || { echo "bench/prog_load.sh: needs root" >&2; exit 1; }
for t in jq /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench/prog_load.sh: needs $t" >&2; exit 1; }
done
HIDE_FUSE=${HIDE_FUSE:-1}
W=$(mktemp -d /tmp/iowhy-progload.XXXXXX)
trap 'rm -rf "$W"' EXIT

stats() { min_med_max; }
col() { awk -v c="$1" '{ print $c }' "$W/runs"; }

echo "# iowhy start-up cost by program, $(date -u '+%F %H:%M UTC'), $(hostname), kernel $(uname -r)," \
	"$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); iowhy run ${OPTS[*]:-} -- bash, $N runs;" \
	"FUSE mounts: $(findmnt -rn -o FSTYPE | grep -cE '^fuse(blk)?([.]|$)' || true)$([ "$HIDE_FUSE" = 1 ] && echo ", hidden")"
for B in "${BINS[@]}"; do
	echo
	echo "== $B (sha256 $(sha256sum "$B" | cut -c1-12))"
	: >"$W/runs"
	: >"$W/progs"
	for ((i = 0; i < N; i++)); do
		t0=$EPOCHREALTIME
		# shellcheck disable=SC2016 # $EPOCHREALTIME is the workload's, not ours
		hide_fuse /usr/bin/time -f '%U %S' -o "$W/time" "$B" run "${OPTS[@]}" --json "$W/j.json" \
			-o "$W/o.txt" -- bash -c 'echo $EPOCHREALTIME >"$0"' "$W/t1"
		t1=$(cat "$W/t1")
		read -r u s <"$W/time"
		jq -r --arg e "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1000 }')" \
			--arg c "$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.0f", (u + s) * 1000 }')" \
			'.probes | "\(.programs // [] | length) \([.programs[]?.verified_insns] | add // 0)
			\((.load_cpu_ns // 0) / 1e5 | round / 10) \($c) \(.load_ns / 1e5 | round / 10)
			\(.attach_ns / 1e5 | round / 10) \($e)"' "$W/j.json" | tr -s ' \n\t' ' ' >>"$W/runs"
		echo >>"$W/runs"
		jq -r '.probes.programs[]? | [.set, .program, .probe, .verified_insns, .verify_ns / 1e6]
			| @tsv' "$W/j.json" >>"$W/progs"
	done
	echo
	echo "| set | program | probe | verified insns | verifier ms (median) |"
	echo "|---|---|---|---|---|"
	# one row per program, in load order, with the median of its verifier times
	awk -F'\t' '{ k = $1 "\t" $2 "\t" $3; if (!(k in n)) { order[++m] = k; ins[k] = $4 }
		t[k, ++n[k]] = $5 }
		END { for (i = 1; i <= m; i++) { k = order[i]; c = n[k]
			for (a = 1; a <= c; a++) v[a] = t[k, a]
			for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++)
				if (v[b] < v[a]) { x = v[a]; v[a] = v[b]; v[b] = x }
			med = c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
			split(k, f, "\t"); printf "| %s | %s | %s | %d | %.2f |\n", f[1], f[2], f[3], ins[k], med
		} }' "$W/progs"
	echo
	echo "per run (min / median / max):"
	printf '  programs loaded %s, verified instructions %s\n' "$(col 1 | stats)" "$(col 2 | stats)"
	printf '  CPU: loading %s ms, iowhy in all %s ms\n' "$(col 3 | stats)" "$(col 4 | stats)"
	printf '  wall: load_ns %s ms, attach_ns %s ms, exec to release %s ms\n' "$(col 5 | stats)" \
		"$(col 6 | stats)" "$(col 7 | stats)"
done
