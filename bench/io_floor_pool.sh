#!/usr/bin/env bash
# bench/io_floor.sh's runs pooled: one run's 7-25 rounds cannot tell 0.87 from 0.90 on a host
# whose IOPS swing by tens of percent, many runs of the same case can. For each run given (default:
# every bench/results/io-floor-*.tsv: the committed baseline, one run per device, and any runs made
# here since; earlier runs are in that directory's git history, each .tsv beside its .txt),
# grouped by where fio read (the RAM-backed loop, a disk):
#   a line per run: its rounds, the untraced IOPS (min-max), and the medians of F0/A, F3/A, B/A;
#   per group: the rounds of all its runs pooled, each kind's median with its distribution-free
#   ~95% interval (bench/lib.sh ci) and its side of LINE (default 0.90); and how many of the runs'
#   own medians are below LINE (rounds of one run share the host's mood; runs are the safer unit).
# A round's ratios are taken within the round (the kinds ran one after the other), so runs on
# different hosts and days pool as ratios; the kinds' code must be the same across them (F0 and F3
# have not changed since bench/io_floor.sh began; B and O are whatever build each run had).
#
#   bench/io_floor_pool.sh [TSV...]     Knobs: LINE=0.90, KINDS="F0 F3 B"
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
LINE=${LINE:-0.90}
read -r -a KINDS <<<"${KINDS:-F0 F3 B}"
if [ $# -eq 0 ]; then
	shopt -s nullglob
	set -- bench/results/io-floor-*.tsv
	shopt -u nullglob
fi
[ $# -gt 0 ] || { echo "bench/io_floor_pool.sh: no io-floor runs" >&2; exit 2; }

# where RUN.txt's header says fio read: "RAM loop (DIR)" for an image on a loop device, else the
# header's "on ..." (a disk)
where() {
	local h
	h=$(head -1 "${1%.tsv}.txt" 2>/dev/null) || { echo "?"; return; }
	case $h in
	*"over an image in "*) h=${h##*over an image in }; echo "RAM loop (${h%%;*})" ;;
	*", on "*) h=${h##*, on }; echo "${h%%;*}" ;;
	*) echo "?" ;;
	esac
}

# ratios RUN.tsv KIND: X/A per round with both, a line each
ratios() {
	awk -F'\t' -v k="$2" 'NR > 1 && ($2 == "A" || $2 == k) && $3 > 0 { v[$1, $2] = $3; r[$1] = 1 }
		END { for (i in r) if ((i, "A") in v && (i, k) in v) printf "%.4f\n", v[i, k] / v[i, "A"] }' "$1"
}

declare -A group_of
groups=()
for t in "$@"; do
	[ -s "$t" ] || { echo "bench/io_floor_pool.sh: $t: no such run" >&2; exit 2; }
	g=$(where "$t")
	group_of[$t]=$g
	[[ " ${groups[*]-} " == *" $g "* ]] || groups+=("$g")
done

for g in "${groups[@]}"; do
	echo "== $g"
	pool=$(mktemp)
	runs=0
	declare -A below=()
	for t in "$@"; do
		[ "${group_of[$t]}" = "$g" ] || continue
		runs=$((runs + 1))
		a=$(awk -F'\t' 'NR > 1 && $2 == "A" && $3 > 0 { print $3 }' "$t" | sort -n |
			awk 'NR == 1 { lo = $1 } { hi = $1 } END { print (NR ? lo "-" hi : "-") }')
		line="  $(basename "$t" .tsv): untraced $a IOPS"
		for k in "${KINDS[@]}"; do
			vals=$(ratios "$t" "$k")
			[ -n "$vals" ] || continue
			m=$(median <<<"$vals")
			n=$(wc -l <<<"$vals")
			line+=", $k/A $(printf '%.3f' "$m") ($n)"
			awk -v m="$m" -v l="$LINE" 'BEGIN { exit !(m < l) }' && below[$k]=$((${below[$k]:-0} + 1))
			sed "s/^/$k /" <<<"$vals" >>"$pool"
		done
		echo "$line"
	done
	for k in "${KINDS[@]}"; do
		vals=$(awk -v k="$k" '$1 == k { print $2 }' "$pool")
		[ -n "$vals" ] || continue
		read -r m lo hi < <(ci <<<"$vals")
		n=$(wc -l <<<"$vals")
		printf '  %s/A pooled: %.4f (%s-%s) over %d rounds: %s %s; run medians below %s: %d of %d\n' \
			"$k" "$m" "$lo" "$hi" "$n" "$(side "$m" "$lo" "$hi" "$LINE")" "$LINE" "$LINE" \
			"${below[$k]:-0}" "$runs"
	done
	unset below
	rm -f "$pool"
done
