# A device's rates as iowhy reports them (.phases[].io.requests[] of a loop device: requests, bytes,
# iops, mib_per_s, sequential/sequential_share, depth_hist_log2) against what fio says of the same
# run and what the kernel counted, on a loop device over a temp file (direct I/O to the disk below,
# nobody else's requests on it). fio reads the raw device with O_DIRECT: every fio read is one
# request.
#
# Witnesses, all read by the test itself:
# - fio's JSON of the same run: total_ios, io_bytes, iops and bw over its runtime, iodepth_level
#   (fio's own count of I/Os in flight at each submission);
# - /sys/block/loopN/stat before and after the run (reads completed, sectors read; time in queue
#   and io_ticks for the kernel's mean in flight while busy);
# - the test's own clock of fio: the traced command is `calib witness OUT -- fio ...`
#   (tests/calib.c: CLOCK_MONOTONIC from before it forks fio to its last reaping, and its own start
#   CPU and run-queue wait): fio's reads over that span bound the rate from above, over the span
#   plus the witness's start, run-queue wait and SLACK from below;
# - what the test knows of each job: sequential reads wrap around the 256 MiB device (non-sequential
#   requests: the first and one per wrap), random 4 KiB reads (--norandommap: each offset drawn
#   afresh; fio's random map hands out the next free block near the end of a pass, 94 of 89,544
#   sequential in one run with it) start where the previous one ended by chance only (1 in 65,536).
# Tolerances (observed over 3 quiet runs and 2 beside two CPU spinners, 2026-12-04, with another
# developer's tests loading the machine: load average 5-10):
# - requests + missed completions = fio's total_ios = /sys/block's reads: exact, as docs/json.md
#   says (devices[].missed_completions); bytes likewise (missed completions at 4 KiB or 128 KiB).
#   observed exact in 68 of 75 job runs; see FAILS OBSERVED below;
# - iops x window = requests, mib_per_s x window = bytes: 0.01% (arithmetic; observed < 1e-9);
# - iops x window against fio's iops x fio's runtime (fio's own figures): within 0.2% + missed
#   (fio rounds its runtime to the ms: 0.05% of 2 s; observed within 0.05% + missed);
# - iops and MiB/s between fio's over the witness's span and over its bound: SLACK 20 ms (the
#   witness's own wall against its span, start and run-queue wait: -14 to +6.5 ms in
#   test_repeat's runs);
# - sequential: non-sequential requests of the sequential job <= 2 + wraps (observed 1 + wraps);
#   random jobs: sequential <= 5 + 5 x requests / 65,536 (observed 0-2 of up to 70,000);
# - depth: no request at a depth above fio's iodepth N (psync: 1; libaio 7; io_uring 8, fio's
#   ring is a power of two); iowhy's share at depth >= 2^k at most fio's + 1% (the device has at
#   most what fio has submitted and not reaped); where the kernel's mean in-flight while busy
#   (time_in_queue / io_ticks) is 2 or more, at least half of iowhy's requests at depth >= 2
#   (observed 77-90%).
# Missed completions: a completion the kernel runs no program for leaves its request in flight in
# iowhy's records until the request is used again or swept, so every request issued meanwhile gets
# a depth one higher: a psync (depth 1) random-read job showed 189 of 7,178 requests at depth
# 2-15 with 20 completions missed; with every 50th missed on purpose, 4-99% at depth 2-7. iowhy
# says so (io.devices[].busy_exact false): the depth bounds are checked where no completion was
# missed, and iowhy's flag is checked everywhere (the psync jobs miss 1-55 a run on this host).
# The rates are over the phase's wall (io.rate_window_ns). Over the I/O window (from before the
# workload's release to after the phase's drain: 20-155 ms longer than fio's span) 26 of 50 rate
# checks had failed, 0.1-3.5% below the lower bound.
# FAILS OBSERVED (kept): requests + missed short of fio's and /sys/block's reads in 7 of 75 job
# runs: by 1 (4 times), 3 and 773 (beside spinners) and 27: reads neither counted nor counted
# missed on the device (io.lost.complete_missed had some that devices[].missed_completions of the
# loop device did not: aio7, 37,576 + 0 of 37,577 with complete_missed 17).
need_root
command -v fio >/dev/null || skip "fio not installed"
command -v losetup >/dev/null || skip "losetup missing"
source tests/integration/lib_dev.sh
SLACK=20000000
MIB=256
img=$TMPROOT/dev.img
on_exit "rm -f '$img'"
dd if=/dev/zero of="$img" bs=1M count=$MIB oflag=direct status=none || skip "cannot write $img"
DEV=$(losetup --find --show --direct-io=on "$img") || skip "no free loop device"
on_exit "losetup -d '$DEV'"
NAME=$(basename "$DEV")
command -v udevadm >/dev/null && udevadm settle --timeout=10 >/dev/null 2>&1
echo "  rig: $DEV over $img ($MIB MiB, loop direct I/O $(cat "/sys/block/$NAME/loop/dio" 2>/dev/null))"

