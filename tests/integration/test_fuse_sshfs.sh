# sshfs over an sshd on 127.0.0.1 (a throwaway host key, user key and config in $TMPROOT, on a port
# this sshd is seen listening on; started and stopped here): `iowhy copy --from SRC --to DST
# --jobs 1,4` on it, of a tree the test wrote itself on the server side (200 files of 64 KiB of
# random bytes in $TMPROOT/remote/src, the directory sshd serves), shows network wait in the
# daemon's block, and the copy's bytes are charged end to end: the bytes of the copies as the
# test finds them on the server (each phase's DST/runN, byte for byte the source's: diff -r) =
# the workload's syscalls' bytes = FUSE WRITE bytes; the source's = FUSE READ bytes; and the
# daemon's socket bytes at least those.
#
# witness: the test's own tree (200 x 65,536 B it wrote) and the copies on the server's side (the
#   sizes of the files under remote/dst/runN, diff -r against remote/src), against the syscalls'
#   write bytes, FUSE WRITE and READ bytes of each phase; tolerance: 1%; observed: exact
#   (13,107,200 B each, both phases) (was: against copy's own facts, a figure iowhy wrote)
# witness: none independent (iowhy against itself): the daemon's socket bytes >= its FUSE bytes,
#   network wait in its block, more network wait than other wait per request; observed: not
#   recorded
# witness: behaviour: sshfs alive and mounted after the run, the copies identical (diff -r);
#   tolerance: exact; observed: not recorded
need_root
command -v sshfs >/dev/null || skip "sshfs not installed (tests/install-deps.sh)"
[ -x /usr/sbin/sshd ] || skip "openssh-server not installed (tests/install-deps.sh)"
source tests/integration/lib_fuse.sh
J=$TMPROOT/r.json
K=$TMPROOT/ssh
mkdir -p "$K" && chmod 700 "$K"
mkdir -p "$TMPROOT/remote" "$TMPROOT/mnt"
ssh-keygen -q -t ed25519 -N '' -f "$K/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$K/id" ||
	{ fail "ssh keys made"; finish; }
cp "$K/id.pub" "$K/authorized_keys"
# sshd on a port it bound itself: kept once ss shows its pid listening there (lib_local_servers.sh)
sshd_local_start "$K"; rc=$?
[ -z "$SSHD_PID" ] || on_exit "kill $SSHD_PID 2>/dev/null; wait $SSHD_PID 2>/dev/null"
if [ "$rc" = 0 ]; then
	pass "sshd listens on 127.0.0.1:$SSHD_PORT ($LISTEN_WHY)"
else
	fail "sshd listens on 127.0.0.1: $LISTEN_WHY"; finish
fi
PORT=$SSHD_PORT
# noforget: stable inode numbers (cp refuses a source whose inode changed while copying)
sshfs -f -o "IdentityFile=$K/id,StrictHostKeyChecking=no,UserKnownHostsFile=/dev/null" \
	-o "port=$PORT,BatchMode=yes,ConnectTimeout=10,noforget" \
	"root@127.0.0.1:$TMPROOT/remote" "$TMPROOT/mnt" 2>"$K/sshfs.log" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { cat "$K/sshd.log" "$K/sshfs.log"; fail "sshfs mounted"; finish; }
# the source, written by the test on the server's side (not through sshfs: nothing of it cached)
mkdir -p "$TMPROOT/remote/src"
for k in $(seq 200); do head -c 65536 /dev/urandom >"$TMPROOT/remote/src/f$k" || break; done
src_bytes=$(find "$TMPROOT/remote/src" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }')
check "the test wrote its source tree: 200 files, 13107200 B ($(find "$TMPROOT/remote/src" -type f | wc -l) files, $src_bytes B)" \
	test "$src_bytes" = 13107200
