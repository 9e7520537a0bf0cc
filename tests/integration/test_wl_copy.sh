# copy: byte-identical to the source (cmp) in every mode; delete: nothing of its own left, nothing else touched.
#
# witness: diff -r of the source the test made against each run's copy, and the test's own count
#   of the regular files in each (find: 41); tolerance: identical, exact; observed: identical, 41
#   (5 runs, 2 beside two CPU spinners)
# witness: the command line's counts (41 files: one cp each with --jobs 1, >= 40 copy_file_range
#   in process, 200 rm execs in each process run, 200 unlink in process); tolerance: exact;
#   observed: exact (5 runs, 2 beside spinners)
# witness: strace -f of the delete run (-ff -y: each process's calls with the file behind each
#   descriptor): the files iowhy made for each run (openat O_CREAT, 200 a run), each unlinked once
#   by the runs' processes, and iowhy's removal of its scratch area at the end unlinking nothing
#   but the scratch directory itself (nothing left in it); tolerance: exact; observed: exact (5
#   runs, 2 beside spinners)
# witness: the test's ls and cat of the delete directory (only its sentinel left, untouched);
#   tolerance: exact; observed: not recorded
# consistency only (NOT independent: copy's and delete's own facts, figures iowhy wrote):
#   identical 41, files 41, left 0; tolerance: exact
# No check_phase_invariants here (built-in workloads: no calib witness can stand between).
need_root
$IOWHY copy --help >/dev/null 2>&1 || skip "iowhy copy is not wired into main.c"
command -v strace >/dev/null || skip "strace not installed (tests/install-deps.sh installs it)"
src=$TMPROOT/src dst=$TMPROOT/dst j=$TMPROOT/c.json
mkdir -p "$src/a/b"
for k in $(seq 1 30); do head -c $((k * 997)) /dev/urandom >"$src/f$k"; done
for k in $(seq 1 10); do head -c 65536 /dev/urandom >"$src/a/b/g$k"; done
: >"$src/empty"
$IOWHY copy --no-io --from "$src" --to "$dst" --jobs 1,4 --mode process,inproc --json "$j" >"$TMPROOT/out" \
	|| fail "copy exited $?"
for r in 1 2 3 4; do
	check "run $r: cmp-identical to the source (diff -r)" diff -r "$src" "$dst/run$r"
	check "run $r: 41 regular files (find: $(find "$dst/run$r" -type f | wc -l))" \
		test "$(find "$dst/run$r" -type f | wc -l)" = 41
done
check "every run: copy's own count, 41 files, 41 identical (consistency)" \
	test "$(jqr "$j" '[.phases[] | .facts.identical == 41 and .facts.files == 41] | all')" = true
check "process jobs=1: one cp per file" test "$(jqr "$j" '[.phases[0].comms[] | select(.comm == "cp") | .execs] | add')" = 41
check "inproc: copy_file_range, no exec" test "$(sys_count "$j" 2 copy_file_range)" -ge 40

d=$TMPROOT/del S=$TMPROOT/st
mkdir -p "$d" "$S"
echo keep >"$d/sentinel"
# (an ASan build's LeakSanitizer cannot run under ptrace: leaks are checked in the runs above)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -ff -q --seccomp-bpf -y -s0 -e trace=openat,unlink,unlinkat -o "$S/s" \
	"$IOWHY" delete --no-io --files 200 --size 4k --tree 1 --jobs 1,4 --mode process,inproc --dir "$d" --json "$j" \
	>"$TMPROOT/out" || fail "delete exited $?"
# strace's calls on the scratch area's files, one a line: "PID CALL RUN/DIR/FILE RET" (the path
# below the scratch area: unlink's relative to it, the others absolute with strace -y)
grep -HE '^(openat|unlink|unlinkat)\(' "$S"/s.* | awk '
	function angle(s) { return match(s, /<[^>]*>/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
	function quoted(s) { return match(s, /"[^"]*"/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
	{
		pid = $0; sub(/:.*/, "", pid); sub(/.*\./, "", pid)
		line = $0; sub(/^[^:]*:/, "", line)
		name = line; sub(/\(.*/, "", name)
		ret = line; if (!sub(/.*\) += /, "", ret)) next
		r = ret; sub(/[ <].*/, "", r)
		args = substr(line, length(name) + 2)
		if (name == "openat") { if (args !~ /O_CREAT/ || r < 0) next; p = angle(ret) }
		else if (name == "unlinkat") { p = quoted(args); if (p !~ /^\//) p = angle(args) "/" p }
		else p = quoted(args)
		sub(/^.*\/iowhy-[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9]\//, "", p)
		print pid, name, p, r
	}' >"$TMPROOT/calls"
# iowhy's own process: the one that made the trees (untraced set-up) and removes the scratch area
main=$(awk '$2 == "openat" && $3 ~ /^del[0-9]+\// { print $1; exit }' "$TMPROOT/calls")
res=$(awk -v m="$main" '
	$2 == "openat" && $3 ~ /^del[0-9]+\/.*\/f[0-9]+$/ { made[$3] = 1; run[$3] = $3; sub(/\/.*/, "", run[$3]) }
	$2 ~ /^unlink/ && $4 == 0 && $1 != m { gone[$3]++ }
	$2 == "unlinkat" && $1 == m && $4 == 0 { last++ }
	END {
		for (f in made) { n[run[f]]++; if (gone[f] == 1) ok[run[f]]++ }
		for (r = 1; r <= 4; r++) printf "%d/%d ", n["del" r], ok["del" r]
		printf "%d\n", last
	}' "$TMPROOT/calls")
echo "  strace: made/unlinked once by the runs, per run, and the scratch area removal's unlinks: $res"
check "strace: each run's 200 files made and unlinked once by its processes: ${res% *} (200/200 x 4)" \
	test "${res% *}" = "200/200 200/200 200/200 200/200"
check "strace: the scratch area's removal unlinked only the scratch directory: ${res##* } call(s) (1)" \
	test "${res##* }" = 1
check "delete: delete's own count, nothing left in any run (consistency)" test "$(jqr "$j" '[.phases[].facts.left] | add')" = 0
for i in 0 1; do
	check "process run $i: one rm exec per file ($(sys_count "$j" $i execve) of 200)" test "$(sys_count "$j" $i execve)" = 200
done
check "inproc delete: exactly 200 unlink calls" test "$(sys_count "$j" 2 unlink)" = 200
check "delete: only the sentinel remains, untouched" test "$(ls -A "$d")/$(cat "$d/sentinel")" = "sentinel/keep"
