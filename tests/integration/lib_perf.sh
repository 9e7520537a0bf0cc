# perf's own CPU samples of a run, as a witness of the user/kernel split (sourced after lib.sh).
# perf (linux-perf) shares no code with iowhy: it opens its own cpu-clock events, writes its own
# file, and perf script reads it back; the test classifies the samples itself.
#
#   perf_samples_start FILE [HZ]   start `perf record -a -e cpu-clock -F HZ` (999 by default) into
#                                  FILE; returns once perf says its events are enabled. Returns 1
#                                  with the reason in PERF_WHY when perf is missing or cannot record
#                                  (the caller skips: `|| skip "$PERF_WHY"`, or skip_part).
#   perf_samples_stop              stop it (bounded: 60 s, then SIGKILL) and wait for it; returns 1
#                                  (a failed check) if it did not end well. Killed on the test's exit
#                                  anyway (on_exit), if still running.
#   perf_split FILE COMM_REGEX [ROOT_PID]
#                                  prints "USER KERNEL": the samples of the threads that descend from
#                                  ROOT_PID (the test's shell, $$, by default; forked while perf
#                                  recorded) whose comm at the sample matches COMM_REGEX (awk ERE),
#                                  split by where the sample's ip lies (kernel addresses have the top
#                                  bit set: x86-64, arm64). Prints a line of detail to the test's
#                                  output. Returns 1 (a failed check) if perf script fails or lost
#                                  samples.
#   perf_kshare FILE COMM_REGEX [ROOT_PID]   KERNEL / (USER + KERNEL), or a failed check when no sample
#
# Only the test's own processes count: perf records every CPU, so another test's `calib` (other
# runs on the machine) is in the file too, and is left out because it does not descend from this
# test's shell. perf_samples_start must run in the test's own shell (not in $(...)): perf is its
# background child, waited for by perf_samples_stop.
#
# Accuracy (documented for the tests that use it):
# - A sample is one tick of a per-CPU hrtimer (1/HZ s apart) that found the thread on the CPU: the
#   counts are the thread's CPU time in 1/HZ units, a binomial estimate of the split. The standard
#   error of the kernel share p over n samples is sqrt(p (1 - p) / n): at most 0.016 at n = 1,000.
# - The mode is the interrupted context's: a tick that comes while the kernel has interrupts off
#   (a syscall's entry before it enables them, an interrupt handler) fires when they come back on:
#   in the kernel (on a PVM guest at pvm_irq_enable: 4% of the samples of a user loop that reads
#   its thread CPU clock, a syscall, every 100 us) or, on the way back to user space, in user
#   mode. That bias is perf's cpu-clock's, and iowhy's sampler (also a cpu-clock perf event)
#   shares it: what this witness checks is iowhy's own arithmetic (attribution to the tree, the
#   syscall tracepoints' time, the correction of the time outside syscalls), not the sampling
#   mechanism. Observed, iowhy's kernel share (999 Hz) - perf's (1999 Hz), 10-11 runs each, 2-5
#   of them beside two spinners: getppid -0.034 to +0.001 (0.015 under on average), a dd loop
#   -0.024 to +0.002, 1 GiB of page faults -0.024 to +0.023, a 300 ms user loop -0.030 to +0.032
#   (~25 of iowhy's ~300 samples in the kernel); getrusage's tick split of the same runs was as
#   far from perf's as iowhy's was.
# - perf's own cost: HZ interrupts a second on each CPU writing a sample (a few us each: under 1%
#   of a CPU at 999 Hz), and its start (it reads /proc for every task: ~0.4 s here) before the
#   workload starts.

# shellcheck disable=SC2034 # PERF_WHY: read by the tests that source this file
PERF_WHY=''
_perf_pid='' _perf_ctl='' _perf_ack='' _perf_dir='' _perf_file='' _perf_exit_set=''

# _perf_cleanup: on the test's exit, perf ended (TERM, then KILL) and its fifos closed
_perf_cleanup() {
	local i
	if [ -n "$_perf_pid" ]; then
		kill -TERM "$_perf_pid" 2>/dev/null
		for ((i = 0; i < 50; i++)); do kill -0 "$_perf_pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$_perf_pid" 2>/dev/null
		wait "$_perf_pid" 2>/dev/null
		_perf_pid=''
	fi
	[ -z "$_perf_ctl" ] || exec {_perf_ctl}>&-
	[ -z "$_perf_ack" ] || exec {_perf_ack}>&-
	_perf_ctl='' _perf_ack=''
	[ -z "$_perf_dir" ] || rm -rf "$_perf_dir"
	_perf_dir=''
}

