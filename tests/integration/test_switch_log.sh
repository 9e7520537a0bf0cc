# A task that sleeps at every call and runs in user space between calls (calib naps: 200 times a
# 1 ms sleep, then 2 ms of user-space work): its syscall entry and exit transitions wait in its
# log and go out at each switch-out, just before the switch-out's own record (bpf/iowhy.bpf.c
# flush_log). Were they lost or misread (dropping that batch in the consumer fails this test),
# the user-space work between the calls would show as kernel CPU. The tree's user and
# kernel CPU must agree with getrusage of the same run, and every sleep must be counted.
need_root
command -v jq >/dev/null || skip "jq missing"
j=$TMPROOT/r.json
"$IOWHY" run --no-io --no-sample --json "$j" -o "$TMPROOT/r.txt" -- "$CALIB" naps 200 2 >"$TMPROOT/out" ||
	fail "iowhy run exited $?"
[ -s "$j" ] || { fail "no JSON report"; finish; }
u=$(jqr "$j" .phases[0].wall.user_ns) k=$(jqr "$j" .phases[0].wall.kernel_ns)
ru=$(jqr "$j" .phases[0].cpu_check.rusage_user_ns) rs=$(jqr "$j" .phases[0].cpu_check.rusage_sys_ns)
echo "  traced user $u ns, kernel $k ns; getrusage user $ru ns, sys $rs ns"
# The steal of all CPUs since the test began (lib.sh steal_mark; and a tick per CPU of /proc/stat
# rounding): calib's 2 ms of work are timed by the clock, which counts what the host took, and
# getrusage leaves it out (a quiet fresh-clone run of 2026-12-03: getrusage user 361 ms, traced
# 520 ms, task-clock 531 ms, up to 690 ms of steal)
# shellcheck disable=SC2154 # _steal0 is set by lib.sh steal_mark
st=$(( $(steal_ns) - _steal0 + $(nproc) * 1000000000 / $(getconf CLK_TCK) ))
check "getrusage user $ru ns >= 380 ms (200 x 2 ms of user-space work) less the steal $st ns" \
	fcmp "$ru + $st >= 380e6"
# getrusage splits by ticks (4 ms at 250 Hz): 20 ticks of slack each way, and the steal above it
check "traced user $u ns within 80 ms (+ steal $st ns above) of getrusage user $ru ns" \
	fcmp "$u - $ru <= 80e6 + $st && $ru - $u <= 80e6"
check "traced kernel $k ns below getrusage sys $rs ns + 80 ms" fcmp "$k <= $rs + 80e6"
n=$(jqr "$j" '[.phases[0].syscalls[] | select(.name == "nanosleep" or .name == "clock_nanosleep") | .count] | add // 0')
check "200 sleeps counted (got $n)" test "$n" = 200
check "no event lost ($(jqr "$j" .events.lost))" test "$(jqr "$j" .events.lost)" = 0
check_phase_invariants "$j" 0
finish
