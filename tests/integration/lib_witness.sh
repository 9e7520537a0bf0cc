# Independent witnesses the tests read themselves, never a figure iowhy read (sourced after lib.sh).
#
#   kv FILE KEY              the value of the line "KEY VALUE" in FILE (calib's own output); nothing
#                            if there is none
#   jbd2_transactions NAME   transactions the ext4 journal of disk NAME (loopN) has committed since
#                            it was mounted: the first line of /proc/fs/jbd2/NAME-8/info
#                            ("N transactions (M requested), each up to B blocks"); nothing if the
#                            file is not there
#   delayacct_on             sysctl kernel.task_delayacct=1 for the test (restored by on_exit);
#                            skips when the kernel has no delay accounting
#   tmpfs_dir SIZE_MB        a tmpfs of SIZE_MB mounted under $TMPROOT (unmounted by on_exit):
#                            exports SHM, its path

kv() { awk -v k="$2" '$1 == k { print $2; exit }' "$1" 2>/dev/null; }

jbd2_transactions() {
	awk 'NR == 1 && $2 == "transactions" { print $1 }' "/proc/fs/jbd2/$1-8/info" 2>/dev/null
}

delayacct_on() {
	local old
	old=$(sysctl -n kernel.task_delayacct 2>/dev/null) || skip "no kernel.task_delayacct sysctl"
	on_exit "sysctl -q kernel.task_delayacct=$old"
	sysctl -q kernel.task_delayacct=1 || skip "cannot set kernel.task_delayacct=1"
}

tmpfs_dir() {
	SHM=$TMPROOT/shm
	mkdir -p "$SHM"
	mount -t tmpfs -o "size=${1}m" tmpfs "$SHM" || skip "cannot mount a tmpfs on $SHM"
	on_exit "umount '$SHM' || umount -l '$SHM'"
	export SHM
}
