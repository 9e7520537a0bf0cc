# iowhy run leaves the command's stdout and stderr alone: the report goes to stderr or to -o FILE;
# --json - is refused for run (it would mix into the command's stdout). Report files are opened
# safely: never through a symbolic link, never into a FIFO, device or /proc, refused before
# anything runs.
#
# witness: behaviour: the command's stdout and stderr unchanged (cmp against the test's own
#   printf), the report on stderr, in -o FILE or on gen's stdout, --json - JSON on stdout;
#   tolerance: exact; observed: not recorded
# witness: behaviour: refused outputs (run --json -, symlinks, a FIFO, a device, /proc, a hard
#   link): exit 2, one line, the command not run, the targets untouched; tolerance: exact;
#   observed: not recorded
need_root
cd "$TMPROOT" || exit 1

"$IOWHY" run --no-io -- printf 'DATA\n' >out 2>err; rc=$?
check "run -- printf exits 0 (got $rc)" test "$rc" = 0
check "stdout holds exactly DATA\\n" cmp -s out <(printf 'DATA\n')
check "the report went to stderr" grep -q "wall view" err

"$IOWHY" run --no-io -- sh -c 'echo OUT; echo ERR >&2' >out 2>err
check "the command's stderr line is there, unchanged" grep -qx "ERR" err
check "stdout is only the command's" test "$(cat out)" = OUT

"$IOWHY" run --no-io -o r.txt -- true >out 2>err; rc=$?
check "run -o r.txt exits 0 (got $rc)" test "$rc" = 0
check "r.txt holds the report" grep -q "wall view" r.txt
check "nothing on stdout" test ! -s out
check "nothing on stderr" test ! -s err

"$IOWHY" gen --no-io --strategy direct --size 1k --count 3 --dir "$TMPROOT" >gen.out 2>gen.err
check "a built-in workload prints its report on stdout" grep -q "wall view" gen.out
"$IOWHY" gen --no-io --strategy direct --size 1k --count 3 --dir "$TMPROOT" --json - >gen.json 2>gen.err
jq_true() { jq -e "$1" "$2" >/dev/null; }
check "gen --json -: stdout is the JSON" jq_true '.phases | length == 1' gen.json
check "gen --json -: the text went to stderr" grep -q "wall view" gen.err
"$IOWHY" gen --no-io --strategy direct --size 1k --count 3 --dir "$TMPROOT" -o g.txt >gen.out 2>gen.err
check "gen -o g.txt: the report is in g.txt" grep -q "wall view" g.txt
check "gen -o g.txt: nothing on stdout" test ! -s gen.out

# refused: exit 2, one line, before anything runs
refused() {
	local desc=$1; shift
	rm -f ran
	"$IOWHY" "$@" >out 2>err; local rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <err)" = 1 ] && [ ! -e ran ] && [ ! -s out ]; then
		pass "$desc: exit 2, '$(cat err)'"
	else
		fail "$desc: exit $rc, ran=$([ -e ran ] && echo yes || echo no), stderr: $(cat err)"
	fi
}
refused "run --json - (would mix into the command's stdout)" run --no-io --json - -- touch ran
refused "run --json -- true (a missing value)" run --no-io --json -- touch ran
check "and no file named '--' was written" test ! -e ./--
refused "run --dir /nonexistent" run --no-io --dir /nonexistent -- touch ran

echo precious >target
ln -s target link
refused "-o through a symlink" run --no-io -o link -- touch ran
refused "--json through a symlink" run --no-io --json link -- touch ran
check "the link's target is untouched" test "$(cat target)" = precious
ln -s "$TMPROOT/nothere" dangling
refused "--json at a dangling symlink" run --no-io --json dangling -- touch ran
check "the dangling link's target was not created" test ! -e nothere
mkfifo fifo
refused "-o into a FIFO" run --no-io -o fifo -- touch ran
refused "--json into a FIFO" gen --no-io --strategy direct --size 1k --count 1 --dir "$TMPROOT" --json fifo
refused "-o to a device" run --no-io -o /dev/null -- touch ran
refused "-o into /proc" run --no-io -o /proc/sys/vm/drop_caches -- touch ran
ln target hardlink
refused "-o to a file with another hard link" run --no-io -o hardlink -- touch ran
check "the hard-linked file is untouched" test "$(cat target)" = precious
refused "tar --archive at a dangling symlink" tar --no-io --archive dangling --members 2
check "tar did not create the link's target" test ! -e nothere
