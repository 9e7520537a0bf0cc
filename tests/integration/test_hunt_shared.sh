# The shared-bottleneck verdict on real devices: btrfs raid0 over three loop devices whose backing
# files all live in one FUSE file system served by one thread that waits 5 ms per MiB read
# (tests/fuse_delay.c; a store of ~200 MiB/s): alone each member reads at the pace of that thread,
# together they split it. (Was 5 ms per read: a 1 MiB read of a member went to the store as one
# FUSE read or as two, as the block layer split it by its pages' segments, so a member alone read at
# 170 MiB/s or at 87, and a control run with one store each came out "shared", 2.1 of 3 members'
# worth.) hunt's verdict says shared, names the store they sit on, and its inputs hold the rule
# (together <= 0.7 x N members' worth). Control: the same rig with each member in its own FUSE
# file system (three threads): the members add up, and no shared verdict. Relations within a run
# only: the members' worth is a ratio of the same run's rates.
#
# witness: the rig the test built: three loop members whose files sit on one FUSE thread that
#   waits 5 ms per MiB read (shared), against one FUSE file system each (control); tolerance: the
#   run's members' worth <= 0.7 x N (shared) and > 0.7 x N (control), one shared verdict naming
#   the store, none in the control; observed: shared 1.0-1.03 of 3, control 2.89-2.91
# witness: the members' write counts in /sys/block/loopN/stat, read by the test before and after;
#   tolerance: unchanged (exact); observed: not recorded
need_root
source tests/integration/lib_dev.sh
source tests/integration/lib_btrfs.sh

# hunt_rig NAME: hunt the btrfs at $BT_MNT, JSON to $TMPROOT/NAME.json, text to $TMPROOT/NAME.out
hunt_rig() {
	local before after rc
	before=$(write_counts)
	$IOWHY hunt --time 0.3 --depths 1,4 --json "$TMPROOT/$1.json" "$BT_MNT" >"$TMPROOT/$1.out" \
		2>"$TMPROOT/$1.err"
	rc=$?
	after=$(write_counts)
	cat "$TMPROOT/$1.out"
	check "$1: hunt exits 0 (got $rc: $(head -c 300 "$TMPROOT/$1.err"))" [ "$rc" = 0 ]
	check "$1: no member was written to" [ "$before" = "$after" ]
}

make_fuse_delay 160 5000/MiB shared 3
set -- $FUSE_IMGS
BT_BACKING_FILE_0=$1 BT_BACKING_FILE_1=$2 BT_BACKING_FILE_2=$3 make_btrfs_loops 3 160
# the stack names a file system below the loops as FSTYPE:MOUNTPOINT (the mount point cut short)
store=fuse.fuse_delay:$TMPROOT/shared
hunt_rig shared
j=$TMPROOT/shared.json
worth=$(jqr "$j" '.scaling.members_worth')
n=$(jqr "$j" '.scaling.members')
echo "  shared store: together $worth of $n members' worth"
check "shared: the inputs hold the rule (together <= 0.7 x $n members' worth)" \
	fcmp "$worth <= 0.7 * $n"
check "shared: JSON: one shared verdict" \
	[ "$(jqr "$j" '[.verdicts[] | select(.kind == "shared")] | length')" = 1 ]
check "shared: it carries its inputs (members, members' worth)" \
	fcmp "$(jqr "$j" '.verdicts[] | select(.kind == "shared") | .inputs.members') == $n && $(jqr "$j" '.verdicts[] | select(.kind == "shared") | .inputs.members_worth') <= 0.7 * $n"
subject=$(jqr "$j" '[.verdicts[] | select(.kind == "shared") | .subject][0] // ""')
# (the subject is the store's name, and the text says they share it)
names_store() { [ -n "$1" ] && [ "${store#"$1"}" != "$store" ] && grep -qF "share $1" "$TMPROOT/shared.out"; }
check "shared: the verdict names the store they share ($subject)" names_store "$subject"
check "shared: no slow member (the three are alike)" \
	[ "$(jqr "$j" '[.verdicts[] | select(.kind == "slow-member")] | length')" = 0 ]
_run_exit # tear the first rig down (lib.sh's on_exit list) before the second

for k in 0 1 2; do
	make_fuse_delay 160 5000/MiB own$k 1
	declare "BT_BACKING_FILE_$k=$FUSE_IMG"
done
export BT_BACKING_FILE_0 BT_BACKING_FILE_1 BT_BACKING_FILE_2
make_btrfs_loops 3 160
hunt_rig control
j=$TMPROOT/control.json
worth=$(jqr "$j" '.scaling.members_worth')
n=$(jqr "$j" '.scaling.members')
echo "  one store each: together $worth of $n members' worth"
check "control: the members add up (together > 0.7 x $n members' worth)" fcmp "$worth > 0.7 * $n"
check "control: no shared verdict" \
	[ "$(jqr "$j" '[.verdicts[] | select(.kind == "shared")] | length')" = 0 ]