# stat_delta S0 S1 FIELD: a /sys/block stat field's change (1-based)
stat_delta() { local a b; read -ra a <<<"$1"; read -ra b <<<"$2"; echo $(( b[$3 - 1] - a[$3 - 1] )); }

# run_job LABEL KIND(seq|rand) DEPTH BS_BYTES [ENV=V...] -- FIO_ARGS...
run_job() {
	local label=$1 kind=$2 depth=$3 bs=$4 envs=() j f w s0 s1 rc
	shift 4
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	j=$TMPROOT/$label.json f=$TMPROOT/$label.fio.json w=$TMPROOT/$label.witness
	s0=$(cat "/sys/block/$NAME/stat")
	env "${envs[@]}" "$IOWHY" run --no-sample --json "$j" -o "$TMPROOT/$label.txt" -- \
		"$CALIB" witness "$w" -- fio \
		--name="$label" --filename="$DEV" --direct=1 --size=${MIB}M --runtime=2 --time_based \
		--output-format=json --output="$f" "$@" 2>"$TMPROOT/$label.err"
	rc=$?
	s1=$(cat "/sys/block/$NAME/stat")
	check "$label: iowhy run exits 0 (got $rc: $(head -c 200 "$TMPROOT/$label.err"))" test "$rc" = 0
	[ -s "$j" ] && [ -s "$f" ] || { fail "$label: no JSON from iowhy or fio"; return; }

	local sel="[.phases[0].io.requests[] | select(.name == \"$NAME\" and .op == \"read\")]"
	local dsel=".phases[0].io.devices[] | select(.name == \"$NAME\")"
	local req bytes iops mibs seq win missed share hist exact rows lost fios fbytes fiops fbw frt fmax
	local flevels fge fges sios sbytes own hi
	# the report's figures and fio's, one jq pass over each file ('|' between them: a pass a
	# figure, 22 a job, took 10-20 s of the test on a loaded host); the same expressions
	IFS='|' read -r req bytes iops mibs seq win missed share hist exact rows lost < <(jqr "$j" "[
		($sel | map(.requests) | add // 0), ($sel | map(.bytes) | add // 0),
		($sel | map(.iops) | add // 0), ($sel | map(.mib_per_s) | add // 0),
		($sel | map(.sequential) | add // 0), .phases[0].io.rate_window_ns,
		([$dsel | .missed_completions] | add // 0),
		($sel | if (map(.requests) | add // 0) > 0 then (map(.sequential) | add) / (map(.requests) | add) else 0 end),
		($sel | map(.depth_hist_log2) | transpose | map(add // 0) | @json),
		([.phases[0].io.devices[] | select(.name == \"$NAME\") | .busy_exact] | first),
		([.phases[0].io.requests[] | select(.name == \"$NAME\") | \"\\(.op)/\\(.class) \\(.requests)\"] | join(\", \")),
		(.phases[0].io.lost | with_entries(select(.value != 0)) | tojson)
		] | map(tostring) | join(\"|\")")
	# shellcheck disable=SC2016 # jq's $variables
	IFS='|' read -r fios fbytes fiops fbw frt fmax flevels fge < <(jqr "$f" '
		def level_ge($k): [.iodepth_level | to_entries[] |
			select((.key | ltrimstr(">=") | tonumber) >= $k) | .value] | add // 0;
		.jobs[0] | [.read.total_ios, .read.io_bytes, .read.iops, .read.bw_bytes, .read.runtime,
		(.iodepth_level | to_entries | map(select(.value > 0) | .key | ltrimstr(">=") | tonumber) | max),
		(.iodepth_level | tojson), ([level_ge(2, 4, 8) | tostring] | join(","))] | map(tostring) |
		join("|")')
	IFS=, read -ra fges <<<"$fge" # fio's share at depth >= 2, 4, 8
	sios=$(stat_delta "$s0" "$s1" 1)
	sbytes=$(( $(stat_delta "$s0" "$s1" 3) * 512 ))
	own=$(awk '$1 == "elapsed_ns" { print $2 }' "$w" 2>/dev/null)
	hi=$(awk -v s="$SLACK" '{ v[$1] = $2 } END { printf "%.0f", v["elapsed_ns"] + v["self_start_cpu_ns"] + v["self_run_delay_ns"] + s }' "$w" 2>/dev/null)
	echo "  $label: iowhy $req requests (+$missed missed) $bytes B, $iops IOPS, $mibs MiB/s over" \
		"$win ns, sequential $seq; fio $fios reads $fbytes B, $fiops IOPS over $frt ms;" \
		"/sys/block $sios reads $sbytes B; fio's span by the test's clock $own ns (bound $hi)"
	echo "  $label: $NAME's rows $rows;" "lost $lost"

	# counts: every read fio made is one request on the device, seen by iowhy or missed by it
	check "$label: requests $req + missed $missed = fio's reads $fios" test "$((req + missed))" = "$fios"
	check "$label: requests $req + missed $missed = /sys/block's reads $sios" test "$((req + missed))" = "$sios"
	check "$label: bytes $bytes + missed x $bs = fio's $fbytes" test "$((bytes + missed * bs))" = "$fbytes"
	check "$label: bytes $bytes + missed x $bs = /sys/block's $sbytes" test "$((bytes + missed * bs))" = "$sbytes"
	# the rates: over the phase window, by the report's own arithmetic
	check "$label: iops $iops x window = requests $req (0.01%)" \
		fcmp "abs($iops * $win / 1e9 - $req) <= 0.0001 * $req + 0.01"
	check "$label: MiB/s $mibs x window = bytes $bytes (0.01%)" \
		fcmp "abs($mibs * 1048576 * $win / 1e9 - $bytes) <= 0.0001 * $bytes + 1"
	# ... against fio's own rates over its runtime (fio's iops x runtime = its reads)
	check "$label: iowhy's iops x window within 0.2% (+ missed) of fio's iops $fiops x its runtime $frt ms" \
		fcmp "abs($iops * $win / 1e9 + $missed - $fiops * $frt / 1000) <= 0.002 * $fios + 1"
	check "$label: iowhy's MiB/s x window within 0.2% (+ missed) of fio's bw $fbw B/s x its runtime" \
		fcmp "abs($mibs * 1048576 * $win / 1e9 + $missed * $bs - $fbw * $frt / 1000) <= 0.002 * $fbytes + $bs"
	# ... and against the rate over the span the test timed around fio: the window holds that span
	# and at most the witness's own start, run-queue wait and SLACK more; the requests iowhy saw are
	# fio's reads less those whose completion it missed
	local rhi rlo bhi blo
	rhi=$(awk -v n="$fios" -v s="$own" 'BEGIN { printf "%.6f", n * 1e9 / s }')
	rlo=$(awk -v n="$fios" -v m="$missed" -v s="$hi" 'BEGIN { printf "%.6f", (n - m) * 1e9 / s }')
	bhi=$(awk -v n="$fbytes" -v s="$own" 'BEGIN { printf "%.6f", n / 1048576 * 1e9 / s }')
	blo=$(awk -v n="$fbytes" -v m="$missed" -v b="$bs" -v s="$hi" 'BEGIN { printf "%.6f", (n - m * b) / 1048576 * 1e9 / s }')
	echo "  $label: window - fio's span = $((win - own)) ns; the bound's margin $((hi - win)) ns"
	check "$label: iops $iops between fio's reads over the witness's bound $rlo and over its span $rhi" \
		fcmp "$iops <= 1.0001 * $rhi && $iops >= 0.9999 * $rlo"
	check "$label: MiB/s $mibs between fio's bytes over the witness's bound $blo and over its span $bhi" \
		fcmp "$mibs <= 1.0001 * $bhi && $mibs >= 0.9999 * $blo"

	# sequential share: the test knows the access pattern
	check "$label: sequential_share $share = sequential / requests ($seq / $req)" \
		fcmp "abs($share * $req - $seq) <= 1e-6"
	if [ "$kind" = seq ]; then
		local wraps=$(( fbytes / (MIB * 1048576) ))
		check "$label: sequential job: $((req - seq)) of $req requests not sequential, at most 2 + $wraps wraps (share $share)" \
			fcmp "$req - $seq <= 2 + $wraps && $req > 100"
	else
		check "$label: random job: $seq of $req requests sequential, at most chance's 5 + 5 x $req / 65536 (share $share)" \
			fcmp "$seq <= 5 + 5 * $req / 65536 && $req > 100"
	fi

	# queue depth: iowhy's log2 histogram against fio's own depth distribution (fio counts what it
	# has submitted and not reaped: the device never has more)
	local maxslot over k ours theirs tiq ticks
	maxslot=$(awk -v n="$depth" 'BEGIN { k = 0; while (2 ^ (k + 1) <= n) k++; print k }')
	check "$label: fio's own depth never above $depth (its deepest level $fmax)" fcmp "$fmax <= $depth"
	over=$(jq -r --argjson m "$maxslot" '.[($m + 1):] | add // 0' <<<"$hist")
	echo "  $label: depth_hist_log2 $hist (slots above $maxslot: $over); fio iodepth_level $flevels"
	# with completions missed the depths are not exact (a missed one stays in flight until found):
	# iowhy must say so (busy_exact false), and the bounds below hold only without
	check "$label: busy and depths said exact ($exact) exactly when no completion was missed ($missed)" \
		test "$exact" = "$([ "$missed" = 0 ] && echo true || echo false)"
	if [ "$missed" != 0 ]; then
		skip_part "$label: depths against fio's ($missed completions missed: not exact; $over requests above depth $depth)"
		return
	fi
	check "$label: no request at a depth above $depth (slots above $maxslot: $over requests)" \
		test "$over" = 0
	for k in 1 2 3; do
		[ $((1 << k)) -le 64 ] || continue
		ours=$(jq -r --argjson k "$k" '(.[$k:] | add // 0) / ((add // 0) | if . == 0 then 1 else . end) * 100' <<<"$hist")
		theirs=${fges[k - 1]}
		check "$label: share at depth >= $((1 << k)): iowhy $ours% at most fio's $theirs% + 1" \
			fcmp "$ours <= $theirs + 1"
	done
	tiq=$(stat_delta "$s0" "$s1" 11) ticks=$(stat_delta "$s0" "$s1" 10)
	if fcmp "$ticks > 0 && $tiq >= 2 * $ticks"; then
		ours=$(jq -r '(.[1:] | add // 0) / (add // 1)' <<<"$hist")
		check "$label: the kernel's mean in-flight while busy is $(awk -v a="$tiq" -v b="$ticks" 'BEGIN { printf "%.2f", a / b }'): iowhy has at least half its requests at depth >= 2 ($ours)" \
			fcmp "$ours >= 0.5"
	fi
}

run_job seq seq 1 131072 -- --ioengine=psync --rw=read --bs=128k
run_job rand rand 1 4096 -- --ioengine=psync --rw=randread --bs=4k --norandommap --randrepeat=0
run_job aio7 rand 7 4096 -- --ioengine=libaio --iodepth=7 --rw=randread --bs=4k --norandommap --randrepeat=0
run_job uring8 rand 8 4096 -- --ioengine=io_uring --iodepth=8 --rw=randread --bs=4k --norandommap --randrepeat=0
# every 50th completion missed on purpose (both completion programs skip it): the counts still
# agree (requests + missed), and iowhy says its busy time and depths are not exact
run_job qd1miss rand 1 4096 IOWHY_TEST_MISS_COMPLETIONS=50 -- --ioengine=libaio --iodepth=1 --rw=randread --bs=4k --norandommap --randrepeat=0
