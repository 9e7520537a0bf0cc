# sshfs over an sshd on 127.0.0.1 (a throwaway host key, user key and config in $TMPROOT, on a port
# this sshd is seen listening on; started and stopped here): `iowhy copy --files 200 --size 64k --jobs 1,4` on it shows
# network wait in the daemon's block, and the copy's bytes are charged end to end: the workload's
# own count = its syscalls' bytes = FUSE WRITE (and READ) bytes <= the daemon's socket bytes.
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
"$IOWHY" copy -v --files 200 --size 64k --jobs 1,4 --dir "$TMPROOT/mnt" --json "$J" \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy copy exits 0" test $? = 0
check "sshfs stayed mounted and alive" bash -c "kill -0 $DPID && findmnt -rn -o FSTYPE \
	--mountpoint '$TMPROOT/mnt' | grep -q '^fuse.sshfs'" || cat "$K/sshd.log" "$K/sshfs.log"
for i in 0 1; do
	name=$(jqr "$J" ".phases[$i].name")
	bytes=$(jqr "$J" ".phases[$i].facts.bytes")
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
	echo "  $name: copied $bytes B; syscalls wrote $sysw B; FUSE WRITE $fw B, READ $fr B;" \
		"sshfs (pid $DPID) sent $tx B, received $rx B on sockets, network wait $net ns"
	check "$name: the workload's syscalls wrote its bytes (within 1%)" within "$sysw" "$bytes" 1
	check "$name: FUSE WRITE bytes = the copy's bytes (within 1%)" within "$fw" "$bytes" 1
	check "$name: FUSE READ bytes = the copy's bytes (within 1%)" within "$fr" "$bytes" 1
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
