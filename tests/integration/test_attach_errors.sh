# iowhy attach with bad targets: no such PID, a kernel thread, iowhy's options wrong, a cgroup
# that does not exist, a PID that exits during attach. Each: exit 2, one line, nothing attached.
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
# a process that ends while the probes load (a zombie of this shell: /proc still lists it); the
# probes were loaded and attached here: check nothing stays attached while and after it runs.
# 20 ms: the probes take 200 ms or more to load on any host (verifier CPU), so the target is gone
# before they are (0.3 s was not: on a quiet machine attach finished first and reported it)
sleep 0.02 &
S=$!
one_line_2 "pid that exits during attach" "exited during attach\|no such process" -p "$S"
wait "$S" 2>/dev/null
