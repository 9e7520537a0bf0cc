# A FUSE daemon that sleeps 20 ms before answering each WRITE (tests/fuse_slow.c): dd's wall is
# (>= 90%) waiting on FUSE WRITE, the per-request p50 is 20-40 ms, and the daemon's block shows
# the sleeps as other wait while the workload waited.
need_root
source tests/integration/lib_fuse.sh
SLOW=${OUT:-build}/fuse_slow
[ -x "$SLOW" ] || make -s "$SLOW" >/dev/null 2>&1 || skip "cannot build $SLOW (libfuse3-dev)"
J=$TMPROOT/r.json
N=64
mkdir -p "$TMPROOT/mnt"
FUSE_SLOW_MS=20 "$SLOW" -f "$TMPROOT/mnt" &
DPID=$!
on_exit "fuse_teardown $TMPROOT/mnt $DPID"
fuse_mount_wait "$TMPROOT/mnt" "$DPID" || { fail "fuse_slow mounted"; finish; }
"$IOWHY" run -v --json "$J" -- dd if=/dev/zero of="$TMPROOT/mnt/f" bs=128k count=$N \
	>"$TMPROOT/out.txt" 2>&1
check "iowhy run exits 0" test $? = 0
check_phase_invariants "$J" 0
wall=$(jqr "$J" '.phases[0].wall_ns')
wait=$(fuse_row "$J" wait_ns WRITE)
wreq=$(fuse_row "$J" requests WRITE)
p50=$(fuse_row "$J" p50_ns WRITE)
other=$(fuse_daemon "$J" "$DPID" while_waited_ns.other_wait)
echo "  wall $wall ns; waiting on FUSE WRITE $wait ns in $wreq requests; p50 $p50 ns;" \
	"daemon other wait while waited on $other ns"
check "one WRITE request per 128 KiB dd record ($N)" test "$wreq" = "$N"
check "at least 90% of dd's wall is waiting on FUSE WRITE" fcmp "$wait >= 0.9 * $wall"
check "the wait is no more than the wall" fcmp "$wait <= $wall"
check "per-request p50 between 20 and 40 ms" fcmp "$p50 >= 20000000 && $p50 <= 40000000"
check "the daemon is identified by its pid" test -n "$other"
# the daemon's own imposed sleep, N x 20 ms, shows as its other wait while dd waited
check "the daemon's sleeps are its other wait (>= $N x 20 ms)" fcmp "${other:-0} >= $N * 20000000"
check "... and no more than the daemon threads' time in the window" \
	fcmp "${other:-0} <= $(fuse_daemon "$J" "$DPID" window_ns.other_wait)"
check "the text report names the wait" grep -q "waiting on FUSE ($TMPROOT/mnt, WRITE)" \
	"$TMPROOT/out.txt"
# the wall view: a sub-row of other wait (or I/O wait) naming the mount and WRITE, >= 90% of the
# wall; the JSON has the same part
row=$(awk -v m="    waiting on FUSE ($TMPROOT/mnt, WRITE) " '
	/^  [a-zA-Z]/ { under = $0 ~ /^  (other wait|I\/O wait) / }
	under && index($0, m) == 1 { print $NF; exit }' "$TMPROOT/out.txt")
echo "  wall view sub-row: waiting on FUSE ($TMPROOT/mnt, WRITE) ${row:-none}"
check "the wall view has a waiting-on-FUSE WRITE sub-row under a wait row" test -n "$row"
check "... of at least 90% of the wall ($row)" fcmp "${row%\%} >= 90"
jw=$(jqr "$J" '[.phases[0].wall_fuse_waits[] | select(.opcode == "WRITE") | .ns] | add // 0')
check "JSON wall_fuse_waits: WRITE >= 90% of the wall ($jw of $wall ns)" fcmp "$jw >= 0.9 * $wall"
check "... and its parts no more than their buckets" test "$(jqr "$J" '.phases[0] |
	([.wall_fuse_waits[] | select(.in == "other") | .ns] | add // 0) <= .wall.other_ns and
	([.wall_fuse_waits[] | select(.in == "iowait") | .ns] | add // 0) <= .wall.iowait_ns')" = true
