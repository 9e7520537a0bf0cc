# Ctrl-C mid-run: the workload stops, a partial report is printed, probes are detached, the scratch
# area is removed, exit 130.
#
# witness: behaviour: SIGINT once a writer works in the scratch area (the test's /proc scan):
#   exit 130, text and JSON marked partial, the scratch area removed, no BPF program held
#   (bpftool), no process left working in it; tolerance: exact; observed: not recorded
need_root
j=$TMPROOT/r.json
$IOWHY gen --no-io --strategy loop --count 100000 --size 1k --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" 2>&1 &
pid=$!
# Interrupt once the traced phase runs (a writer works in the scratch area), not during the probes'
# loading, which on a busy host can take longer than a fixed sleep: that is test_setup_interrupt's.
in_scratch() { for c in /proc/[0-9]*/cwd; do readlink "$c"; done 2>/dev/null | grep -q "^$TMPROOT/iowhy-"; }
for _ in $(seq 300); do in_scratch && break; sleep 0.1; done
check "the traced phase started (a writer in the scratch area)" in_scratch
sleep 0.5
kill -INT $pid
wait $pid; rc=$?
check "exit status 130 (got $rc)" test "$rc" = 130
check "report marked partial" grep -qi "partial" "$TMPROOT/out"
check "JSON marked partial" test "$(jqr "$j" .partial)" = true
check "scratch area removed" test -z "$(ls "$TMPROOT" | grep '^iowhy-')"
sleep 0.2
check "no BPF program held by the stopped iowhy ($pid)" test "$(bpftool prog show 2>/dev/null | grep -c "iowhy($pid)")" = 0
check "no writer left running" test -z "$(pgrep -f "$TMPROOT/iowhy-")"
# The writers name their files relative to the scratch area (their working directory), so their
# command lines no longer hold $TMPROOT: look for any process still working in it.
check "no process left working in the scratch area" \
	test -z "$(for c in /proc/[0-9]*/cwd; do readlink "$c"; done 2>/dev/null | grep "^$TMPROOT/iowhy-")"
