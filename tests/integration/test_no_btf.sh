# A kernel without BTF: iowhy says so in one line and exits 1, before loading anything. Simulated in a
# private mount namespace where an empty tmpfs hides /sys/kernel/btf (nothing outside it changes, and
# it ends with the command).
#
# witness: behaviour: /sys/kernel/btf hidden in a private mount namespace: exit 1, one line naming
#   the missing BTF, nothing on stdout, BTF still there outside; tolerance: exact; observed: not
#   recorded
need_root
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
[ -e /sys/kernel/btf/vmlinux ] || skip "this kernel has no BTF to hide"
unshare -m --propagation private sh -c 'mount -t tmpfs none /sys/kernel/btf && exec "$@"' _ \
	$IOWHY run -- true >"$TMPROOT/out" 2>"$TMPROOT/err"; rc=$?
check "exit 1 without BTF (got $rc)" test "$rc" = 1
check "one line on stderr: $(head -c 200 "$TMPROOT/err")" test "$(wc -l <"$TMPROOT/err")" = 1
check "it names the missing BTF" grep -q "no kernel BTF at /sys/kernel/btf/vmlinux" "$TMPROOT/err"
check "nothing on stdout" test ! -s "$TMPROOT/out"
check "BTF is still there outside the namespace" test -e /sys/kernel/btf/vmlinux
