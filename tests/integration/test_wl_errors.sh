# Bad combinations of the storage workloads: one line on stderr, exit 2.
#
# witness: behaviour: each bad combination of the storage workloads: exit 2, one line on stderr
#   starting "iowhy "; tolerance: exact; observed: not recorded
$IOWHY read --help >/dev/null 2>&1 || skip "the storage workloads are not wired into main.c"
bad() {
	local desc=$1; shift
	"$IOWHY" "$@" >/dev/null 2>"$TMPROOT/err"
	local rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$TMPROOT/err")" = 1 ] && grep -q "^iowhy " "$TMPROOT/err"; then
		pass "$desc: exit 2, '$(cat "$TMPROOT/err")'"
	else
		fail "$desc: exit $rc, stderr: $(cat "$TMPROOT/err")"
	fi
}
bad "--direct with bs 1000" read --size 1M --direct --bs 1000
bad "--direct rand with bs 4100" rand --size 1M --direct --bs 4100
bad "--jobs 0" copy --jobs 0
bad "delete --jobs 0" delete --files 10 --jobs 0
bad "FILE that does not exist" read /nonexistent/file
bad "rand FILE that does not exist" rand /nonexistent/file
bad "--ops with --time" rand --size 1M --ops 10 --time 1s
bad "rand --op write on a user's file" rand /etc/hostname --op write
bad "md5 with threads" read --size 1M --hash md5 --threads 2
bad "bigfile without --size" bigfile --bs 1k
bad "bigfile bad size" bigfile --size 12Q
bad "bigfile unknown method" bigfile --size 1M --method cp
bad "tar --readers 0" tar --readers 0
bad "copy --mode threads" copy --mode threads
bad "too many phases" bigfile --size 1M --bs 1k,2k,4k,8k,16k --repeat 7
bad "unknown option" fsbench --fast
