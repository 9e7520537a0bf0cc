# -V / --version, at the top level and after any subcommand: iowhy's version, libbpf's, the kernel,
# and whether BTF, tp_btf and task storage are available (probed by trying).
#
# witness: behaviour: -V/--version anywhere: exit 0, iowhy's and libbpf's versions, the kernel as
#   uname -r gives it (read by the test), three feature lines, nothing on stderr; tolerance: exact;
#   observed: not recorded
# witness: behaviour: the features as the test sets them up (root with BTF: yes and probe_mode
#   tp_btf; /sys/kernel/btf hidden: no; unprivileged: unknown, said so); tolerance: exact;
#   observed: not recorded
for args in "-V" "--version" "run -V" "run --version" "gen -V" "fsbench --version" "copy -V"; do
	# shellcheck disable=SC2086 # the arguments are meant to split
	$IOWHY $args >"$TMPROOT/out" 2>"$TMPROOT/err"; rc=$?
	check "iowhy $args exits 0 (got $rc)" test "$rc" = 0
	check "iowhy $args: first line 'iowhy VERSION'" grep -qE '^iowhy [0-9]+\.[0-9]+\.[0-9]+$' "$TMPROOT/out"
	check "iowhy $args: the libbpf version" grep -qE '^libbpf [0-9]+\.[0-9]+$' "$TMPROOT/out"
	check "iowhy $args: the kernel (uname -r)" grep -qF "kernel $(uname -r)" "$TMPROOT/out"
	check "iowhy $args: BTF, tp_btf and task storage lines" \
		test "$(grep -cE '^(BTF \(/sys/kernel/btf/vmlinux\)|tp_btf|task storage): ' "$TMPROOT/out")" = 3
	check "iowhy $args: nothing on stderr" test ! -s "$TMPROOT/err"
done
if [ "$(id -u)" = 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	# this kernel has them all (docs: tp_btf and task storage are what iowhy uses first)
	check "as root here: BTF yes" grep -qx 'BTF (/sys/kernel/btf/vmlinux): yes' "$TMPROOT/out"
	check "as root here: tp_btf yes" grep -qx 'tp_btf: yes' "$TMPROOT/out"
	check "as root here: task storage yes" grep -qx 'task storage: yes' "$TMPROOT/out"
	# and the probe agrees with what the tracer then uses
	j=$TMPROOT/r.json
	$IOWHY run --no-io --json "$j" -- true 2>/dev/null
	check "the session's probe mode is tp_btf too" test "$(jqr "$j" .probe_mode)" = tp_btf
fi
# Features are probed, not assumed: with /sys/kernel/btf hidden (a private mount namespace, as in
# test_no_btf), BTF and tp_btf are reported missing.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && [ -e /sys/kernel/btf/vmlinux ]; then
	unshare -m --propagation private sh -c 'mount -t tmpfs none /sys/kernel/btf && exec "$@"' _ \
		$IOWHY -V >"$TMPROOT/out" 2>"$TMPROOT/err"; rc=$?
	check "-V without BTF exits 0 (got $rc)" test "$rc" = 0
	check "without BTF: BTF no" grep -qx 'BTF (/sys/kernel/btf/vmlinux): no' "$TMPROOT/out"
	check "without BTF: tp_btf no" grep -qx 'tp_btf: no' "$TMPROOT/out"
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all $IOWHY -V >"$TMPROOT/out" 2>&1; rc=$?
	check "-V unprivileged exits 0 (got $rc)" test "$rc" = 0
	check "unprivileged: tp_btf cannot be probed, and it says so" grep -q '^tp_btf: unknown (probing needs root' "$TMPROOT/out"
fi
