# exclusive: counts unnamed kernel frames: another test's iowhy, whose BPF programs run inside this workload's samples and are unloaded before the names are looked up, leaves frames no lookup can name
# --folded FILE: FlameGraph folded stacks of the CPU samples (and FILE.offcpu: of the
# uninterruptible sleeps, in µs). Every line is "frames count" with no
# space inside the frames, the counts add up to the samples the JSON reports as recorded, kernel
# frames carry _[k], and with two phases (--sync) every line starts with its phase's name.
#
# witness: none independent (iowhy against itself): the --folded counts against the JSON's
#   recorded samples (exact), FILE.offcpu's us against the JSON's offcpu ns (+- 1 us a line),
#   no unnamed kernel frame (cpu_samples.frames); observed: not recorded
# witness: behaviour: every line "frames count", each starting with a phase name, getppid's
#   entry named __x64_sys_getppid both ways (the kernel's %pS and /proc/kallsyms), dd's direct
#   writes in FILE.offcpu, --folded refused with --no-sample and for an unwritable file;
#   tolerance: exact; observed: ~95 samples of 300,000 getppid held ~5 inside getppid, once none
need_root
[ "$(stat -f -c %T "$TMPROOT")" != tmpfs ] || skip "O_DIRECT needs a disk file system under $TMPROOT"
j=$TMPROOT/r.json
f=$TMPROOT/stacks.folded
# (--freq 999: at the default 99 Hz the 0.3 s of getppid has ~30 samples, and one with
# __x64_sys_getppid among its frames is not certain)
# (dd: 16 direct 1 MiB writes, ~10 ms of D time: the off-CPU stacks are a sample in D time, one
# walk per ~1 ms of a task's D time, and with 4 writes, ~2.5 ms, a loaded run once walked none
# inside them)
$IOWHY run --no-io --freq 999 --sync "$TMPROOT" --folded "$f" --json "$j" -- \
	sh -c "\"$CALIB\" getppid 300000; \"$CALIB\" touch 32; \
	       dd if=/dev/zero of='$TMPROOT/d' bs=1M count=16 oflag=direct status=none" >/dev/null ||
	fail "iowhy run exited $?"
check "the folded file exists and is not empty" test -s "$f"
bad=$(grep -cvE '^[^ ]+ [0-9]+$' "$f")
check "every line matches '^[^ ]+ [0-9]+\$' ($bad do not)" test "$bad" = 0
sum=$(awk '{ s += $NF } END { print s + 0 }' "$f")
rec=$(jqr "$j" '[.phases[].cpu_samples.recorded] | add')
check "the counts add up to the recorded samples ($sum vs $rec)" test "$sum" = "$rec"
check "calib's getppid shows with kernel frames" grep -qE '^run;calib;.*__x64_sys_getppid_\[k\]' "$f"
phases=$(jqr "$j" '[.phases[].name] | join("|")')
other=$(grep -cvE "^($phases);" "$f")
check "every line starts with a phase name ($phases): $other do not" test "$other" = 0
# the off-CPU file: same format, µs asleep adding up to the JSON's (each line rounded)
o=$f.offcpu
check "the off-CPU file exists and is not empty" test -s "$o"
bad=$(grep -cvE '^[^ ]+ [0-9]+$' "$o")
check "every off-CPU line matches the format ($bad do not)" test "$bad" = 0
us=$(awk '{ s += $NF } END { print s + 0 }' "$o")
lines=$(wc -l <"$o")
ns=$(jqr "$j" '[.phases[].offcpu.ns] | add')
check "off-CPU µs ($us) add up to the JSON's $ns ns (± $lines µs of rounding)" \
	fcmp "$us * 1000 - $ns <= $lines * 1000 && $ns - $us * 1000 <= $lines * 1000"
check "dd's direct write waits are in it" grep -qE '^run;dd;.*iomap_dio_rw_\[k\]' "$o"
# errors: no samples to write, and a file that cannot be created
$IOWHY run --no-io --no-sample --folded "$TMPROOT/x" -- true >/dev/null 2>"$TMPROOT/err"
check "--folded with --no-sample is bad input (exit $?)" grep -q -- '--folded' "$TMPROOT/err"
$IOWHY run --no-io --folded /nonexistent/dir/x -- true >/dev/null 2>"$TMPROOT/err2"
rc=$?
check "an unwritable --folded file fails the run (exit $rc)" test "$rc" != 0
check "with one line saying so" grep -q -- '--folded /nonexistent/dir/x' "$TMPROOT/err2"
# Kernel frames are named by the kernel itself (a BPF program formatting "%pS", a batch of addresses
# a run: ksym_addrs.h) instead of a read of all of /proc/kallsyms; where that program cannot run
# (IOWHY_FALLBACKS=1, as on a kernel without it) the file is read. Both name the syscall's entry as
# perf does, and leave no kernel frame unnamed. About one sample in twenty is inside getppid's own
# function (the rest in the entry code and the tracepoints' programs): a million calls give ~300
# samples on a host with cheap syscalls (300,000 gave ~95, and once none inside it).
for how in kernel kallsyms; do
	fb=''
	[ $how = kallsyms ] && fb=1
	IOWHY_FALLBACKS=$fb $IOWHY run --no-io --freq 999 --folded "$TMPROOT/$how.folded" \
		--json "$TMPROOT/$how.json" -- "$CALIB" getppid 1000000 >/dev/null 2>&1 ||
		fail "$how: iowhy run exited $?"
	check "$how: getppid's entry is named (__x64_sys_getppid)" \
		grep -q '__x64_sys_getppid_\[k\]' "$TMPROOT/$how.folded"
	read -r kf ku <<<"$(jqr "$TMPROOT/$how.json" '.phases[0].cpu_samples.frames |
		"\(.kernel) \(.kernel_unresolved)"')"
	check "$how: every kernel frame named ($ku of $kf unnamed)" fcmp "$kf > 0 && $ku == 0"
done
