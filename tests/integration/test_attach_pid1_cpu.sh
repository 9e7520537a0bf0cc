# attach without phantom CPU. Threads whose switch-outs the kernel does not trace (on these hosts,
# every switch away from the threads of the VM's agent, pid 1: perf's sched:sched_switch shows
# them as next, never as prev) stayed "on CPU" from their first traced switch-in to the window's
# end: attach -p 1 charged pid 1 with 2.5-3.0 s of CPU in a 3 s window. iowhy now finds such a
# switch-out at the CPU's next traced switch (events.hidden_switch_outs).
# witness: /proc/1/task/*/schedstat's first field (sum_exec_runtime, ns), summed over pid 1's
#   threads, read by the test when iowhy says it is tracing (its start line) and after it exits;
#   tolerance: traced on-CPU time at most 2 ms above, and at least half less 2 ms (the test's
#   window also holds iowhy's report and exit after the traced window closed, when the agent
#   works too); observed: 35.95 ms against 36.86, 28.948 against 28.948, 36.77 against 36.80,
#   19.667 against 19.670, 12.94 against 16.84 (before: 2.5-3.0 s in a 3 s window)
# witness: /proc/1/task/*/stat utime + stime (ticks) over the same window; tolerance: 2 ticks a
#   thread (the issue's bar); observed: within 1 tick a thread
# witness: arithmetic: with -a, no process's on-CPU time (its process view) above the window,
#   no cgroup's task CPU above the window x the CPUs; tolerance: exact bounds
need_root
[ -r /proc/1/task/1/schedstat ] || skip "no /proc/1/task/1/schedstat"
cpu_of_pid1() { cat /proc/1/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'; }
ticks_of_pid1() { cat /proc/1/task/*/stat 2>/dev/null | awk '{ s += $14 + $15 } END { print s + 0 }'; }
hz=$(getconf CLK_TCK)
J=$TMPROOT/p1.json
n=$(ls /proc/1/task | wc -l)
"$IOWHY" attach -p 1 --duration 3 --json "$J" -o "$TMPROOT/p1.txt" 2>"$TMPROOT/p1.err" &
pid=$!
for _ in $(seq 1000); do grep -q "tracing pid 1" "$TMPROOT/p1.err" 2>/dev/null && break; sleep 0.01; done
s0=$(cpu_of_pid1) t0=$(ticks_of_pid1)
check "iowhy said it is tracing pid 1" grep -q "tracing pid 1" "$TMPROOT/p1.err"
wait $pid
rc=$?
s1=$(cpu_of_pid1) t1=$(ticks_of_pid1)
check "attach -p 1 exits 0 (got $rc)" test "$rc" = 0
traced=$(jqr "$J" '[.phases[0].comms[] | .user_ns + .kernel_ns] | add // 0')
ds=$((s1 - s0)) dt=$(( (t1 - t0) * 1000000000 / hz )) tol=$((2 * n * 1000000000 / hz))
echo "  pid 1 ($n threads): traced on CPU $traced ns; schedstat $ds ns; ticks $dt ns;" \
	"hidden switch-outs $(jqr "$J" .events.hidden_switch_outs)"
check "traced $traced ns at most 2 ms above, at least half (- 2 ms) of pid 1's own schedstat delta $ds ns" \
	fcmp "$traced <= $ds + 2e6 && $traced >= 0.5 * $ds - 2e6"
check "traced $traced ns within 2 ticks a thread ($tol ns) of its ticks' delta $dt ns" \
	fcmp "$traced >= $dt - $tol && $traced <= $dt + $tol"
check "the traced CPU is below half the window (pid 1 sleeps almost always)" \
	fcmp "$traced < 0.5 * $(jqr "$J" .phases[0].wall_ns)"

# -a: nothing above what the window and the CPUs allow
J=$TMPROOT/all.json
"$IOWHY" attach -a --duration 3 --json "$J" -o "$TMPROOT/all.txt" 2>"$TMPROOT/all.err"
rc=$?
check "attach -a exits 0 (got $rc)" test "$rc" = 0
w=$(jqr "$J" .phases[0].wall_ns) cpus=$(nproc)
bad=$(jqr "$J" '[.phases[0].attach.processes[] |
	select(.wall.user + .wall.kernel > $w) | "\(.comm)[\(.pid)]"] | join(" ")' --argjson w "$w")
check "no process on a CPU longer than the window $w ns (${bad:-none})" test -z "$bad"
bad=$(jqr "$J" '[.phases[0].attach.cgroups[]? |
	select(.cpu_ns > $w * $c) | "\(.path) \(.cpu_ns)"] | join(" ")' --argjson w "$w" --argjson c "$cpus")
check "no cgroup's task CPU above the window x $cpus CPUs (${bad:-none})" test -z "$bad"
p1=$(jqr "$J" '[.phases[0].attach.processes[] | select(.pid == 1) | .wall.user + .wall.kernel] | add // 0')
check "-a: pid 1's on-CPU time $p1 ns below half the window" fcmp "$p1 < 0.5 * $w"
