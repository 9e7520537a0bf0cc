# The report says when tracing slowed the workload down: a calibration at start gives the cost of
# one traced event on this host, and when a phase's events x that cost reach 5% of its wall, an
# honesty line says so with the estimate. A dense syscall loop (2M getppid, ~4M events) must get it;
# gen loop 300 (a few hundred events per file, milliseconds apart) must not. The dense loop runs
# under SCHED_FIFO, iowhy too (the workload inherits it), so that other load cannot stretch its
# wall (it needs a CPU, not a share of one) nor starve the consumer.
need_root
command -v chrt >/dev/null || skip "needs chrt (util-linux)"
warn_re='^WARNING: tracing slowed run down: '

# Dense: the warning, with this run's event count and a cost that is events x the per-event cost.
chrt -f 10 $IOWHY run --json "$TMPROOT/d.json" -o "$TMPROOT/d.txt" -- "$CALIB" getppid 2000000 ||
	fail "iowhy run exited $?"
line=$(grep -E "$warn_re" "$TMPROOT/d.txt")
check "getppid 2M: the tracing-cost warning appears ($line)" test -n "$line"
ev=$(jqr "$TMPROOT/d.json" .phases[0].trace.events)
wev=$(echo "$line" | sed -E 's/.*down: ([0-9,]+) events.*/\1/' | tr -d ,)
check "its event count is the run's ($wev vs $ev)" test "$wev" = "$ev"
check "the run's >= 4,000,000 events (2 per getppid) are all there ($ev)" fcmp "$ev >= 4000000"
per=$(echo "$line" | sed -E 's/.* at ~([0-9]+) ns each.*/\1/')
check "a per-event cost was calibrated (~$per ns)" fcmp "$per > 0 && $per < 100000"
pct=$(echo "$line" | sed -E 's/.*, ([0-9]+)% of its.*/\1/')
check "it says >= 5% of the wall ($pct%)" fcmp "$pct >= 5"
check "the estimate is stated in the header, before the tables" \
	test "$(grep -nE "$warn_re" "$TMPROOT/d.txt" | cut -d: -f1)" -lt 6

# Sparse: no warning; the run still has events.
$IOWHY gen --strategy loop --size 1k --count 300 --dir "$TMPROOT" --json "$TMPROOT/g.json" \
	-o "$TMPROOT/g.txt" || fail "iowhy gen exited $?"
check "gen loop 300: no tracing-cost warning" test -z "$(grep 'tracing slowed' "$TMPROOT/g.txt")"
check "gen loop 300: events were traced ($(jqr "$TMPROOT/g.json" .phases[0].trace.events))" \
	fcmp "$(jqr "$TMPROOT/g.json" .phases[0].trace.events) > 1000"
