# Command-line errors end in exit 2 with one line on stderr and nothing run: a repeated --mode, a
# malformed --time, unknown, misplaced and malformed options, a --version with a value.
#
# witness: behaviour: exit 2, one line on stderr starting "iowhy", nothing on stdout, no iowhy-*
#   file made, for each bad command line; the hint names the command's --help; tolerance: exact;
#   observed: not recorded
cd "$TMPROOT" || exit 1
refused() {
	local desc=$1; shift
	"$IOWHY" "$@" >out 2>err; local rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q "^iowhy" err && [ ! -s out ] &&
		[ -z "$(find . -maxdepth 1 -name 'iowhy-*')" ]; then
		pass "$desc: exit 2, '$(cat err)'"
	else
		fail "$desc: exit $rc, stdout $(wc -c <out) bytes, stderr: $(cat err)"
	fi
}
refused "copy --mode process,inproc,process" copy --mode process,inproc,process --dir "$TMPROOT"
refused "rand --time 10q" rand --size 1M --time 10q --dir "$TMPROOT"
refused "rand --time 0s" rand --size 1M --time 0s --dir "$TMPROOT"
refused "an unknown option" gen --strategy direct --size 1k --count 1 --frobnicate
refused "an option of another command" delete --from /etc
refused "an option before the command" --json r.json gen
refused "a flag given a value" run --no-io=1 -- true
refused "--version given a value" run --version=2
refused "a missing value" gen --strategy direct --size 1k --count
refused "--repeat 0" run --repeat 0 -- true
refused "a short option that does not exist" run -x -- true
"$IOWHY" run -x -- true 2>err >/dev/null
check "the line hints at --help" grep -q "(see iowhy run --help)" err