# perf_samples_start FILE [HZ]
perf_samples_start() {
	local f=$1 hz=${2:-999} r i
	PERF_WHY=''
	command -v perf >/dev/null || { PERF_WHY="perf not installed (linux-perf)"; return 1; }
	perf version >/dev/null 2>&1 ||
		{ PERF_WHY="perf does not run: $(perf version 2>&1 | head -1)"; return 1; }
	[ -z "$_perf_pid" ] || { fail "perf_samples_start: perf already recording ($_perf_file)"; return 1; }
	if [ -z "$_perf_exit_set" ]; then on_exit _perf_cleanup; _perf_exit_set=1; fi
	_perf_dir=$(mktemp -d "${TMPROOT:-/tmp}/perf.XXXXXX") || { PERF_WHY="mktemp failed"; return 1; }
	mkfifo "$_perf_dir/ctl" "$_perf_dir/ack" || { PERF_WHY="mkfifo failed"; return 1; }
	# opened read-write: no open blocks waiting for the other end
	exec {_perf_ctl}<>"$_perf_dir/ctl" {_perf_ack}<>"$_perf_dir/ack"
	# -D -1: events disabled until "enable" (acknowledged once they are); -B -N: no build-id pass
	perf record -D -1 -a -e cpu-clock -F "$hz" -B -N -q --control "fifo:$_perf_dir/ctl,$_perf_dir/ack" \
		-o "$f" >"$f.log" 2>&1 </dev/null &
	_perf_pid=$! _perf_file=$f
	echo enable >&"$_perf_ctl"
	r=''
	for ((i = 0; i < 60; i++)); do
		read -r -t 1 -u "$_perf_ack" r && break
		kill -0 "$_perf_pid" 2>/dev/null || break
	done
	if [ "$r" != ack ]; then
		PERF_WHY="perf record did not start recording: $(tr '\n' ' ' <"$f.log" | head -c 300)"
		_perf_cleanup
		return 1
	fi
	return 0
}

# perf_samples_stop: a check that perf ended of itself, with status 0
perf_samples_stop() {
	local i rc r
	[ -n "$_perf_pid" ] || { fail "perf_samples_stop: perf is not recording"; return 1; }
	echo stop >&"$_perf_ctl"
	read -r -t 10 -u "$_perf_ack" r
	for ((i = 0; i < 600; i++)); do kill -0 "$_perf_pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$_perf_pid" 2>/dev/null; then
		fail "perf record did not stop in 60 s ($(tr '\n' ' ' <"$_perf_file.log" | head -c 300))"
		_perf_cleanup
		return 1
	fi
	wait "$_perf_pid"; rc=$?
	_perf_pid=''
	_perf_cleanup
	[ "$rc" = 0 ] || { fail "perf record exited $rc: $(tr '\n' ' ' <"$_perf_file.log" | head -c 300)"; return 1; }
	return 0
}

# perf_split FILE COMM_REGEX [ROOT_PID]: "USER KERNEL" sample counts (see the top)
perf_split() {
	local f=$1 re=$2 root=${3:-$$} err out rc
	err=$(mktemp "$HARNESS_DIR/perf.XXXXXX")
	# comm is the first 16 columns (15 characters at most, right-aligned), then pid/tid, then
	# the ip or the task event
	out=$(perf script -i "$f" --show-task-events --show-lost-events -F comm,pid,tid,ip 2>"$err" |
		awk -v re="$re" -v root="$root" '
		BEGIN { in_tree[root] = 1 }
		{
			comm = substr($0, 1, 16); sub(/^ +/, "", comm)
			rest = substr($0, 17)
			if (match(rest, /PERF_RECORD_FORK\([0-9]+:[0-9]+\):\([0-9]+:[0-9]+\)/)) {
				split(substr(rest, RSTART, RLENGTH), v, /[():]+/)
				# v[2] pid, v[3] tid, v[4] ppid, v[5] ptid (the forking thread)
				# (a tid used again by a task outside the tree leaves it; the synthesized
				# fork of the root itself, from its parent, does not)
				if (v[5] in in_tree) { in_tree[v[3]] = 1; tids++ }
				else if (v[3] != root) delete in_tree[v[3]]
				next
			}
			if (rest ~ /PERF_RECORD_LOST/) {
				if (match(rest, /lost:? *[0-9]+/)) { s = substr(rest, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); lost += s }
				else lost++
				next
			}
			if (rest ~ /PERF_RECORD_/) next
			if (split(rest, w, " ") != 2 || w[1] !~ /^[0-9]+\/[0-9]+$/ || w[2] !~ /^[0-9a-f]+$/) next
			split(w[1], p, "/")
			if (!(p[2] in in_tree) || comm !~ re) next
			if (length(w[2]) == 16 && w[2] ~ /^[89a-f]/) k++; else u++
		}
		END { printf "%d %d %d %d\n", u, k, tids, lost }'); rc=$?
	if [ "$rc" != 0 ] || [ -z "$out" ]; then
		fail "perf script on $f: exit $rc: $(tr '\n' ' ' <"$err" | head -c 300)"
		rm -f "$err"
		return 1
	fi
	local u k n l
	read -r u k n l <<<"$out"
	echo "  perf samples ($f): comm ~ /$re/ under pid $root ($n threads forked): user $u, kernel $k, lost $l" >&"$_HOUT"
	rm -f "$err"
	if [ "$l" != 0 ]; then fail "perf lost $l samples in $f"; return 1; fi
	echo "$u $k"
}

# perf_kshare FILE COMM_REGEX [ROOT_PID]: the kernel share of those samples (a failed check if none)
perf_kshare() {
	local s u k
	s=$(perf_split "$@") || return 1
	read -r u k <<<"$s"
	[ "$((u + k))" -gt 0 ] || { fail "perf samples in $1: none of comm /$2/"; return 1; }
	awk -v u="$u" -v k="$k" 'BEGIN { printf "%.4f\n", k / (u + k) }'
}
