# User frames resolve by build id after the processes are gone, through the files the tree exec'd:
# a program outside $PATH, started by a shell by absolute path and by a path relative to the
# directory iowhy runs in, still shows its own functions (calib is built with a symbol table);
# libc's functions resolve too.
# (--freq 999: which functions show depends on a few hundred samples; the default 99 Hz gives ~50)
#
# witness: behaviour: the program the test copied outside $PATH (mycalib, with a symbol table) is
#   named by its own functions (main or spin), by absolute and relative exec path, and libc's
#   syscall() calls getppid; tolerance: exact; observed: not recorded
# witness: none independent (iowhy against itself): >= 2 exec'd files found again, <= 20% of the
#   user frames unresolved; observed: not recorded
need_root
mkdir -p "$TMPROOT/bin"
cp "$CALIB" "$TMPROOT/bin/mycalib"
j=$TMPROOT/r.json
$IOWHY run --no-io --freq 999 --json "$j" -- sh -c "'$TMPROOT/bin/mycalib' spin 300; '$TMPROOT/bin/mycalib' getppid 100000" \
	>/dev/null 2>&1 || fail "iowhy run exited $?"
cs=".phases[0].cpu_samples"
top=$(jqr "$j" "[$cs.by_class.user_code.top_user[].name] | join(\" \")")
check "mycalib's own code is named among the user-code functions ($top)" grep -qwE 'main|spin' <<<"$top"
found=$(jqr "$j" "$cs.frames.exec_files_found")
check "the exec'd files were found again ($found: sh and mycalib)" fcmp "$found >= 2"
sys=$(jqr "$j" "[$cs.by_syscall[] | select(.name == \"getppid\") | .top_user[].name] | join(\" \")")
check "libc's syscall() is where getppid is called from ($sys)" grep -qw 'syscall' <<<"$sys"
u=$(jqr "$j" "$cs.frames.user")
uu=$(jqr "$j" "$cs.frames.user_unresolved")
check "most user frames resolve ($uu of $u unresolved)" fcmp "$uu <= 0.2 * $u"
# a relative path, from iowhy's own directory
j2=$TMPROOT/r2.json
(cd "$TMPROOT" && $IOWHY run --no-io --freq 999 --json "$j2" -- sh -c './bin/mycalib spin 200') >/dev/null 2>&1 ||
	fail "iowhy run (relative) exited $?"
top2=$(jqr "$j2" "[$cs.by_class.user_code.top_user[].name] | join(\" \")")
check "a relative exec path resolves too ($top2)" grep -qwE 'main|spin' <<<"$top2"
