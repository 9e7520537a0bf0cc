#!/usr/bin/env bash
# Run the integration tests (tests/integration/test_*.sh, or the names given). Each runs in its own
# bash with lib.sh sourced, a fresh $TMPROOT, and a time limit. Exit 0 = pass, 77 = skip.
# A test passes only if it made at least one check and none failed (lib.sh records them). Last
# line: "N passed, N failed, N skipped".
#
# Lanes (IOWHY_TEST_JOBS, default the CPUs, at most 2; see "lanes" below) take the tests in turn.
# Some tests read or change the whole machine and must not run beside any other test, of this run
# or of another run.sh on the machine: the line "# exclusive: WHY" in their opening comment block
# says so. A test that drops the page cache (writes
# /proc/sys/vm/drop_caches, runs iowhy with --drop-caches, calls lib_dev.sh's drop_caches) says
# so with the line
#     # exclusive: drops the page cache
# in its opening comment block (before its first command). run.sh fails a test that drops it
# without saying so (it looks in the test, the files it sources and the scripts it runs), and
# runs a marked one alone: every test holds a shared lock on /tmp/iowhy-tests.lock while it runs,
# a marked one an exclusive lock (and a turnstile lock while it waits for it, so that the tests of
# other runs queue behind it).
#
# After each test, what it set up and left behind is named, counted as a failure of the run
# ("teardown(TEST)"), and removed, so that the next test starts clean (only what this test made):
#   - processes still running that it started: in its session (run.sh starts each test in a
#     session of its own), in its cgroup (each test runs in a cgroup v2 of its own when there is
#     one), or with its $TMPROOT in their environment, command line or working directory;
#   - cgroups it made: those left inside its own cgroup (e.g. iowhy-PID), and those named
#     NAME.PID for the test's shell PID, anywhere under /sys/fs/cgroup, made while it ran;
#   - mounts under its $TMPROOT and loop devices over files there.
# What goes away on its own within 5 s (a killed daemon exiting, iowhy's guard removing its
# cgroup, a loop device's deferred detach) is not counted.
cd "$(dirname "$0")/../.." || exit 1
export OUT=${OUT:-build}
export IOWHY=${IOWHY:-$PWD/iowhy} CALIB=${CALIB:-$PWD/$OUT/calib}
LIMIT=${IOWHY_TEST_TIMEOUT:-300}
MARKER='# exclusive: drops the page cache'
pass=0 failn=0 skipn=0 partn=0 failed_names=() part_names=()
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/integration/test_*.sh)
RUNDIR=$(mktemp -d /tmp/iowhy-run.XXXXXX) || exit 1
# TMPROOT and HARNESS_DIR go to the test's environment only (see below), never to run.sh's own
# helpers: a process with this test's TMPROOT in its environment is the test's
TMPROOT='' HARNESS_DIR='' TESTCG=''
export -n TMPROOT HARNESS_DIR
TOPDIR=$RUNDIR LANE_PIDS=()
on_signal() {
	# the tests run in sessions of their own: a Ctrl-C at the terminal reaches only run.sh (and
	# its lanes, which leave it to this)
	local sid
	for sid in $(cat "$TOPDIR"/sid "$TOPDIR"/lane.*/sid 2>/dev/null); do
		kill -TERM -- "-$sid" 2>/dev/null
	done
	[ ${#LANE_PIDS[@]} -eq 0 ] || kill -TERM "${LANE_PIDS[@]}" 2>/dev/null
	wait
	rm -rf "$TOPDIR"
	exit 130
}
trap on_signal INT TERM
trap 'rm -rf "$TOPDIR"' EXIT

# ---- drop_caches: which tests drop the page cache ----

# test_files TEST: TEST_FILES = the test, lib.sh and every file they source or run by a literal
# path (bench/..., tests/...), transitively. What a file references is read once per lane
# (FILE_REFS).
declare -A FILE_REFS=()
test_files() {
	local -A seen=()
	local queue=(tests/integration/lib.sh "$1") f r
	TEST_FILES=()
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}
		queue=("${queue[@]:1}")
		[ -n "${seen[$f]:-}" ] && continue
		seen[$f]=1
		[ -r "$f" ] || continue
		TEST_FILES+=("$f")
		[ -n "${FILE_REFS[$f]+set}" ] ||
			FILE_REFS[$f]=$(grep -v '^[[:space:]]*#' "$f" | grep -oE '(^|[[:space:];&|("'"'"'])(\.|source)[[:space:]]+["'"'"']?[A-Za-z0-9_./-]+\.sh|(bench|tests)/[A-Za-z0-9_./-]+\.sh' |
				grep -oE '[A-Za-z0-9_./-]+\.sh$')
		for r in ${FILE_REFS[$f]}; do
			[ -z "${seen[$r]:-}" ] && queue+=("$r")
		done
	done
}
# drops_cache TEST: "FILE:LINE: TEXT" of where the test (or what it sources or runs) writes
# drop_caches, or nothing. A line that writes it (> or tee into /proc/sys/vm/drop_caches, sysctl
# vm.drop_caches=, iowhy's --drop-caches) makes the function it is in a writer, and a function that
# calls a writer is one too; the test drops the cache when a writer is called, or a write is made,
# outside any function of a library (in the test itself: anywhere).
drops_cache() {
	local files
	test_files "$1"
	files=("${TEST_FILES[@]}")
	awk -v test="$1" '
	function call_of(line, name,   re) {
		re = "(^|[[:space:];&|({])" name "([[:space:];&|)}]|$)"
		return line ~ re
	}
	FNR == 1 { fn = "" }
	/^[[:space:]]*#/ { next }
	{
		line = $0
		w = (line ~ />[[:space:]]*\/proc\/sys\/vm\/drop_caches/ || line ~ /tee[^|;]*\/proc\/sys\/vm\/drop_caches/ ||
		     line ~ /vm[.]drop_caches[[:space:]]*=/ || line ~ /--drop-caches/)
		if (FILENAME != test && fn == "" && match(line, /^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(\)/)) {
			fn = substr(line, 1, RLENGTH); sub(/[[:space:]]*\(\)$/, "", fn)
			oneline = (line ~ /}[[:space:]]*$/)
		}
		n++; L[n] = line; F[n] = FILENAME; N[n] = FNR; IN[n] = (FILENAME == test) ? "" : fn
		if (w) { W[n] = 1; if (IN[n] != "" && !(IN[n] in writer)) writer[IN[n]] = n }
		if (fn != "" && (oneline || line ~ /^}/)) { fn = ""; oneline = 0 }
	}
	END {
		do {
			more = 0
			for (i = 1; i <= n; i++) if (IN[i] != "" && !(IN[i] in writer))
				for (f in writer) if (call_of(L[i], f)) { writer[IN[i]] = i; more = 1; break }
		} while (more)
		for (i = 1; i <= n; i++) {
			if (IN[i] != "") continue
			hit = W[i]
			if (!hit) for (f in writer) if (call_of(L[i], f)) { hit = 1; break }
			if (hit) { printf "%s:%d: %s\n", F[i], N[i], L[i]; exit }
		}
	}' "${files[@]}"
}
# has_marker TEST: the marker is in the test's opening comment block (the lines before its first
# command)
has_marker() {
	local l
	while IFS= read -r l; do
		[ "$l" = "$MARKER" ] && return 0
		[[ $l =~ ^[[:space:]]*(#|$) ]] || return 1
	done <"$1"
	return 1
}
# has_exclusive TEST: a line "# exclusive: WHY" in its opening comment block (any reason: a test
# that reads the whole machine, perf record -a or attach -a, or times itself against a run)
has_exclusive() { has_header_line '# exclusive: ' "$1"; }
# has_header_line PREFIX TEST: a line beginning with PREFIX in its opening comment block
has_header_line() {
	local l
	while IFS= read -r l; do
		[[ $l == "$1"* ]] && return 0
		[[ $l =~ ^[[:space:]]*(#|$) ]] || return 1
	done <"$2"
	return 1
}

# ---- the lock: exclusive tests alone on the machine ----

# (IOWHY_TEST_LOCKDIR: where the lock files are, /tmp unless told; the harness's planted runs use
# their own, so that they neither wait for nor hold back the suite's tests on the machine)
LOCKDIR=${IOWHY_TEST_LOCKDIR:-/tmp}
LOCK=$LOCKDIR/iowhy-tests.lock TURN=$LOCKDIR/iowhy-tests.turnstile
for f in "$LOCK" "$TURN"; do
	[ -e "$f" ] || { (umask 0; : >>"$f") 2>/dev/null; }
done
# (without flock or the files, no lock: the fds are /dev/null's then, closed for the test all the same)
LOCKING=0
if command -v flock >/dev/null && [ -r "$LOCK" ] && [ -r "$TURN" ]; then
	exec {lfd}<"$LOCK" {tfd}<"$TURN" && LOCKING=1
else
	exec {lfd}</dev/null {tfd}</dev/null
fi
# lock_test exclusive|shared: 0, or 1 after saying why
lock_test() {
	local wait=$((LIMIT + 60))
	[ "$LOCKING" = 1 ] || return 0
	if [ "$1" = exclusive ]; then
		flock -x -w "$wait" "$tfd" && flock -x -w "$wait" "$lfd" && { flock -u "$tfd"; return 0; }
		flock -u "$tfd"
		echo "   (no moment without another run's test in $wait s: not run beside them)"
		return 1
	fi
	if flock -x -w "$wait" "$tfd" && flock -s -w "$wait" "$lfd"; then
		flock -u "$tfd"
		return 0
	fi
	flock -u "$tfd"
	echo "   (waited $wait s for another run's exclusive test: running anyway)"
	return 0
}
unlock_test() { [ "$LOCKING" = 0 ] || flock -u "$lfd"; [ "${IOLOCKING:-0}" = 0 ] || flock -u "$iofd"; }
# An I/O test never runs beside another: one that builds block devices, FUSE mounts or throttles
# with the rigs of lib_dev.sh, lib_btrfs.sh, lib_fuse.sh or lib_throttle.sh, runs losetup, fio,
# dd, sync or one of iowhy's I/O workloads, or calls for fsync (lib_attach.sh's target's fsync
# mode; its write mode and its sleepers only write to the page cache or do nothing), fdatasync or
# --sync. Its exact request counts do not hold beside another's I/O: a suite run
# without this lock (IOWHY_TEST_IOLOCK=0) had an iowhy miss 2 of 1,609 requests' bios on its loop
# device (issue_unseen) while another test wrote, a known weakness the report counts. It may run
# beside any other test. A test that does I/O but checks nothing the block layer counts, its I/O
# only writes to the page cache (iowhy with --no-io), says so with the line
# "# io beside others: WHY" in its opening comment block, and takes no I/O lock.
IOLOCK=$LOCKDIR/iowhy-tests.io.lock
[ -e "$IOLOCK" ] || { (umask 0; : >>"$IOLOCK") 2>/dev/null; }
IOLOCKING=0
if [ "$LOCKING" = 1 ] && [ -r "$IOLOCK" ] && [ "${IOWHY_TEST_IOLOCK:-1}" != 0 ]; then exec {iofd}<"$IOLOCK" && IOLOCKING=1; else exec {iofd}</dev/null; fi
is_io_test() {
	has_header_line '# io beside others: ' "$1" && return 1
	grep -v '^[[:space:]]*#' "$1" | grep -qE 'lib_(dev|btrfs|fuse|throttle)\.sh|(^|[^A-Za-z0-9_.-])(losetup|fio|dd|sync)[[:space:]]|IOWHY"?[[:space:]]+(rand|read|copy|bigfile|gen|tar|write|flush|fsbench|hunt)([[:space:]]|$)|--sync|fsync|fdatasync|iomix'
}
# lock_io: the I/O lock for the test (bounded: then it runs anyway and says so)
lock_io() {
	[ "$IOLOCKING" = 1 ] || return 0
	flock -x -w $((LIMIT + 60)) "$iofd" ||
		echo "   (waited $((LIMIT + 60)) s for another I/O test: running beside it)"
}

# ---- the test's own cgroup ----

CG2=$(findmnt -rn -t cgroup2 -o TARGET 2>/dev/null | head -n 1)
CGBASE=''
if [ -n "$CG2" ] && [ "$(id -u)" = 0 ]; then
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	CGBASE=$CG2${own%/}
	[ -w "$CGBASE" ] || CGBASE=''
fi
# (the harness's own tests: IOWHY_TEST_CGROUPS=0, no cgroup a test, to see the other ways a test's
# processes are found)
[ "${IOWHY_TEST_CGROUPS:-1}" != 0 ] || CGBASE=''

# ---- leftovers ----

# The scans below run after every test: shell builtins where a program is not needed (a fork and
# exec cost ~5 ms on the hosts seen, and there were ~140 of them a test).
shopt -s globstar
# test_procs: "PID WHY" of processes of the test still running (not zombies); the patterns come
# from files, so that no scanning process names $TMPROOT itself
test_procs() {
	local -A seen=()
	local p s f c line why
	{
		while read -r p s; do [ "$s" = "$SID" ] && echo "$p in its session"; done < <(ps -e -o pid=,sid=)
		if [ -n "$TESTCG" ] && [ -d "$TESTCG" ]; then
			for f in "$TESTCG"/**/cgroup.procs; do
				[ -r "$f" ] || continue
				while read -r p; do echo "$p in its cgroup"; done <"$f"
			done
		fi
		for f in $(grep -lzxF -f "$RUNDIR/env.pat" /proc/[0-9]*/environ 2>/dev/null); do
			p=${f#/proc/}; echo "${p%%/*} with its TMPROOT"
		done
		for f in $(grep -lzF -f "$RUNDIR/root.pat" /proc/[0-9]*/cmdline 2>/dev/null); do
			p=${f#/proc/}; echo "${p%%/*} with its TMPROOT on the command line"
		done
		while IFS=$'\t' read -r c f; do
			[ "$c" = "$TMPROOT" ] || [ "${c#"$TMPROOT"/}" != "$c" ] || continue
			p=${f#/proc/}; echo "${p%%/*} working in its TMPROOT"
		done < <(find /proc/[0-9]*/cwd -maxdepth 0 -printf '%l\t%p\n' 2>/dev/null)
	} | while read -r p why; do
		[ -z "${seen[$p]:-}" ] || continue
		seen[$p]=1
		[ "$p" = $$ ] || [ "$p" = "$BASHPID" ] && continue
		read -r line 2>/dev/null <"/proc/$p/stat" || continue
		line=${line##*) }
		[ "${line%% *}" = Z ] && continue
		echo "$p $why"
	done
}
# test_cgroups: cgroups the test made that are still there, deepest first
test_cgroups() {
	local -a found=()
	local c
	if [ -n "$TESTCG" ] && [ -d "$TESTCG" ]; then
		for c in "$TESTCG"/**/; do
			c=${c%/}
			[ "$c" = "$TESTCG" ] || found+=("$c")
		done
	fi
	[ -z "$TPID" ] || mapfile -t -O "${#found[@]}" found < <(find /sys/fs/cgroup -mindepth 1 -maxdepth 8 \
		-type d -name "*.$TPID" -newermt "@$((T0 - 1))" 2>/dev/null)
	[ ${#found[@]} -gt 0 ] || return 0
	printf '%s\n' "${found[@]}" | awk '{ print length($0), $0 }' | sort -rn | cut -d' ' -f2- | awk '!seen[$0]++'
}
# test_mounts: mounts at or under $TMPROOT, deepest first (/proc/self/mountinfo's fifth field)
test_mounts() {
	local -a m=()
	local a b c d mp rest
	while read -r a b c d mp rest; do
		if [ "$mp" = "$TMPROOT" ] || [ "${mp#"$TMPROOT"/}" != "$mp" ]; then m+=("$mp"); fi
	done </proc/self/mountinfo
	[ ${#m[@]} -eq 0 ] || printf '%s\n' "${m[@]}" | sort -r
}
# test_loops: loop devices over files under $TMPROOT
test_loops() {
	local f b
	for f in /sys/block/loop*/loop/backing_file; do
		read -r b 2>/dev/null <"$f" || continue
		[ "${b#"$TMPROOT"/}" != "$b" ] || continue
		f=${f#/sys/block/}
		echo "/dev/${f%%/*}"
	done
}
describe() { # PID: its command line, short
	local c
	c=$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)
	echo "${c:0:120}"
}
now_ns() { local t=${EPOCHREALTIME/[.,]/}; echo $((t * 1000)); }
# teardown: remove what the test left, saying what in TEARDOWN (a line each); 1 when it left anything
teardown() {
	local end procs cgs mnts loops p why c m l
	TEARDOWN=''
	# what goes away by itself within 5 s is not a leftover: a killed daemon exiting, iowhy's
	# guard removing its cgroup, a loop device's detach deferred while udev holds it
	end=$(( $(now_ns) + 5000000000 ))
	while :; do
		procs=$(test_procs) cgs=$(test_cgroups) mnts=$(test_mounts) loops=$(test_loops)
		[ -z "$procs$cgs$mnts$loops" ] && return 0
		[ "$(now_ns)" -lt "$end" ] || break
		sleep 0.2
	done
	while read -r p why; do
		[ -n "$p" ] || continue
		TEARDOWN+="process $p left running ($why): $(describe "$p")"$'\n'
		kill -KILL "$p" 2>/dev/null
	done <<<"$procs"
	while read -r c; do
		[ -n "$c" ] || continue
		TEARDOWN+="cgroup $c left"$'\n'
		[ -e "$c/cgroup.kill" ] && echo 1 2>/dev/null >"$c/cgroup.kill"
		for p in $(cat "$c/cgroup.procs" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	done <<<"$cgs"
	# the killed must be gone before their mounts and cgroups can go (5 s at most)
	end=$(( $(now_ns) + 5000000000 ))
	while [ -n "$procs$cgs" ] && [ -n "$(test_procs)" ] && [ "$(now_ns)" -lt "$end" ]; do sleep 0.2; done
	while read -r m; do
		[ -n "$m" ] || continue
		TEARDOWN+="mount $m left"$'\n'
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done <<<"$mnts"
	while read -r l; do
		[ -n "$l" ] || continue
		TEARDOWN+="loop device $l left ($(losetup -n -O BACK-FILE "$l" 2>/dev/null))"$'\n'
		losetup -d "$l" 2>/dev/null
	done <<<"$loops"
	while read -r c; do
		[ -n "$c" ] || continue
		end=$(( $(now_ns) + 5000000000 ))
		until rmdir "$c" 2>/dev/null || [ ! -d "$c" ] || [ "$(now_ns)" -ge "$end" ]; do sleep 0.2; done
	done <<<"$cgs"
	procs=$(test_procs) cgs=$(test_cgroups) mnts=$(test_mounts) loops=$(test_loops)
	[ -z "$procs$cgs$mnts$loops" ] ||
		TEARDOWN+="could not remove all of it: $(echo $procs $cgs $mnts $loops)"$'\n'
	return 1
}

# lines FILE: its number of lines (0 when it is not there)
lines() {
	local -a l=()
	[ ! -r "$1" ] || mapfile -t l <"$1"
	echo "${#l[@]}"
}
# run_one TEST: run it, tear it down, print its verdict, count it
run_one() {
	local t=$1 name mode where rc secs tdown np nf nparts why parts start cpu k v
	# a bare name means tests/integration/NAME.sh; a test that is not there fails, never passes
	case $t in */*) ;; *) t=tests/integration/${t%.sh}.sh ;; esac
	name=$(basename "$t" .sh)
	if [ ! -f "$t" ]; then
		echo "== $name: FAIL (no such test: $t)"
		failn=$((failn+1)); failed_names+=("$name")
		return
	fi
	mode=shared
	test_files "$t" # (here, not only in drops_cache's subshell: what the files reference is kept)
	where=$(drops_cache "$t")
	if [ -n "$where" ]; then
		if ! has_marker "$t"; then
			echo "== $name: FAIL (it drops the page cache, which every test on the machine sees, without the line"
			echo "   '$MARKER' in its opening comments: $where)"
			failn=$((failn+1)); failed_names+=("$name")
			return
		fi
		mode=exclusive
	fi
	has_exclusive "$t" && mode=exclusive
	echo "== $name"
	if [ "$mode" = shared ] && is_io_test "$t"; then mode=io; fi
	if ! lock_test "${mode/io/shared}"; then
		echo "== $name: FAIL (an exclusive test could not get the machine to itself)"
		failn=$((failn+1)); failed_names+=("$name")
		return
	fi
	[ "$mode" != io ] || lock_io
	TMPROOT=$(mktemp -d /tmp/iowhy-test.XXXXXX)
	HARNESS_DIR=$(mktemp -d /tmp/iowhy-harness.XXXXXX)
	printf '%s\n' "TMPROOT=$TMPROOT" >"$RUNDIR/env.pat"
	printf '%s\n' "$TMPROOT" >"$RUNDIR/root.pat"
	rm -f "$RUNDIR/sid" "$RUNDIR/tpid"
	TESTCG=''
	if [ -n "$CGBASE" ] && mkdir "$CGBASE/iowhy-run-$BASHPID-$n" 2>/dev/null; then TESTCG=$CGBASE/iowhy-run-$BASHPID-$n; fi
	T0=$EPOCHSECONDS
	start=${EPOCHREALTIME/[.,]/}
	# An I/O test gets the I/O lock's open file (a dup: the same lock) as IOWHY_IO_LOCK_FD, and
	# lib.sh's io_done lets it go when the test's I/O is over (its checks, a browser, run beside
	# the next I/O test); with lanes, it also removes the lane's iotaken mark (IOWHY_IO_TAKEN).
	local iolk='' iotk=''
	if [ "$mode" = io ] && [ "$IOLOCKING" = 1 ]; then
		exec {iolk}<&"$iofd"
		[ -z "${lane:-}" ] || iotk=$TOPDIR/iotaken.$lane
	fi
	# a session of its own (setsid), its cgroup, then the limit; TMPROOT and HARNESS_DIR are in the
	# test's environment only (run.sh's own helpers must not carry them), the lock's fds are not
	# (but the I/O lock's dup above)
	TMPROOT=$TMPROOT HARNESS_DIR=$HARNESS_DIR IOWHY_IO_LOCK_FD=$iolk IOWHY_IO_TAKEN=$iotk setsid -w bash -c '
		echo $$ >"$1/sid"
		[ -z "$2" ] || echo $$ 2>/dev/null >"$2/cgroup.procs" || true
		shift 2
		exec "$@"' _ "$RUNDIR" "$TESTCG" \
		timeout --signal=TERM --kill-after=10 "$LIMIT" \
		bash -c 'echo $$ >"$1"; shift; source tests/integration/lib.sh || exit 1; source "$1"; finish' _ "$RUNDIR/tpid" "$t" \
		{lfd}<&- {tfd}<&- {iofd}<&-
	rc=$?
	[ -z "$iolk" ] || exec {iolk}<&-
	secs=${EPOCHREALTIME/[.,]/}
	secs=$(( (secs - start + 50000) / 100000 ))
	secs=$((secs / 10)).$((secs % 10))
	SID='' TPID=''
	read -r SID 2>/dev/null <"$RUNDIR/sid"
	read -r TPID 2>/dev/null <"$RUNDIR/tpid"
	# the CPU its cgroup used (what a test costs a loaded machine: the suite is about one CPU's
	# work, so beside spinners its time is about its CPU)
	cpu=''
	if [ -n "$TESTCG" ] && [ -r "$TESTCG/cpu.stat" ]; then
		while read -r k v; do
			[ "$k" = usage_usec ] || continue
			v=$(( (v + 50000) / 100000 ))
			cpu=", $((v / 10)).$((v % 10)) s CPU"
		done <"$TESTCG/cpu.stat"
	fi
	teardown; tdown=$?
	unlock_test
	# (a process of the test that exited and is not yet reaped still holds its cgroup: 5 s at most)
	if [ -n "$TESTCG" ]; then
		for _ in {1..25}; do
			rmdir "$TESTCG" 2>/dev/null || [ ! -d "$TESTCG" ] && break
			sleep 0.2
		done
	fi
	# (a mount that could not be removed keeps the directory: rm would reach into it)
	[ -n "$(test_mounts)" ] || rm -rf "$TMPROOT"
	SID='' TPID='' TESTCG=''
	# The verdict is the harness's, from the checks the test recorded, whatever it exited with:
	# it passes only with at least one check made and none failed.
	np=$(lines "$HARNESS_DIR/pass") nf=$(lines "$HARNESS_DIR/fail") nparts=$(lines "$HARNESS_DIR/parts")
	rm -rf "$HARNESS_DIR"
	why=
	case $rc in
	0|77) [ "$nf" = 0 ] || why="$nf failed check(s)" ;;
	124) why="timed out after ${LIMIT} s" ;;
	*) why="exit $rc" ;;
	esac
	[ -n "$why" ] || [ "$rc" = 77 ] || [ "$np" != 0 ] || why="no check made"
	parts=
	if [ "$nparts" != 0 ]; then
		parts=", $nparts part(s) skipped"
		partn=$((partn+nparts)); part_names+=("$name")
	fi
	if [ -n "$why" ]; then
		failn=$((failn+1)); failed_names+=("$name"); echo "== $name: FAIL ($why, $np passed, ${secs} s)"
	elif [ "$rc" = 77 ]; then
		skipn=$((skipn+1)); echo "== $name: SKIP (${secs} s)"
	else
		pass=$((pass+1)); echo "== $name: PASS ($np checks$parts, ${secs} s$cpu)"
	fi
	# what it left fails the run as "teardown" (named), apart from the test's own verdict
	if [ "$tdown" != 0 ]; then
		printf '%s' "$TEARDOWN" | sed "s/^/   teardown: /"
		failn=$((failn+1)); failed_names+=("teardown($name)")
	fi
}
# ---- lanes ----

# JOBS lanes take the tests from one queue, the exclusive tests last (the next test goes to the
# first lane free); a lane prints each test's output whole when it ends. A lane free while an I/O
# test holds the I/O lock (or another lane has just taken one) takes the first test left that is
# not an I/O test, and an I/O test only when nothing else is left: it would only wait for the
# lock (the I/O tests are three quarters of the suite's time and run one at a time; the others
# fill the other lane). An exclusive test waits for the other lanes' running tests to end and
# holds the next ones back (the lock above). One lane: the tests in order, their output as it
# comes.
JOBS=${IOWHY_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $JOBS in ''|*[!0-9]*|0) JOBS=1 ;; esac
[ "$JOBS" -le 2 ] || JOBS=2
[ "$JOBS" -le ${#tests[@]} ] || JOBS=${#tests[@]}
[ "$JOBS" -ge 1 ] || JOBS=1
n=0
if [ "$JOBS" = 1 ]; then
	for t in "${tests[@]}"; do
		n=$((n + 1))
		run_one "$t"
	done
else
	# isio[i]: test i takes the I/O lock (as run_one decides: not exclusive, an I/O test; a test
	# that drops the page cache is exclusive by its marker, or fails)
	# order: the exclusive tests last (each waits for the other lane's test to end: together, that
	# happens once; and what runs beside the whole run holding the shared lock, make test's ASan
	# build, has ended by then), the others before them, each in the order given
	isio=() isex=() order=() last=()
	for ((i = 0; i < ${#tests[@]}; i++)); do
		t=${tests[$i]}
		case $t in */*) ;; *) t=tests/integration/${t%.sh}.sh ;; esac
		isio[i]=0 isex[i]=0
		if [ -f "$t" ] && has_exclusive "$t"; then isex[i]=1; last+=("$i"); continue; fi
		order+=("$i")
		if [ "$IOLOCKING" = 1 ] && [ -f "$t" ] && is_io_test "$t"; then isio[i]=1; fi
	done
	order+=("${last[@]}")
	# pick_next: under the queue's lock, the index of the next test for this lane (appended to
	# "taken"), or nothing when none is left. The I/O lock is busy when a lane has taken an I/O
	# test that has not ended (its file iotaken.LANE: it may not hold the lock yet) or another
	# run holds it.
	pick_next() {
		local i first='' busy=0
		local -A taken=()
		while read -r i; do taken[$i]=1; done <"$TOPDIR/taken"
		if compgen -G "$TOPDIR/iotaken.*" >/dev/null || ! { flock -n -x "$iofd" && flock -u "$iofd"; }; then
			busy=1
		fi
		for i in "${order[@]}"; do
			[ -z "${taken[$i]:-}" ] || continue
			[ -n "$first" ] || first=$i
			# an exclusive test only when no other is left (not in the place of an I/O test
			# waiting for the lock: it would wait for the other lane too, and hold it back)
			[ "${isex[$i]}" = 1 ] && break
			[ "$busy" = 1 ] && [ "${isio[$i]}" = 1 ] && continue
			first=$i
			break
		done
		[ -n "$first" ] || return 0
		echo "$first" >>"$TOPDIR/taken"
		[ "${isio[$first]}" = 0 ] || : >"$TOPDIR/iotaken.$lane"
		echo "$first"
	}
	: >"$TOPDIR/queue.lock"
	: >"$TOPDIR/taken"
	: >"$TOPDIR/print.lock"
	for ((lane = 1; lane <= JOBS; lane++)); do
		(
			trap - INT TERM EXIT
			RUNDIR=$TOPDIR/lane.$lane
			mkdir "$RUNDIR" || exit 1
			# its own opening of the lock files: a lock belongs to an open file, which the lanes
			# must not share
			if [ "$LOCKING" = 1 ]; then exec {lfd}<"$LOCK" {tfd}<"$TURN"; fi
			if [ "$IOLOCKING" = 1 ]; then exec {iofd}<"$IOLOCK"; fi
			exec {qfd}<"$TOPDIR/queue.lock"
			while :; do
				flock -x "$qfd"
				k=$(pick_next)
				flock -u "$qfd"
				[ -n "$k" ] || break
				t=${tests[$k]}
				n=$((k + 1))
				run_one "$t" >"$RUNDIR/out" 2>&1
				rm -f "$TOPDIR/iotaken.$lane"
				flock -x "$TOPDIR/print.lock" cat "$RUNDIR/out"
			done
			{
				echo "$pass $failn $skipn $partn"
				echo "${failed_names[*]}"
				echo "${part_names[*]}"
			} >"$RUNDIR/counts"
		) &
		LANE_PIDS+=($!)
	done
	wait "${LANE_PIDS[@]}"
	LANE_PIDS=()
	for ((lane = 1; lane <= JOBS; lane++)); do
		c=$TOPDIR/lane.$lane/counts
		if [ ! -r "$c" ]; then
			failn=$((failn+1)); failed_names+=("lane$lane")
			echo "== lane $lane ended without its counts"
			continue
		fi
		{
			read -r a b d e
			read -r -a fnames
			read -r -a pnames
		} <"$c"
		pass=$((pass + a)) failn=$((failn + b)) skipn=$((skipn + d)) partn=$((partn + e))
		failed_names+=("${fnames[@]}") part_names+=("${pnames[@]}")
	done
fi
[ ${#part_names[@]} -eq 0 ] || echo "parts skipped: $partn in ${part_names[*]}"
[ ${#failed_names[@]} -eq 0 ] || echo "failed: ${failed_names[*]}"
echo "integration: $pass passed, $failn failed, $skipn skipped"
[ "$failn" = 0 ]
