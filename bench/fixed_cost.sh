#!/bin/bash
# iowhy's fixed cost per session: peak RSS (/usr/bin/time -v) and the start-up phases (the JSON
# `probes` object: load, attach, detach), over N runs of `iowhy run -- /bin/true`, plus the peak
# RSS of a dense run (a million getppid calls) and of a many-file run (gen direct), and counts of
# what start-up does (from strace: BPF programs loaded, maps created, kernel BTF opened, /sys/block
# entries read). RSS and counts mean something on a busy machine; the times only on a quiet one.
#
# Usage: bench/fixed_cost.sh [N] [BINARY...]   (N runs each, default 10; binaries default ./iowhy;
#        give two to compare, e.g. a copy of an older build and ./iowhy)
# Knobs: HIDE_FUSE=1 (the machine's FUSE mounts hidden from iowhy, bench/lib.sh), DENSE=1000000 (getppid calls of the dense run; 0 = skip), FILES=100000 (files of the gen
#        run; 0 = skip), COUNTS=1 (the strace counts; 0 = skip). Needs root, jq; strace for COUNTS.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
N=${1:-10}
shift || true
BINS=("$@")
[ ${#BINS[@]} -gt 0 ] || BINS=(./iowhy)
DENSE=${DENSE:-1000000}
FILES=${FILES:-100000}
COUNTS=${COUNTS:-1}
[ "$(id -u)" = 0 ] || { echo "bench/fixed_cost.sh: needs root" >&2; exit 1; }
for t in jq /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench/fixed_cost.sh: needs $t" >&2; exit 1; }
done
[ "$COUNTS" = 0 ] || command -v strace >/dev/null ||
	{ echo "bench/fixed_cost.sh: COUNTS needs strace (or COUNTS=0)" >&2; exit 1; }
[ -x build/calib ] || make -s build/calib
W=$(mktemp -d /tmp/iowhy-fixed.XXXXXX)
trap 'rm -rf "$W"' EXIT

stats() { min_med_max; }
# peak RSS in KiB of one command (its own /usr/bin/time -v line)
rss_of() { hide_fuse /usr/bin/time -v "$@" 2>&1 >/dev/null | awk '/Maximum resident/ { print $6 }'; }

echo "# iowhy fixed cost, $(date -u '+%F %H:%M UTC'), $(hostname), kernel $(uname -r), $(nproc) CPUs," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
for B in "${BINS[@]}"; do
	echo "== $B (sha256 $(sha256sum "$B" | cut -c1-12))"
	: >"$W/rss" ; : >"$W/load"; : >"$W/attach"; : >"$W/detach"; : >"$W/cpu"; : >"$W/start"
	for ((i = 0; i < N; i++)); do
		rss_of "$B" run --json "$W/j.json" -o "$W/o.txt" -- /bin/true >>"$W/rss"
		jq -r '.probes | "\(.load_ns / 1e5 | round / 10) \(.attach_ns / 1e5 | round / 10) \(.detach_ns / 1e5 | round / 10)"' "$W/j.json" |
			while read -r l a d; do echo "$l" >>"$W/load"; echo "$a" >>"$W/attach"; echo "$d" >>"$W/detach"; done
		jq -r '(.probes.load_cpu_ns // 0) / 1e5 | round / 10' "$W/j.json" >>"$W/cpu"
		jq -r '(.probes.start_ns // 0) / 1e5 | round / 10' "$W/j.json" >>"$W/start"
	done
	printf '  run -- /bin/true, %d runs (min median max): peak RSS %s MiB\n' "$N" \
		"$(awk '{ printf "%.1f\n", $1 / 1024 }' "$W/rss" | stats)"
	printf '  load %s ms, attach %s ms, detach %s ms (JSON probes; times need a quiet machine)\n' \
		"$(stats <"$W/load")" "$(stats <"$W/attach")" "$(stats <"$W/detach")"
	printf '  load CPU %s ms (JSON probes.load_cpu_ns; 0 before it existed), %s programs\n' \
		"$(stats <"$W/cpu")" "$(jq '.probes.programs // [] | length' "$W/j.json")"
	printf '  main() to the release %s ms (JSON probes.start_ns; 0 before it existed)\n' \
		"$(stats <"$W/start")"
	if [ "$DENSE" != 0 ]; then
		r=$(rss_of "$B" run --no-io --json "$W/d.json" -o "$W/o.txt" -- build/calib getppid "$DENSE")
		printf '  run --no-io -- calib getppid %s: peak RSS %.1f MiB, events %s, lost %s\n' "$DENSE" \
			"$(awk -v r="$r" 'BEGIN { print r / 1024 }')" "$(jq .events.total "$W/d.json")" \
			"$(jq .events.lost "$W/d.json")"
	fi
	if [ "$FILES" != 0 ]; then
		r=$(rss_of "$B" gen --strategy direct --size 512 --count "$FILES" --dir "$W" \
			--json "$W/g.json" -o "$W/o.txt")
		printf '  gen direct %s x 512: peak RSS %.1f MiB, events %s, lost %s\n' "$FILES" \
			"$(awk -v r="$r" 'BEGIN { print r / 1024 }')" "$(jq .events.total "$W/g.json")" \
			"$(jq .events.lost "$W/g.json")"
	fi
	if [ "$COUNTS" != 0 ]; then
		hide_fuse strace -f -qq -e trace=bpf,openat -o "$W/st" "$B" run -o "$W/o.txt" -- /bin/true
		printf '  start-up work: %s BPF programs loaded, %s maps created, %s BTF loads into the' \
			"$(grep -c 'BPF_PROG_LOAD' "$W/st")" "$(grep -c 'BPF_MAP_CREATE' "$W/st")" \
			"$(grep -c 'BPF_BTF_LOAD' "$W/st")"
		printf ' kernel, kernel BTF opened %s times, %s opens under /sys/class/block or /sys/block\n' \
			"$(grep -c 'btf/vmlinux' "$W/st")" "$(grep -cE '"/sys/(class/)?block' "$W/st")"
	fi
done
