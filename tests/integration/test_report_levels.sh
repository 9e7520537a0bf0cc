# The text report at its three levels: the default fits a screen (the side-by-side table with the
# workload's headline figures, one line per disk, the explanation), -q is the table and the
# explanation only, -v adds every phase in full. The JSON carries everything at every level.
#
# witness: behaviour: the default text fits 55 lines with the table, headline rows, device lines
#   and explanation and no phase detail; another process's device (a loop device the test reads
#   from beside gen) is named on the other-work line only; -q shorter, -v six full phases, the
#   JSON >= 200 key paths at -q, fsbench's MiB/s, IOPS and p99 rows; tolerance: exact; observed:
#   49 default lines on a quiet CI clone (-v ~410)
# witness: none independent: check_phase_shares on the six phases (lib.sh); observed: not
#   recorded
need_root
mkdir -p "$TMPROOT/w"
gen() { $IOWHY gen "$@" --strategy loop,split,direct --count 100 --size 4k --sync --dir "$TMPROOT/w"; }

gen --json "$TMPROOT/d.json" >"$TMPROOT/default" 2>/dev/null || fail "gen exited $?"
n=$(wc -l <"$TMPROOT/default")
# a screen: 55 lines (the header, the table with at most the larger user parts, a line per disk of
# the workload's, the explanation, which grows with the flush and sample sentences; -v was ~410)
check "default: fits a screen ($n lines <= 55)" test "$n" -le 55
check "default: the side-by-side table" grep -q "^== side by side" "$TMPROOT/default"
check "default: gen's headline figure files/s is a row" grep -qE "^  files/s +[0-9,]+ " "$TMPROOT/default"
check "default: the devices, one line each" grep -q "^== devices" "$TMPROOT/default"
check "default: the explanation" grep -q "^== explanation ==" "$TMPROOT/default"
check "default: no per-phase detail" test "$(grep -c "^work view (task time\|^== loop (work phase)" "$TMPROOT/default")" = 0

# another process's I/O on a device of its own during the run: named on one line, not a line each
# (a busy host's devices must not push the workload's off the screen)
img=$TMPROOT/other.img
truncate -s 16M "$img" && other=$(losetup --find --show "$img") && on_exit "losetup -d '$other'"
if [ -n "$other" ]; then
	sh -c "while :; do dd if='$other' of=/dev/null bs=4k iflag=direct status=none; done" &
	reader=$!
	on_exit "kill $reader"
	gen >"$TMPROOT/busy" 2>/dev/null || fail "gen exited $?"
	kill "$reader"; wait "$reader" 2>/dev/null
	o=$(basename "$other")
	check "default: another process's device is not a device line ($o)" \
		bash -c "! grep -qE '^  $o +busy' '$TMPROOT/busy'"
	check "default: ... it is named on the other-work line" \
		grep -qE "^  busy with other processes' work only: .*\\b$o\\b" "$TMPROOT/busy"
	check "default: the workload's disk keeps its line" grep -qE "^  [a-z0-9]+ +busy .*workload's [1-9]" \
		"$TMPROOT/busy"
fi

gen -q --json "$TMPROOT/q.json" >"$TMPROOT/brief" 2>/dev/null || fail "gen -q exited $?"
check "-q: the table and the explanation" grep -q "^== explanation ==" "$TMPROOT/brief"
check "-q: no header, no devices" test "$(grep -c "^iowhy gen:\|^== devices" "$TMPROOT/brief")" = 0
check "-q: shorter than the default" test "$(wc -l <"$TMPROOT/brief")" -lt "$n"

gen --detail --json "$TMPROOT/v.json" >"$TMPROOT/detail" 2>/dev/null || fail "gen -v exited $?"
check "-v: every phase in full" test "$(grep -c "^== .* phase.*exit status" "$TMPROOT/detail")" = 6
check "-v: with the work view and the device section" grep -q "Devices and kernel I/O" "$TMPROOT/detail"
# the JSON does not depend on the text level
keys() { jq -c '[paths | map(if type == "number" then 0 else . end)] | unique | length' "$1"; }
check "the JSON is as complete with -q as with -v" test "$(keys "$TMPROOT/q.json")" -ge 200
for i in 0 1 2 3 4 5; do check_phase_shares "$TMPROOT/q.json" $i; done

# fsbench: MiB/s, IOPS and the p99 latency per column, as its help promises
$IOWHY fsbench --size 8M --ops 500 --dir "$TMPROOT/w" >"$TMPROOT/fs" 2>/dev/null || fail "fsbench exited $?"
for row in "MiB/s" "IOPS" "p99 latency"; do
	check "fsbench: a $row row with a figure per column" \
		grep -qE "^  $row( +[0-9][0-9.,]* ?[µnm]?s?){4}$" "$TMPROOT/fs"
done
