# A hung FUSE daemon (tests/fuse_slow.c sleeping 10 minutes per WRITE): Ctrl-C cannot kill dd (a
# task waiting on a request its daemon has read waits it out), so iowhy says so, naming the mount,
# the opcode and the connection's abort file. Aborting the connection there ends dd with the
# request's error, and iowhy's report is complete, the aborted WRITE counted; nothing stays mounted.
#
# witness: behaviour: dd stuck in request_wait_answer (its /proc wchan, read by the test); after
#   SIGINT iowhy's line names the mount, WRITE, the abort file of the mount's connection (from
#   the test's own stat of the mount) and the daemon's pid; tolerance: exact;
#   observed: not recorded
# witness: behaviour: after the test aborts the connection: iowhy ends, exit 130, a complete JSON,
#   >= 1 WRITE error, nothing mounted (findmnt); tolerance: exact; observed: not recorded
need_root
source tests/integration/lib_fuse.sh
SLOW=${OUT:-build}/fuse_slow
[ -x "$SLOW" ] || make -s "$SLOW" >/dev/null 2>&1 || skip "cannot build $SLOW (libfuse3-dev)"
J=$TMPROOT/r.json
mkdir -p "$TMPROOT/mnt"
FUSE_SLOW_MS=600000 "$SLOW" -f "$TMPROOT/mnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { fail "fuse_slow mounted"; finish; }
"$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=128k count=4 \
	>"$TMPROOT/out.txt" 2>"$TMPROOT/err.txt" &
IPID=$!
on_exit "kill -9 $IPID 2>/dev/null"
# dd (this test's: its file's name) is stuck once it sleeps in request_wait_answer (the daemon
# holds the WRITE)
stuck=
for _ in $(seq 100); do
	for p in $(pgrep -x -f "dd if=/dev/zero of=$TMPROOT/mnt/f bs=128k count=4"); do
		[ "$(cat /proc/$p/wchan 2>/dev/null)" = request_wait_answer ] && stuck=$p
	done
	[ -n "$stuck" ] && break
	sleep 0.1
done
check "dd waits on the daemon" test -n "$stuck"
kill -INT "$IPID"
hint=
for _ in $(seq 150); do
	hint=$(grep -m1 "waits on FUSE ($TMPROOT/mnt, WRITE)" "$TMPROOT/err.txt") && break
	sleep 0.1
done
echo "  ${hint:-no hint}"
check "iowhy names the stuck request and the way out" test -n "$hint"
abort=$(echo "$hint" | sed -n 's|.*echo 1 > \(/sys/fs/fuse/connections/[0-9]*/abort\).*|\1|p')
check "the abort file is the mount's connection" \
	test "$abort" = "/sys/fs/fuse/connections/$(( $(stat -c %d "$TMPROOT/mnt") & 0xfffff ))/abort"
check "the daemon is named" grep -q "or end its daemon (pid $DPID)" "$TMPROOT/err.txt"
# do what it says (fusectl mounted just for this, if it was not)
if ! mountpoint -q /sys/fs/fuse/connections; then
	mount -t fusectl none /sys/fs/fuse/connections && on_exit "umount /sys/fs/fuse/connections"
fi
[ -n "$abort" ] && echo 1 >"$abort"
for _ in $(seq 150); do kill -0 "$IPID" 2>/dev/null || break; sleep 0.1; done
check "iowhy finished once the connection was aborted" bash -c "! kill -0 $IPID 2>/dev/null"
kill -0 "$IPID" 2>/dev/null && { kill -9 "$DPID"; sleep 1; } # never hang the test
timeout 20 tail --pid="$IPID" -f /dev/null
wait "$IPID"
check "iowhy exits 130 (interrupted)" test $? = 130
check "the JSON report is complete" jq -e '.phases[0].wall_ns > 0 and .phases[0].fuse != null' "$J"
check "the aborted WRITE is counted as an error" fcmp "$(fuse_row "$J" errors WRITE) >= 1"
fuse_teardown "$TMPROOT/mnt" "$DPID"
check "nothing left mounted" bash -c "! findmnt -rn '$TMPROOT/mnt' >/dev/null"
