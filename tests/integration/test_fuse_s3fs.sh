# S3fs (Debian s3fs) on a local S3 server (the npm s3rver, bound to 127.0.0.1, started and stopped
# here): a 32 MiB dd shows its FUSE WRITE requests (dd's bytes within 1%), the daemon by the pid we
# started, the upload on its sockets (>= dd's bytes, and the object s3rver stored is dd's size),
# and the daemon's time while dd waited (process view) dominated by network wait: over half of its
# time off the run queue, and more than any class but the run queue (CPU contention, not s3fs).
need_root
command -v s3fs >/dev/null || skip "s3fs not installed (tests/install-deps.sh)"
command -v s3rver >/dev/null || skip "s3rver not installed: npm registry unreachable when tests/install-deps.sh ran"
source tests/integration/lib_fuse.sh
J=$TMPROOT/r.json
mkdir -p "$TMPROOT/s3" "$TMPROOT/mnt"
# s3rver binds a free port itself (port 0); its port is the one ss shows its pid listening on
s3rver_local_start "$TMPROOT/s3" iowhy "$TMPROOT/s3rver.log"; rc=$?
[ -z "$S3RVER_PID" ] || on_exit "kill $S3RVER_PID 2>/dev/null; wait $S3RVER_PID 2>/dev/null"
if [ "$rc" = 0 ]; then
	pass "s3rver listens on 127.0.0.1:$S3RVER_PORT ($LISTEN_WHY)"
else
	fail "s3rver listens on 127.0.0.1: $LISTEN_WHY"; finish
fi
PORT=$S3RVER_PORT
echo "S3RVER:S3RVER" >"$TMPROOT/passwd" # s3rver's fixed test credentials
chmod 600 "$TMPROOT/passwd"
s3fs iowhy "$TMPROOT/mnt" -f -o "url=http://127.0.0.1:$PORT,use_path_request_style" \
	-o "passwd_file=$TMPROOT/passwd,dbglevel=warn" 2>"$TMPROOT/s3fs.log" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { cat "$TMPROOT/s3fs.log"; fail "s3fs mounted"; finish; }
"$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=1M count=32 \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
ddbytes=$(sed -n 's/^\([0-9]*\) bytes.*copied.*/\1/p' "$TMPROOT/out.txt")
wbytes=$(fuse_row "$J" bytes WRITE)
stored=$(stat -c %s "$TMPROOT/s3/iowhy/f._S3rver_object" 2>/dev/null || echo 0)
tx=$(fuse_daemon "$J" "$DPID" net_tx_bytes)
d='.phases[0].fuse.daemons[] | select(.pid == '$DPID') | .process_while_waited_ns'
net=$(jqr "$J" "$d.network_wait")
own=$(jqr "$J" "$d | .cpu + .disk_wait + .network_wait + .other_wait")
echo "  s3fs while dd waited (process view): $(jqr "$J" "$d" -c)"
echo "  dd wrote $ddbytes B; FUSE WRITE $wbytes B; s3fs (pid $DPID) sent $tx B; s3rver stored" \
	"$stored B; while dd waited: network wait $net ns of $own ns off the run queue"
check "dd reported its byte count" test -n "$ddbytes"
check "FUSE WRITE bytes within 1% of dd's" within "$wbytes" "${ddbytes:-1}" 1
check "the object stored is dd's size" test "$stored" = "$ddbytes"
check "the daemon is identified by its pid" test -n "$tx"
check "the daemon sent the data on its sockets" fcmp "${tx:-0} >= ${ddbytes:-1}"
check "network wait dominates the daemon's time while dd waited (off the run queue)" \
	fcmp "${net:-0} > 0.5 * ${own:-0}"
check "network wait is the daemon's largest class but the run queue (a busy machine's)" \
	jq -e "$d | .network_wait >= ([.cpu, .disk_wait, .other_wait, .idle] | max)" "$J"
check "the text report has the daemon block" grep -q "pid $DPID (s3fs) serving" "$TMPROOT/out.txt"
# per request: the FUSE thread answering the longest wait (FLUSH: the upload) waits on s3fs's
# upload threads; that wait is charged as what the process did meanwhile: network wait first
r='[.phases[0].fuse.requests[] | select(.for == "workload" and .wait_ns > 0)] | max_by(.wait_ns)'
echo "  longest wait per request: $(jqr "$J" "$r | {opcode, requests, daemon_per_request, daemon_ns}" -c)"
check "the longest wait's requests are charged per request" \
	jq -e "$r | .daemon_per_request > 0" "$J"
check "... with network wait their largest class but the run queue (the uploads)" \
	jq -e "$r | .daemon_ns | .network_wait >= ([.cpu, .disk_wait, .other_wait, .idle] | max)" "$J"
