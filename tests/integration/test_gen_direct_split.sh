# gen direct: exactly N*SIZE bytes written by the tree; split: N files of SIZE, no big file.
# The files are gone when iowhy ends (it removes its scratch area), so the test's witness of what
# gen did on disk is strace -f of the same run (-ff -y: each process's calls, with the file behind
# each descriptor): every call the workload made that creates, writes or removes a file, the
# processes of each phase (by their clones), and iowhy's own removal of the scratch area at the end,
# which unlinks whatever is left on disk then.
#
# witness: the command line's N x SIZE (1000 x 1 KiB written by gen direct); tolerance: exact;
#   observed: exact (5 runs, 2 beside two CPU spinners)
# witness: strace of the same run: the files each phase's processes created (openat O_CREAT) and
#   the bytes written to each (direct/file-* and split/file-*: 1000 of 1,024 bytes each; split's
#   big.img 1,024,000 bytes, read back and unlinked in the phase), and the files iowhy's removal
#   of the scratch area found at the end (1000 + 1000, no big.img); tolerance: exact; observed:
#   exact (5 runs, 2 beside spinners)
# witness: strace of the same run: each phase's openat, write (calls and bytes) and unlink calls
#   over its processes, against iowhy's syscall table of the phase; tolerance: exact; observed:
#   exact (5 runs, 2 beside spinners)
# consistency only (NOT independent: gen's own census, .facts.files and files_wrong_size): 1000
#   and 0; tolerance: exact
# witness: behaviour: the side-by-side table printed; tolerance: exact; observed: not recorded
# check_phase_invariants on both phases (lib.sh: buckets, residual, probes, shares). A built-in
#   workload: iowhy runs the phases itself, so no calib witness can stand between; the traced CPU
#   is checked against a witness elsewhere (test_calib_sleep, test_sample_freq, test_switch_log,
#   and the command-workload tests that pass one).
need_root
command -v strace >/dev/null || skip "strace not installed (tests/install-deps.sh installs it)"
# st_table DIR: the calls in strace -ff -y's files DIR/s.PID, one a line: "PID NAME ARG RET": ARG
# the file (a descriptor's path, openat's result, unlinkat's directory/name, unlink's path), RET
# the return value; clone, clone3, fork and vfork as "PID clone - CHILD"
st_table() {
	awk '
	function angle(s) { return match(s, /<[^>]*>/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
	function quoted(s) { return match(s, /"[^"]*"/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
	FNR == 1 { pid = FILENAME; sub(/.*\./, "", pid) }
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
		else if (name == "unlink") a = quoted(args)
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
# st_files TABLE "PIDS" REGEX SIZE: "FILES RIGHT": the files matching REGEX those processes created
# (openat with O_CREAT, told by its result: the writes name them), and how many of them got
# exactly SIZE bytes in all
st_files() {
	awk -v pids="$2" -v re="$3" -v sz="$4" '
	BEGIN { k = split(pids, a, " "); for (i = 1; i <= k; i++) in_[a[i]] = 1 }
	($1 in in_) && $2 == "openat" && $3 ~ re && $4 >= 0 { f[$3] += 0 }
	($1 in in_) && $2 == "write" && $3 ~ re && $4 > 0 { f[$3] += $4 }
	END { for (x in f) { n++; if (f[x] == sz) ok++ } printf "%d %d\n", n, ok }' "$1"
}

j=$TMPROOT/r.json
mkdir "$TMPROOT/st"
strace -f -ff -q --seccomp-bpf -y -s0 -e trace=openat,write,unlink,unlinkat,clone,clone3,fork,vfork \
	-o "$TMPROOT/st/s" \
	"$IOWHY" gen --no-io --strategy direct,split --count 1000 --size 1k --dir "$TMPROOT" --json "$j" \
	>"$TMPROOT/out" || fail "gen exited $?"
st_table "$TMPROOT/st" >"$TMPROOT/calls"
b=$(jqr "$j" '[.phases[0].syscalls[] | select(.name == "write") | .bytes] | add')
check "direct: write bytes in the tree exactly 1,024,000 (got $b)" test "$b" = 1024000

main=$(awk '$2 == "clone" { kid[$4] = 1; par[$1] = 1 } END { for (p in par) if (!(p in kid)) print p }' "$TMPROOT/calls")
i=0
for s in direct split; do
	w=$(awk -v re="/$s/file-0000000\$" '$2 == "openat" && $3 ~ re { print $1; exit }' "$TMPROOT/calls")
	pids=$(st_phase "$TMPROOT/calls" "${w:-0}")
	echo "  $s: strace: the phase's processes $pids (iowhy's process $main)"
	read -r nf ok <<<"$(st_files "$TMPROOT/calls" "$pids" "/$s/file-[0-9]+\$" 1024)"
	check "$s: strace: the phase created $nf files in $s/, $ok of them written exactly 1,024 bytes (1000 and 1000)" \
		test "$nf $ok" = "1000 1000"
	for c in openat write unlink; do
		read -r sn sb <<<"$(st_calls "$TMPROOT/calls" "$pids" $c)"
		in=$(jqr "$j" "[.phases[$i].syscalls[] | select(.name == \"$c\") | .count] | add // 0")
		check "$s: iowhy's $c calls $in = strace's over the phase's processes $sn" test "$in" = "$sn"
		if [ $c = write ]; then
			ib=$(jqr "$j" "[.phases[$i].syscalls[] | select(.name == \"write\") | .bytes] | add // 0")
			check "$s: iowhy's write bytes $ib = strace's $sb" test "$ib" = "$sb"
		fi
	done
	# iowhy removes the scratch area when it is done: its unlinks are what was left on disk
	read -r left _ <<<"$(st_calls "$TMPROOT/calls" "$main" unlinkat "/$s/file-[0-9]+\$")"
	check "$s: strace: the scratch area's removal found $left files in $s/ (1000)" test "$left" = 1000
	i=$((i + 1))
done
w=$(awk '$2 == "openat" && $3 ~ /\/split\/big\.img$/ { print $1; exit }' "$TMPROOT/calls")
pids=$(st_phase "$TMPROOT/calls" "${w:-0}")
read -r bw bb <<<"$(st_calls "$TMPROOT/calls" "$pids" write '/split/big\.img$')"
read -r bu _ <<<"$(st_calls "$TMPROOT/calls" "$pids" unlink 'big\.img$')"
read -r bl _ <<<"$(st_calls "$TMPROOT/calls" "$main" unlinkat 'big\.img$')"
check "split: strace: big.img written with $bb bytes in $bw calls (1,024,000), unlinked $bu time(s) by the phase (1), none left at the end ($bl)" \
	test "$bb/$bu/$bl" = "1024000/1/0"
# consistency only: gen's own census of the files (NOT independent: a figure iowhy wrote)
check "direct: gen's own census: 1000 files (consistency)" test "$(jqr "$j" '.phases[0].facts.files')" = 1000
check "split: gen's own census: 1000 files, none of the wrong size (consistency)" \
	test "$(jqr "$j" '.phases[1].facts.files')/$(jqr "$j" '.phases[1].facts.files_wrong_size')" = 1000/0
check "side-by-side table printed" grep -q "direct" "$TMPROOT/out"
for i in 0 1; do check_phase_invariants "$j" $i; done
