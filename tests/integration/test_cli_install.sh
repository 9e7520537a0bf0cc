# make install with DESTDIR and PREFIX installs the binary, the man page iowhy(1) and the bash
# completion; make uninstall removes them. The man page is clean under `man --warnings`, and the
# completion offers exactly the options each command's --help lists.
#
# witness: behaviour: make install puts the binary, man page and completion under DESTDIR, the
#   installed -V runs, man --warnings prints nothing, the man page has its sections and every
#   option of every command's --help, make uninstall leaves no file; tolerance: exact;
#   observed: not recorded
# witness: each command's own --help option list, against the completion's offers;
#   tolerance: exact; observed: not recorded
command -v man >/dev/null || skip "man (man-db) is not installed"
dest=$TMPROOT/dest
make -s install DESTDIR="$dest" PREFIX=/usr >"$TMPROOT/make.out" 2>&1; rc=$?
check "make install DESTDIR=... PREFIX=/usr exits 0 (got $rc)" test "$rc" = 0
check "bin/iowhy installed, executable" test -x "$dest/usr/bin/iowhy"
check "share/man/man1/iowhy.1 installed" test -f "$dest/usr/share/man/man1/iowhy.1"
check "the bash completion installed" test -f "$dest/usr/share/bash-completion/completions/iowhy"
"$dest/usr/bin/iowhy" -V >"$TMPROOT/v.out" 2>&1; rc=$?
check "the installed iowhy runs (-V exits $rc)" test "$rc" = 0

man --warnings -l "$dest/usr/share/man/man1/iowhy.1" >"$TMPROOT/man.txt" 2>"$TMPROOT/man.err"
check "man --warnings -l iowhy.1: no warnings ($(head -c 300 "$TMPROOT/man.err"))" test ! -s "$TMPROOT/man.err"
for sec in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" ENVIRONMENT OVERHEAD EXAMPLES "SEE ALSO"; do
	check "the man page has $sec" grep -q "^$sec" "$TMPROOT/man.txt"
done
for v in IOWHY_PROBE_MODE IOWHY_SKIP_PROBES IOWHY_DEBUG; do
	check "ENVIRONMENT names $v" grep -q "$v" "$TMPROOT/man.txt"
done
# every option of every command is in the man page
for c in run attach gen bigfile read rand fsbench tar copy delete hunt compare; do
	for o in $($IOWHY "$c" --help | sed -nE '/^(Common o|O)ptions:/,$p' | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
		# in roff a hyphen is written \-
		grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$dest/usr/share/man/man1/iowhy.1" ||
			fail "man page lacks $c $o"
	done
done
check "man -M finds it as iowhy(1)" sh -c "LC_ALL=C man -M '$dest/usr/share/man' 1 iowhy 2>/dev/null | grep -q 'iowhy *- *where did the time go'"

# the completion: subcommands, and each command's options exactly as its --help lists them
if [ -f /usr/share/bash-completion/bash_completion ]; then
	comp() { # comp WORDS...: the completions of the last word
		bash -c 'source /usr/share/bash-completion/bash_completion
			source "$1"; shift
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_iowhy iowhy "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
			printf "%s\n" "${COMPREPLY[@]}"' _ "$dest/usr/share/bash-completion/completions/iowhy" "$@" |
			sort
	}
	check "iowhy ru<TAB> -> run" test "$(comp iowhy ru)" = run
	check "iowhy gen --str<TAB> -> --strategy" test "$(comp iowhy gen --str)" = --strategy
	check "iowhy gen --strategy <TAB> offers loop" sh -c "printf '%s\n' '$(comp iowhy gen --strategy '')' | grep -qx loop"
	for c in run attach gen bigfile read rand fsbench tar copy delete hunt compare; do
		want=$($IOWHY "$c" --help | sed -nE '/^(Common o|O)ptions:/,$p' | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' |
			grep -oE -- '--[a-z-]+' | sort | tr '\n' ' ')
		got=$(comp iowhy "$c" -- | tr '\n' ' ')
		check "completion of '$c --' is its --help's options" test "$got" = "$want"
	done
else
	fail "bash-completion is not installed: cannot check the completion"
fi

make -s uninstall DESTDIR="$dest" PREFIX=/usr >"$TMPROOT/make.out" 2>&1; rc=$?
check "make uninstall exits 0 (got $rc)" test "$rc" = 0
check "nothing is left installed ($(find "$dest" -type f | head -3))" test -z "$(find "$dest" -type f)"
