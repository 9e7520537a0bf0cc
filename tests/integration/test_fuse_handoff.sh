# A FUSE daemon that hands each WRITE to a worker thread (tests/fuse_handoff.c: the worker sleeps
# 20 ms and writes the reply): the reply comes from a thread that did not read the request, so
# no WRITE is charged per request; each is detected as handed off and its daemon time (the
# worker's sleeps) is charged by overlap, and the report says which method charged how much.
# The requests the reading thread answers itself (LOOKUP, CREATE, FLUSH ...) stay per request.
#
# witness: the set-up: dd's 32 records of 128 KiB, fuse_handoff's worker thread that sleeps 20 ms
#   and replies to each WRITE; tolerance: 32 WRITE requests (exact), none per request, >= 32
#   handed off, overlap >= 32 x 20 ms (a lower bound); observed: not recorded
# witness: none independent (iowhy against itself): per request + handed off = answered, the
#   JSON's and the text's method lines; tolerance: exact; observed: not recorded
need_root
source tests/integration/lib_fuse.sh
fuse_handoff_build
BIN=$TMPROOT/fuse_handoff
J=$TMPROOT/r.json
N=32
mkdir -p "$TMPROOT/mnt"
FUSE_SLOW_MS=20 "$BIN" "$TMPROOT/mnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { fail "fuse_handoff mounted"; finish; }
"$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=128k count=$N \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
c=".phases[0].fuse.daemons[] | select(.pid == $DPID) | .charge"
wreq=$(fuse_row "$J" requests WRITE)
wpaired=$(fuse_row "$J" daemon_per_request WRITE)
handoff=$(jqr "$J" "$c.handed_off")
paired=$(jqr "$J" "$c.per_request")
answered=$(jqr "$J" "$c.requests")
overlap=$(jqr "$J" "$c.overlap_ns")
echo "  WRITE: $wreq requests, $wpaired charged per request; daemon: $paired of $answered per" \
	"request, $handoff handed off, by overlap $overlap ns"
check "one WRITE request per 128 KiB dd record ($N)" test "$wreq" = "$N"
check "no WRITE is charged per request (another thread replied)" test "$wpaired" = 0
check "every WRITE is detected as handed off" fcmp "${handoff:-0} >= $N"
check "the requests answered by their reader are charged per request" \
	fcmp "${paired:-0} > 0 && ${paired:-0} + ${handoff:-0} == ${answered:-0}"
check "the worker's sleeps are charged by overlap (>= $N x 20 ms)" \
	fcmp "${overlap:-0} >= $N * 20000000"
check "the JSON says both methods were used" \
	test "$(jqr "$J" '.phases[0].fuse.charge')" = "per_request+overlap"
check "the text says which method charged how much" grep -Eq \
	"charged per request: $paired of $answered requests, .*; by overlap: .* \\($handoff replies written by a thread that did not read" \
	"$TMPROOT/out.txt"
check "the text marks WRITE as charged by overlap" \
	grep -Eq "^    WRITE +by overlap only \\(0 of $N requests" "$TMPROOT/out.txt"
check "the sentence charges the daemon by overlap" \
	grep -q "by overlap, fuse_handoff spent that time .*other wait" "$TMPROOT/out.txt"
