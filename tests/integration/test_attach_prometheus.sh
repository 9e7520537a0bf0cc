# attach -a --lite --interval 1s --prometheus FILE: the textfile is replaced atomically each
# interval and passes promtool check metrics; it has HELP/TYPE lines, counters and gauges.
#
# witness: behaviour: promtool check metrics passes (-a --lite, and -p with syscall groups), the
#   HELP/TYPE lines, counters and gauges are there, no temporary file is left; tolerance: exact;
#   observed: not recorded
need_root
source tests/integration/lib_attach.sh
command -v promtool >/dev/null || skip "promtool missing (Debian package prometheus)"
F=$TMPROOT/iowhy.prom
"$IOWHY" attach -a --lite --interval 1s --duration 3.2 --prometheus "$F" -o "$TMPROOT/p.txt" \
	>/dev/null 2>"$TMPROOT/err"
rc=$?
check "attach --prometheus exits 0 (got $rc)" [ "$rc" = 0 ]
[ -s "$F" ] || { fail "no textfile written"; finish; }
promtool check metrics < "$F" >"$TMPROOT/lint" 2>&1
rc=$?
check "promtool check metrics passes ($(head -c 300 "$TMPROOT/lint"))" [ "$rc" = 0 ]
check "HELP and TYPE lines" grep -q "^# TYPE iowhy_wall_seconds_total counter" "$F"
check "wall buckets as counters" grep -q '^iowhy_wall_seconds_total{target="all processes",bucket="iowait"}' "$F"
check "device gauges" grep -q '^# TYPE iowhy_device_busy_ratio gauge' "$F"
check "no temporary file left" bash -c "! ls -A '$TMPROOT' | grep -q '\.iowhy-'"
"$IOWHY" attach -p 1 --interval 1s --duration 2.2 --prometheus "$F" >/dev/null 2>&1
promtool check metrics < "$F" >"$TMPROOT/lint" 2>&1
check "with syscall groups (-p, not lite) it passes too ($(head -c 300 "$TMPROOT/lint"))" [ "$?" = 0 ]
check "syscall groups present" grep -q '^iowhy_kernel_seconds_total{target="pid 1",group="sync"}' "$F"
