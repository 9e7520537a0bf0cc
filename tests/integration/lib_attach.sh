# Helpers for the attach tests (sourced after lib.sh).
#   build_attach_target        compile tests/attach_target.c into $TMPROOT; exports TGT
#   start_bg VAR CMD...        start CMD in the background, its pid in VAR, killed at the end
#   wait_started FILE          wait (up to 30 s) until iowhy attach says it is tracing (stderr FILE)
#   our_bpf_left PID           bpftool links or programs still held by process PID (count)

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

our_bpf_left() {
	{ bpftool link list; bpftool prog list; } 2>/dev/null | grep -c "iowhy($1)"
}
