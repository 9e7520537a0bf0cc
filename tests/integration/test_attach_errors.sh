# iowhy attach with bad targets: no such PID, a kernel thread, iowhy's options wrong, a cgroup
# that does not exist, a PID that is gone (a zombie) when attach seeds it. Each: exit 2, one line,
# nothing attached.
need_root
source tests/integration/lib_attach.sh

one_line_2() { # DESC WANT_IN_MESSAGE ARGS...
	local desc=$1 want=$2 rc lines
	shift 2
	"$IOWHY" attach "$@" >"$TMPROOT/out" 2>"$TMPROOT/err" &
	local pid=$!
	wait "$pid"
	rc=$?
	lines=$(wc -l < "$TMPROOT/err")
	check "$desc: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "$desc: one line ($(head -c 200 "$TMPROOT/err"))" [ "$lines" = 1 ]
	check "$desc: the line says '$want'" grep -q "$want" "$TMPROOT/err"
	check "$desc: nothing on stdout" [ ! -s "$TMPROOT/out" ]
	check "$desc: nothing of iowhy's left (no process, no BPF fd)" [ "$(leftovers "$@")" = 0 ]
}

free_pid=$(( $(cat /proc/sys/kernel/pid_max) - 7 ))
while [ -e "/proc/$free_pid" ]; do free_pid=$((free_pid - 1)); done
one_line_2 "no such pid" "no such process" -p "$free_pid"
kt=$(pgrep -x kthreadd || echo 2)
one_line_2 "kernel thread" "kernel thread" -p "$kt"
one_line_2 "no such cgroup" "no such cgroup" --cgroup /nonexistent/iowhy-test
one_line_2 "two kinds of target" "one of" -p 1 -a
one_line_2 "no target" "no target"
one_line_2 "bad pid list" "not a list" -p 12,x
# a process that has ended before iowhy looks, but that /proc still lists: a zombie (its parent,
# python here, never reaps it). iowhy's checks pass, it loads and attaches its probes, then finds
# the process gone when it seeds: "exited during attach", exit 2, and nothing stays attached. The
# test waits until the target is a zombie (its state Z), so the order is certain: a target that
# slept 20 ms raced the probes' loading (and was reaped by this shell at any time).
python3 -c 'import os, sys, time
p = os.fork()
if p == 0:
	os._exit(0)
print(p, flush=True)
time.sleep(600)' >"$TMPROOT/zombie" &
H=$!
on_exit "kill $H 2>/dev/null; wait $H 2>/dev/null"
Z='' st=''
for ((i = 0; i < 400; i++)); do # 20 s
	Z=$(cat "$TMPROOT/zombie" 2>/dev/null)
	[ -n "$Z" ] && st=$(awk '{ print $3 }' "/proc/$Z/stat" 2>/dev/null)
	[ "$st" = Z ] && break
	sleep 0.05
done
if [ "$st" = Z ]; then
	one_line_2 "pid that exits during attach" "exited during attach" -p "$Z"
else
	fail "pid that exits during attach: no zombie target in 20 s (pid ${Z:-none}, state ${st:-none})"
fi
