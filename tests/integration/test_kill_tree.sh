# Interrupting or killing iowhy (SIGINT, SIGTERM, SIGKILL) leaves none of the workload's processes
# running (issue 10, item 3): not the command, not its children, not a child that left the
# process group (setsid). SIGINT exits 130, SIGTERM 143; after SIGKILL the guard kills the tree.
# Both ways a command gets into the session's cgroup: made there (clone3 CLONE_INTO_CGROUP) and
# moved there (IOWHY_TEST_NO_CLONE3=1: the way of other kernels and architectures).
need_root
[ -d /sys/fs/cgroup/unified ] || [ -f /sys/fs/cgroup/cgroup.procs ] || skip "no cgroup v2 here"
pids=$TMPROOT/pids
alive() { # alive PIDFILE: the pids in the file that still run (zombies do not count)
	local p st
	for p in $(cat "$1" 2>/dev/null); do
		st=$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null) || continue
		[ "$st" = Z ] || echo "$p"
	done
}
for how in made moved; do
if [ $how = moved ]; then export IOWHY_TEST_NO_CLONE3=1; else unset IOWHY_TEST_NO_CLONE3; fi
cg=$($IOWHY run --no-io -o "$TMPROOT/cg.txt" -- cat /proc/self/cgroup | sed -n 's/^0:://p')
check "$how: the command runs in the session's cgroup (${cg:-none})" eval '[[ "$cg" == */iowhy-* ]]'
for sig in INT TERM KILL; do
	: >"$pids.$sig"
	# bash runs dd (a child in the group) and a sleep that leaves the group and the session
	$IOWHY run --no-io -- bash -c '
		dd if=/dev/zero of=/dev/null bs=4k count=100000000000 status=none & echo $! >>"$1"
		setsid sleep 1000 & echo $! >>"$1"
		echo $$ >>"$1"; wait' _ "$pids.$sig" >"$TMPROOT/out.$sig" 2>&1 &
	iowhy=$!
	# Kill once the tree is as described: dd runs (exec'd), the sleep runs in a session of its own
	# (setsid done and sleep exec'd), bash waits; 20 s at most (a fixed half second was a guess)
	ready=''
	for _ in $(seq 1 400); do
		if [ "$(wc -l <"$pids.$sig")" -ge 3 ]; then
			{ read -r dd; read -r sl; } <"$pids.$sig"
			# /proc/PID/stat: comm is field 2, the session id field 6 (no comm here has a space)
			if [ "$(awk '{ print $2 }' "/proc/$dd/stat" 2>/dev/null)" = "(dd)" ] &&
				[ "$(awk '{ print $2, $6 }' "/proc/$sl/stat" 2>/dev/null)" = "(sleep) $sl" ]; then
				ready=1
				break
			fi
		fi
		kill -0 $iowhy 2>/dev/null || break
		sleep 0.05
	done
	check "SIG$sig: the workload started its 3 processes (dd running, sleep in a session of its own)" \
		test -n "$ready"
	kill -"$sig" $iowhy
	wait $iowhy; rc=$?
	want=$((128 + $(kill -l "$sig")))
	check "SIG$sig: iowhy exits $want (got $rc)" test "$rc" = "$want"
	left=
	for _ in $(seq 1 50); do left=$(alive "$pids.$sig"); [ -z "$left" ] && break; sleep 0.1; done
	check "SIG$sig: no workload process survives (left: ${left:-none})" test -z "$left"
	for p in $left; do kill -9 "$p" 2>/dev/null; done
	# after SIGKILL the guard removes it once the kernel has reaped its last process: a loaded
	# machine may take a moment (the guard tries for 3 s)
	for _ in $(seq 1 50); do
		# iowhy makes it under its own cgroup (or the root when that is refused): look everywhere
		cg=$(find "$(findmnt -rn -t cgroup2 -o TARGET | head -n 1)" -type d -name "iowhy-$iowhy" 2>/dev/null)
		[ -z "$cg" ] && break
		sleep 0.1
	done
	check "SIG$sig: the workload's cgroup is gone (${cg:-gone})" test -z "$cg"
done
check "$how: SIGINT: a partial report was printed" grep -q "PARTIAL" "$TMPROOT/out.INT"
done
unset IOWHY_TEST_NO_CLONE3
