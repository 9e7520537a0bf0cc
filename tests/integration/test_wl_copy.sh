# copy: byte-identical to the source (cmp) in every mode; delete: nothing of its own left, nothing else touched.
#
# witness: diff -r of the source the test made against each run's copy; tolerance: identical;
#   observed: not recorded
# witness: the command line's counts (41 files: one cp each with --jobs 1, >= 40 copy_file_range
#   in process, 200 unlink in process); tolerance: exact; observed: not recorded
# witness: the test's ls and cat of the delete directory (only its sentinel left, untouched);
#   tolerance: exact; observed: not recorded
# witness: NOT independent: copy's and delete's own facts (identical, files, left); tolerance:
#   exact; observed: not recorded
need_root
$IOWHY copy --help >/dev/null 2>&1 || skip "iowhy copy is not wired into main.c"
src=$TMPROOT/src dst=$TMPROOT/dst j=$TMPROOT/c.json
mkdir -p "$src/a/b"
for k in $(seq 1 30); do head -c $((k * 997)) /dev/urandom >"$src/f$k"; done
for k in $(seq 1 10); do head -c 65536 /dev/urandom >"$src/a/b/g$k"; done
: >"$src/empty"
$IOWHY copy --no-io --from "$src" --to "$dst" --jobs 1,4 --mode process,inproc --json "$j" >"$TMPROOT/out" \
	|| fail "copy exited $?"
for r in 1 2 3 4; do
	check "run $r: cmp-identical to the source (diff -r)" diff -r "$src" "$dst/run$r"
done
check "every run: 41 files, 41 identical" test "$(jqr "$j" '[.phases[] | .facts.identical == 41 and .facts.files == 41] | all')" = true
check "process jobs=1: one cp per file" test "$(jqr "$j" '[.phases[0].comms[] | select(.comm == "cp") | .execs] | add')" = 41
check "inproc: copy_file_range, no exec" test "$(sys_count "$j" 2 copy_file_range)" -ge 40

d=$TMPROOT/del
mkdir -p "$d"
echo keep >"$d/sentinel"
$IOWHY delete --no-io --files 200 --size 4k --tree 1 --jobs 1,4 --mode process,inproc --dir "$d" --json "$j" \
	>"$TMPROOT/out" || fail "delete exited $?"
check "delete: nothing left in any run" test "$(jqr "$j" '[.phases[].facts.left] | add')" = 0
check "inproc delete: exactly 200 unlink calls" test "$(sys_count "$j" 2 unlink)" = 200
check "delete: only the sentinel remains, untouched" test "$(ls -A "$d")/$(cat "$d/sentinel")" = "sentinel/keep"
