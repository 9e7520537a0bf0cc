# Helpers for the attach tests (sourced after lib.sh).
#   build_attach_target        compile tests/attach_target.c into $TMPROOT; exports TGT
#   start_bg VAR CMD...        start CMD in the background, its pid in VAR, killed at the end
#   wait_started FILE          wait (up to 30 s) until iowhy attach says it is tracing (stderr FILE)
#   bpf_prog_names PID         names of the BPF programs process PID holds (its fds' prog_id)
#   make_test_cgroup NAME      a cgroup v2 directory NAME.$$ (skip without one): CGROOT, CG;
#                              its processes moved out and it is removed at the end
#   leftovers ARGS...          processes still running `$IOWHY attach ARGS...` and BPF objects
#                              held by them (after it exited: a fork of it, e.g. a guard); count

build_attach_target() {
	TGT=$TMPROOT/attach_target
	gcc -O2 -o "$TGT" tests/attach_target.c || skip "cannot build tests/attach_target.c"
	export TGT
}

start_bg() {
	local var=$1
	shift
	"$@" &
	printf -v "$var" '%s' "$!"
	on_exit "kill -9 $! 2>/dev/null; wait $! 2>/dev/null"
}

wait_started() {
	local i
	for ((i = 0; i < 300; i++)); do
		grep -q 'tracing' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

bpf_prog_names() {
	local id
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u |
		while read -r id; do
			bpftool prog show id "$id" 2>/dev/null | awk 'NR == 1 { for (i = 1; i < NF; i++) if ($i == "name") print $(i + 1) }'
		done
}

leftovers() {
	local want p n=0
	want=$(printf '%s\0' "$IOWHY" attach "$@" | tr '\0' ' ')
	# (pgrep picks the candidates, a fork renamed iowhy-guard too: a tr per process of the
	# machine took over the 4 s of a window on a loaded host, and found it gone)
	for p in $(pgrep -f -- "$IOWHY attach"); do
		p=/proc/$p
		[ "$( { tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null)" = "$want" ] || continue
		n=$((n + 1 + $(ls -l "$p/fd" 2>/dev/null | grep -c 'anon_inode:bpf')))
	done
	echo "$n"
}

make_test_cgroup() {
	CGROOT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$CGROOT" ] || skip "no cgroup v2 mount"
	CG=$CGROOT/$1.$$
	mkdir "$CG" || skip "cannot create $CG"
	on_exit "rmdir '$CG'"
	on_exit "for p in \$(cat '$CG/cgroup.procs'); do echo \$p > '$CGROOT/cgroup.procs'; done"
}
