# gen loop: one writer process per file, each exec'd and exiting once.
# The files are gone when iowhy ends (it removes its scratch area), so the test's witness of what
# gen did is strace -f of the same run (-ff -y: each process's calls, with the file behind each
# descriptor): the writers' execs, files and exits, the phase's processes (by their clones), and
# iowhy's own removal of the scratch area at the end, which unlinks whatever is left on disk then.
#
# witness: the command line's count (300 writers, each exec'd and exiting once); tolerance: exact;
#   observed: exact (5 runs, 2 beside two CPU spinners)
# witness: strace of the same run: the writer's execve (300, each returning 0), the exits of those
#   processes (300, status 0), the files the phase created in loop/ and the bytes written to each
#   (300 of 10,240 bytes), and the files the scratch area's removal found at the end (300);
#   tolerance: exact; observed: exact (5 runs, 2 beside spinners)
# witness: strace of the same run: the phase's execve, openat and write calls (and write bytes)
#   over its processes, against iowhy's syscall table; tolerance: exact; observed: exact (5 runs,
#   2 beside spinners)
# consistency only (NOT independent: gen's own census, .facts.files and files_wrong_size): 300 and
#   0; tolerance: exact
# witness: behaviour: the scratch area removed (the test's ls); tolerance: exact; observed: not
#   recorded
# check_phase_invariants (lib.sh: buckets, residual, probes, shares). A built-in workload: iowhy
#   runs the phase itself, so no calib witness can stand between; the traced CPU is checked against
#   a witness elsewhere (test_calib_sleep, test_sample_freq, test_switch_log, and the
#   command-workload tests that pass one).
need_root
command -v strace >/dev/null || skip "strace not installed (tests/install-deps.sh installs it)"
# st_table DIR: the calls in strace -ff -y's files DIR/s.PID, one a line: "PID NAME ARG RET": ARG
# the file (a descriptor's path, openat's result, unlinkat's directory/name, execve's path), RET
# the return value; clone, clone3, fork and vfork as "PID clone - CHILD", an exit as
# "PID exit - STATUS"
st_table() {
	awk '
	function angle(s) { return match(s, /<[^>]*>/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
	function quoted(s) { return match(s, /"[^"]*"/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
	FNR == 1 { pid = FILENAME; sub(/.*\./, "", pid) }
	/^\+\+\+ exited with / { print pid, "exit", "-", $4; next }
	/^[a-z_0-9]+\(/ {
		name = $0; sub(/\(.*/, "", name)
		ret = $0
		if (!sub(/.*\) += /, "", ret)) next
		r = ret; sub(/[ <].*/, "", r)
		args = substr($0, length(name) + 2)
		a = "-"
		if (name ~ /^(clone|clone3|fork|vfork)$/) name = "clone"
		else if (name == "openat") a = (r >= 0) ? angle(ret) : quoted(args)
		else if (name == "unlinkat") { d = angle(args); a = quoted(args); if (a !~ /^\// && d != "") a = d "/" a }
		else if (name == "execve") a = quoted(args)
		else if (args ~ /^[0-9]+</) a = angle(args)
		print pid, name, (a == "" ? "-" : a), r
	}' "$1"/s.*
}
# st_phase TABLE PID: the processes of the phase PID ran in: the subtree of its ancestor that is a
# child of the first process (iowhy runs each phase in a child of its own)
st_phase() {
	awk -v p="$2" '$2 == "clone" { par[$4] = $1; kids[$1] = kids[$1] " " $4 }
	END {
		while ((p in par) && (par[p] in par)) p = par[p]
		n = 1; q[1] = p
		for (i = 1; i <= n; i++) { print q[i]; k = split(kids[q[i]], c, " "); for (j = 1; j <= k; j++) q[++n] = c[j] }
	}' "$1" | paste -sd' ' -
}
# st_calls TABLE "PIDS" NAME [ARG_REGEX]: "CALLS RETURNED" of NAME by those processes (on a file
# matching), RETURNED the sum of the positive returns (bytes, for write)
st_calls() {
	awk -v pids="$2" -v n="$3" -v re="${4:-.}" '
	BEGIN { k = split(pids, a, " "); for (i = 1; i <= k; i++) in_[a[i]] = 1 }
	($1 in in_) && $2 == n && $3 ~ re { c++; if ($4 > 0) s += $4 } END { printf "%d %.0f\n", c, s }' "$1"
}

j=$TMPROOT/r.json
mkdir "$TMPROOT/st"
strace -f -ff -q --seccomp-bpf -y -s0 -e trace=execve,openat,write,unlinkat,clone,clone3,fork,vfork \
	-o "$TMPROOT/st/s" \
	"$IOWHY" gen --no-io --strategy loop --count 300 --size 10k --dir "$TMPROOT" --json "$j" >"$TMPROOT/out" \
	|| fail "gen exited $?"
C=$TMPROOT/calls
st_table "$TMPROOT/st" >"$C"
w=$(command -v dd >/dev/null && echo dd || echo iowhy-writer)
wre=$(command -v dd >/dev/null && echo '/dd$' || echo '^/proc/self/exe$')
ex=$(comm_field "$j" 0 "$w" execs); ez=$(comm_field "$j" 0 "$w" exits)
check "exactly 300 execs of $w (got $ex)" test "$ex" = 300
check "exactly 300 exits of $w (got $ez)" test "$ez" = 300

# strace: the writers, their files and their exits
main=$(awk '$2 == "clone" { kid[$4] = 1; par[$1] = 1 } END { for (p in par) if (!(p in kid)) print p }' "$C")
first=$(awk '$2 == "openat" && $3 ~ /\/loop\/file-0000000$/ { print $1; exit }' "$C")
pids=$(st_phase "$C" "${first:-0}")
read -r sx _ <<<"$(st_calls "$C" "$pids" execve "$wre")"
wr=$(awk -v re="$wre" '$2 == "execve" && $3 ~ re && $4 == 0 { x[$1] = 1 } $2 == "exit" { e[$1] = $4 }
	END { for (p in x) if (p in e) { n++; if (e[p] == 0) z++ } printf "%d/%d\n", n, z }' "$C")
check "strace: $sx successful execve of $w in the phase (300), their processes exited/with 0: $wr (300/300)" \
	test "$sx/$wr" = "300/300/300"
files=$(awk -v pids="$pids" 'BEGIN { k = split(pids, a, " "); for (i = 1; i <= k; i++) in_[a[i]] = 1 }
	($1 in in_) && $3 ~ /\/loop\/file-[0-9]+$/ && $2 == "openat" && $4 >= 0 { f[$3] += 0 }
	($1 in in_) && $3 ~ /\/loop\/file-[0-9]+$/ && $2 == "write" && $4 > 0 { f[$3] += $4 }
	END { for (x in f) { n++; if (f[x] == 10240) ok++ } printf "%d/%d\n", n, ok }' "$C")
check "strace: the phase created files in loop/ / of them written exactly 10,240 bytes: $files (300/300)" \
	test "$files" = 300/300
read -r left _ <<<"$(st_calls "$C" "$main" unlinkat '/loop/file-[0-9]+$')"
check "strace: the scratch area's removal found $left files in loop/ (300)" test "$left" = 300
for c in execve openat write; do
	read -r sn sb <<<"$(st_calls "$C" "$pids" $c)"
	in=$(jqr "$j" "[.phases[0].syscalls[] | select(.name == \"$c\") | .count] | add // 0")
	check "iowhy's $c calls $in = strace's over the phase's processes $sn" test "$in" = "$sn"
	if [ $c = write ]; then
		ib=$(jqr "$j" "[.phases[0].syscalls[] | select(.name == \"write\") | .bytes] | add // 0")
		check "iowhy's write bytes $ib = strace's $sb" test "$ib" = "$sb"
	fi
done
# consistency only: gen's own census (NOT independent: a figure iowhy wrote)
check "gen's own census: 300 files, none of the wrong size (consistency)" \
	test "$(jqr "$j" '.phases[0].facts.files')/$(jqr "$j" '.phases[0].facts.files_wrong_size')" = 300/0
check "the scratch area is gone" test -z "$(find "$TMPROOT" -mindepth 1 -maxdepth 1 -name 'iowhy-*')"
check_phase_invariants "$j" 0