"$IOWHY" copy -v --from "$TMPROOT/mnt/src" --to "$TMPROOT/mnt/dst" --jobs 1,4 --dir "$TMPROOT/mnt" \
	--json "$J" >"$TMPROOT/out.txt" 2>&1
check "iowhy copy exits 0" test $? = 0
check "sshfs stayed mounted and alive" bash -c "kill -0 $DPID && findmnt -rn -o FSTYPE \
	--mountpoint '$TMPROOT/mnt' | grep -q '^fuse.sshfs'" || cat "$K/sshd.log" "$K/sshfs.log"
for i in 0 1; do
	name=$(jqr "$J" ".phases[$i].name")
	# the copies as the server holds them: phase i made DST/run(i+1)
	d=$TMPROOT/remote/dst/run$((i + 1))
	bytes=$(find "$d" -type f -printf '%s\n' 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }')
	check "$name: the copies on the server are the source's files, byte for byte (diff -r)" \
		diff -rq "$TMPROOT/remote/src" "$d"
	sysw=$(jqr "$J" "[.phases[$i].syscalls[] | select(.name == \"write\" or .name == \"pwrite64\"
		or .name == \"copy_file_range\" or .name == \"sendfile\" or .name == \"splice\") |
		.bytes] | add // 0")
	fw=$(jqr "$J" "[.phases[$i].fuse.requests[] | select(.opcode == \"WRITE\" and
		.for == \"workload\") | .bytes] | add // 0")
	fr=$(jqr "$J" "[.phases[$i].fuse.requests[] | select(.opcode == \"READ\" and
		.for == \"workload\") | .bytes] | add // 0")
	tx=$(jqr "$J" "[.phases[$i].fuse.daemons[] | select(.pid == $DPID) | .net_tx_bytes] | add // 0")
	rx=$(jqr "$J" "[.phases[$i].fuse.daemons[] | select(.pid == $DPID) | .net_rx_bytes] | add // 0")
	net=$(jqr "$J" "[.phases[$i].fuse.daemons[] | select(.pid == $DPID) |
		.while_waited_ns.network_wait] | add // 0")
	echo "  $name: copies on the server $bytes B (source $src_bytes B); syscalls wrote $sysw B;" \
		"FUSE WRITE $fw B, READ $fr B; sshfs (pid $DPID) sent $tx B, received $rx B on sockets," \
		"network wait $net ns"
	check "$name: the workload's syscalls wrote the copies' bytes (within 1%)" within "$sysw" "${bytes:-0}" 1
	check "$name: FUSE WRITE bytes = the copies' bytes (within 1%)" within "$fw" "${bytes:-0}" 1
	check "$name: FUSE READ bytes = the source's bytes (within 1%)" within "$fr" "$src_bytes" 1
	check "$name: the daemon sent them on its socket" fcmp "$tx >= $fw && $fw > 0"
	check "$name: the daemon received the read data from its socket" fcmp "$rx >= $fr && $fr > 0"
	check "$name: network wait in the daemon's block" fcmp "$net > 0"
done
check "the text report shows network wait for sshfs" grep -q "pid $DPID (sshfs) serving" \
	"$TMPROOT/out.txt"
# per request: sshfs's FUSE threads send each request to ssh and wait for its reader thread; that
# wait is charged as what the process did meanwhile: network wait, not other wait
n='[.phases[].fuse.requests[] | select(.for == "workload") | .daemon_ns.network_wait] | add'
o='[.phases[].fuse.requests[] | select(.for == "workload") | .daemon_ns.other_wait] | add'
p='[.phases[].fuse.requests[] | select(.for == "workload") | .daemon_per_request] | add'
echo "  per request: $(jqr "$J" "$p") requests, network wait $(jqr "$J" "$n") ns, other wait" \
	"$(jqr "$J" "$o") ns"
check "the copy's requests are charged per request" fcmp "$(jqr "$J" "$p") > 0"
check "... with more network wait than other wait" fcmp "$(jqr "$J" "$n") > $(jqr "$J" "$o")"
