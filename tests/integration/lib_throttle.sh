# blk-throttle for the I/O tests (sourced after lib.sh), always torn down.
#
#   throttle_bps DEV read|write BPS
#       a cgroup whose I/O on block device DEV is held to BPS bytes a second, read or write:
#       - cgroup v2 io.max ("MAJ:MIN rbps=BPS" / "MAJ:MIN wbps=BPS") where the v2 hierarchy has
#         the io controller (its cgroup.controllers lists "io"; it is enabled in the root's
#         cgroup.subtree_control if it is not yet, and left so: other cgroups may use it by then);
#       - else cgroup v1 blkio.throttle.read_bps_device / write_bps_device;
#       - else the test is skipped, saying which of the two is missing.
#       Exports THROTTLE_API (v2 or v1), THROTTLE_CG (its directory), THROTTLE_ROOT (the
#       hierarchy's root) and THROTTLE_FILE (the file the limit went to). Teardown registered:
#       processes still inside go back to the root, then the cgroup is removed.
#   throttle_exec CMD...
#       CMD with its process in the throttled cgroup (it moves itself in, then execs)
#   throttle_run_cmd CMD...
#       CMD that starts a traced workload (iowhy run ...) whose workload joins the throttle with
#       "$THROTTLE_JOIN" (a shell command for the workload's sh -c, before its exec):
#       - v1: CMD as is; THROTTLE_JOIN moves the workload's shell into the blkio cgroup (a v1
#         hierarchy of its own: the workload stays in iowhy's cgroup v2 session cgroup);
#       - v2: CMD in the throttled cgroup, and THROTTLE_JOIN does nothing: iowhy makes its session
#         cgroup under its own, so the workload runs under the limit (io.max holds for the
#         subtree) and stays in the session's cgroup, which a move would take it out of.
#   throttle_verdicts DESC
#       0 when iowhy can see this throttle (v1: src/collect/blkthrottle.c reads blkio.throttle.*);
#       under v2, 1 after naming DESC as a skipped part (iowhy does not read io.max)
#   throttle_wait_io DEV [SECS]
#       wait (20 s unless SECS) until the throttled cgroup has I/O on DEV counted (v1
#       blkio.throttle.io_service_bytes, v2 io.stat): its processes' requests go through the
#       limit. 1 when none came.

# _throttle_majmin DEV: MAJ:MIN of a block device
_throttle_majmin() { cat "/sys/class/block/$(basename "$1")/dev" 2>/dev/null; }

# _throttle_v2_root: the cgroup v2 mount whose controllers include io, or nothing
_throttle_v2_root() {
	local r
	for r in $(findmnt -rn -t cgroup2 -o TARGET 2>/dev/null); do
		[ -r "$r/cgroup.controllers" ] || continue
		tr ' ' '\n' <"$r/cgroup.controllers" | grep -qx io && { echo "$r"; return 0; }
	done
	return 1
}

# _throttle_v1_root: the cgroup v1 blkio mount, or nothing
_throttle_v1_root() {
	local r
	r=$(findmnt -rn -t cgroup -o TARGET,OPTIONS 2>/dev/null |
		awk '{ n = split($2, o, ","); for (i = 1; i <= n; i++) if (o[i] == "blkio") { print $1; exit } }')
	[ -n "$r" ] || r=/sys/fs/cgroup/blkio
	[ -e "$r/blkio.throttle.write_bps_device" ] && echo "$r"
}

throttle_bps() {
	local dev=$1 dir=$2 bps=$3 majmin root key
	case $dir in
	read) key=rbps ;;
	write) key=wbps ;;
	*) fail "throttle_bps: '$dir' is neither read nor write"; finish ;;
	esac
	majmin=$(_throttle_majmin "$dev") || skip "no such block device $dev"
	if root=$(_throttle_v2_root); then
		THROTTLE_API=v2
		if ! tr ' ' '\n' <"$root/cgroup.subtree_control" | grep -qx io; then
			echo +io >"$root/cgroup.subtree_control" ||
				skip "cannot enable the io controller in $root/cgroup.subtree_control"
		fi
		THROTTLE_FILE=io.max
	elif root=$(_throttle_v1_root); then
		THROTTLE_API=v1
		THROTTLE_FILE=blkio.throttle.${dir}_bps_device
	else
		root=$(findmnt -rn -t cgroup2 -o TARGET 2>/dev/null | head -n 1)
		skip "no blk-throttle here: ${root:-no cgroup v2 mount}${root:+ (cgroup v2) has no io controller}, and no cgroup v1 blkio hierarchy has blkio.throttle files"
	fi
	THROTTLE_ROOT=$root
	THROTTLE_CG=$root/iowhy-throttle.$$
	mkdir "$THROTTLE_CG" || skip "cannot create $THROTTLE_CG"
	# (run in reverse order:) processes still inside go back to the root, then rmdir; under v2 a
	# session cgroup of iowhy's inside may take a moment to go (its guard removes it): retry
	on_exit "for t in \$(seq 50); do rmdir '$THROTTLE_CG' 2>/dev/null && break; [ -d '$THROTTLE_CG' ] || break; sleep 0.1; done"
	on_exit "for p in \$(cat '$THROTTLE_CG/cgroup.procs'); do echo \$p > '$root/cgroup.procs'; done"
	if [ "$THROTTLE_API" = v2 ]; then
		echo "$majmin $key=$bps" >"$THROTTLE_CG/io.max" || skip "cannot write '$majmin $key=$bps' to $THROTTLE_CG/io.max"
		THROTTLE_JOIN=:
	else
		echo "$majmin $bps" >"$THROTTLE_CG/$THROTTLE_FILE" || skip "cannot write '$majmin $bps' to $THROTTLE_CG/$THROTTLE_FILE"
		# shellcheck disable=SC2089 # a command string for the workload's sh -c
		THROTTLE_JOIN="echo \$\$ > '$THROTTLE_CG/cgroup.procs'"
	fi
	# shellcheck disable=SC2090 # (above)
	export THROTTLE_API THROTTLE_CG THROTTLE_ROOT THROTTLE_FILE THROTTLE_JOIN
}

throttle_exec() {
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' _ "$THROTTLE_CG" "$@"
}

throttle_run_cmd() {
	if [ "$THROTTLE_API" = v2 ]; then throttle_exec "$@"; else "$@"; fi
}

throttle_verdicts() {
	[ "$THROTTLE_API" = v1 ] && return 0
	skip_part "$1: iowhy reads blk-throttle limits from cgroup v1 blkio only, not from v2 io.max"
	return 1
}

throttle_wait_io() {
	local majmin i n=$((${2:-20} * 20))
	majmin=$(_throttle_majmin "$1") || return 1
	for ((i = 0; i < n; i++)); do
		if [ "$THROTTLE_API" = v2 ]; then
			# "MAJ:MIN rbytes=N wbytes=N rios=N wios=N ..."
			awk -v d="$majmin" '$1 == d { for (i = 2; i <= NF; i++) if ($i ~ /^[rw]ios=[1-9]/) f = 1 }
				END { exit !f }' "$THROTTLE_CG/io.stat" 2>/dev/null && return 0
		else
			# "MAJ:MIN Read N" ... "MAJ:MIN Total N"
			awk -v d="$majmin" '$1 == d && $2 == "Total" && $3 > 0 { f = 1 } END { exit !f }' \
				"$THROTTLE_CG/blkio.throttle.io_service_bytes" 2>/dev/null && return 0
		fi
		sleep 0.05
	done
	return 1
}
