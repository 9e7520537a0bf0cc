# The benchmarks' statistics (bench/lib.sh): the median's interval is order statistics, and fewer
# than five rounds decide nothing (a 3-round min..max covers the median only 75% of the time: an
# io_floor.sh run of 3 rounds once printed "met"). No root, no kernel: pure shell and awk.
# shellcheck source=/dev/null
. bench/lib.sh
read -r m lo hi < <(printf '%s\n' 0.95 0.96 0.97 | ci)
check "3 rounds: the median" test "$m" = 0.96
check "3 rounds: no interval" test "$lo $hi" = "nan nan"
check "3 rounds: not decidable" test "$(side "$m" "$lo" "$hi" 0.90)" = "not decidable"
read -r m lo hi < <(printf '%s\n' 0.95 0.91 0.97 0.99 0.93 | ci)
check "5 rounds: min..max" test "$m $lo $hi" = "0.95 0.91 0.99"
check "5 rounds all above: above" test "$(side "$m" "$lo" "$hi" 0.90)" = above
read -r m lo hi < <(seq 1 25 | ci)
check "25 rounds: the 7th and 19th values" test "$m $lo $hi" = "13 7 19"
check "an interval across the line: not decidable" test "$(side "$m" "$lo" "$hi" 10)" = "not decidable"
check "an interval under the line: below" test "$(side "$m" "$lo" "$hi" 20)" = below
read -r m lo hi < <(printf '%s\n' 4 2 | ci)
check "an even count: the mean of the middle two" test "$m" = 3

# CPU per request (cpu_window): a sampler file (epoch s, busy, steal, idle ticks) and a fio IOPS log
# (epoch ms, IOPS over the last 100 ms, a line per job), read over fio's steady part only.
T=$(mktemp -d)
hz=$(getconf CLK_TCK)
awk -v hz="$hz" 'BEGIN { for (s = 0; s <= 8; s++) printf "%.6f %d %d %d\n", 100 + s / 2,
	1000 + 1.5 * hz * s / 2, 50 + 0.2 * hz * s / 2, 9000 + 0.3 * hz * s / 2 }' >"$T/cpu"
awk 'BEGIN { for (t = 100200; t <= 104000; t += 100) for (j = 0; j < 2; j++)
	printf "%d, %d, 0, 0, 0\n", t, (t > 102000 ? 3000 : 1000) }' >"$T/iops.log"
read -r ios busy steal idle secs < <(cpu_window "$T/cpu" "$T/iops.log")
# (101200, 103700]: 8 entries of 1000 IOPS and 17 of 3000, two jobs, 0.1 s each
check "cpu_window: the requests inside the window only" test "$ios" = 11800
check "cpu_window: the window is 2.5 s" test "$secs" = 2.500
check "cpu_window: busy, steal, idle seconds in it" test "$busy $steal $idle" = "3.7500 0.5000 0.7500"
read -r ios _ < <(cpu_window "$T/cpu" "$T/iops.log" 0 0)
check "cpu_window: no head or tail cut (the first entry is of the 100 ms before it)" test "$ios" = 15600
awk 'NR <= 2' "$T/cpu" >"$T/short"
check "cpu_window: samples that do not cover the window give nan" \
	test "$(cpu_window "$T/short" "$T/iops.log")" = "nan nan nan nan nan"
cpu_sampler_start "$T/live"
# until it has written 4 lines (20 s at most): a sleep of 0.45 s gave a loaded host's sampler
# fewer than 3 chances to run
for ((i = 0; i < 400; i++)); do
	[ "$(wc -l <"$T/live")" -ge 4 ] && break
	kill -0 "$CPU_SAMPLER" 2>/dev/null || break
	sleep 0.05
done
t0=$(head -n 1 "$T/live" | cut -d' ' -f1) t3=$(sed -n 4p "$T/live" | cut -d' ' -f1)
cpu_sampler_stop
check "cpu_sampler: 4 lines within 20 s ($(wc -l <"$T/live"))" test "$(wc -l <"$T/live")" -ge 4
# the sampler reads at most every 100 ms: its 4th line is no sooner than 300 ms after its first
check "cpu_sampler: a line every 100 ms at most (first to 4th: ${t0:-none} to ${t3:-none} s)" \
	fcmp "${t3:-0} - ${t0:-0} >= 0.3"
check "cpu_sampler: stopped" test -z "$CPU_SAMPLER"
check "cpu_sampler: the busy ticks never go back" \
	awk 'NR > 1 && $2 < b { exit 1 } { b = $2 }' "$T/live"
rm -rf "$T"

# io_floor_pool.sh: runs (made-up .tsv with their .txt headers) grouped by where fio read, each
# run's medians, the rounds pooled, and how many runs' own medians are below the line.
T=$(mktemp -d)
hdr='# iowhy I/O floor, 2026-12-03 12:55 UTC, vm, kernel 6.18, 2 CPUs; fio 4k randread O_DIRECT psync, 16 jobs, 4s, on'
mkrun() { # NAME WHERE F3-RATIOS... (A 100000 each round; B/A 0.70)
	local name=$1 where=$2 r=0
	shift 2
	echo "$hdr $where; $# rounds" >"$T/$name.txt"
	printf 'round\tkind\tiops\tload1\n' >"$T/$name.tsv"
	for x in "$@"; do
		r=$((r + 1))
		printf '%d\tA\t100000\t1\n%d\tF3\t%d\t1\n%d\tB\t70000\t1\n' "$r" "$r" \
			"$(awk -v x="$x" 'BEGIN { printf "%d", int(x * 100000 + 0.5) }')" "$r" >>"$T/$name.tsv"
	done
}
mkrun r1 'ext4 on /dev/loop0 over an image in /dev/shm' 0.80 0.81 0.82 0.83 0.84 0.85 0.86 0.87 0.88 0.89
mkrun r2 'ext4 on /dev/loop3 over an image in /dev/shm' 0.97 0.82 0.83 0.84 0.85 0.86 0.87 0.88 0.95 0.96
mkrun v1 '/dev/vda (/var/tmp)' 0.95 0.96 0.97 0.98 0.99
out=$(KINDS="F3 B" bench/io_floor_pool.sh "$T/r1.tsv" "$T/v1.tsv" "$T/r2.tsv")
echo "$out" | sed 's/^/    /'
check "pool: two groups, loop devices of one image directory together" \
	test "$(grep -c '^== ' <<<"$out")" = 2
check "pool: a run's line with its F3/A median and rounds" grep -q 'r2: untraced 100000-100000 IOPS, F3/A 0.865 (10), B/A 0.700 (10)' <<<"$out"
ram=$(sed -n '/^== RAM loop (\/dev\/shm)/,/^== /p' <<<"$out")
# 20 rounds: the interval is the 5th and 16th values; one run alone (10 rounds) is min..max
check "pool: the RAM group's 20 rounds pooled (median 0.855, interval 0.83-0.88: below)" \
	grep -q 'F3/A pooled: 0.8550 (0.8300-0.8800) over 20 rounds: below 0.90; run medians below 0.90: 2 of 2' <<<"$ram"
check "pool: the disk's F3/A above the line, no run below" \
	grep -q 'F3/A pooled: 0.9700 (0.9500-0.9900) over 5 rounds: above 0.90; run medians below 0.90: 0 of 1' <<<"$out"
check "pool: B pooled too" grep -q 'B/A pooled: 0.7000 .* over 20 rounds: below' <<<"$ram"
check "pool: a run that is not there is an error" \
	bash -c '! bench/io_floor_pool.sh "$1" 2>/dev/null' _ "$T/none.tsv"
rm -rf "$T"
