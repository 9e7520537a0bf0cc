# All three strategies with the flush phase: six phases, the report puts them side by side and
# ends with an explanation computed from the numbers.
#
# witness: behaviour: six phases, three of kind flush, the explanation says how much longer loop
#   took ("loop took ... more than"); tolerance: exact; observed: not recorded
# witness: the command line's numbers (200 files of 10 KiB a strategy, --sync): write bytes
#   2,048,000 in loop and direct, 4,096,000 in split (the big file, then its 200 pieces), one
#   syncfs in each flush phase; tolerance: exact; observed: exact (5 runs, 2 beside two CPU
#   spinners)
# check_phase_invariants on all six phases (lib.sh: buckets, residual, probes, shares). A built-in
#   workload: iowhy runs the phases itself, so no calib witness can stand between; the traced CPU
#   is checked against a witness elsewhere (test_calib_sleep, test_sample_freq, test_switch_log,
#   and the command-workload tests that pass one). The files each strategy leaves are witnessed
#   by strace in test_gen_direct_split and test_gen_loop.
need_root
j=$TMPROOT/r.json
$IOWHY gen --no-io --strategy loop,split,direct --count 200 --size 10k --sync --dir "$TMPROOT" --json "$j" \
	>"$TMPROOT/out" || fail "gen exited $?"
check "six phases (3 work + 3 flush)" test "$(jqr "$j" '.phases | length')" = 6
check "flush phases are kind flush" test "$(jqr "$j" '[.phases[] | select(.kind == "flush")] | length')" = 3
i=0
for want in loop:2048000 loop/flush:1 split:4096000 split/flush:1 direct:2048000 direct/flush:1; do
	name=${want%%:*} n=${want#*:}
	got=$(jqr "$j" ".phases[$i].name")
	case $name in
	*/flush) v=$(sys_count "$j" $i syncfs) what="syncfs calls" ;;
	*) v=$(jqr "$j" "[.phases[$i].syscalls[] | select(.name == \"write\") | .bytes] | add // 0") what="write bytes" ;;
	esac
	check "phase $i $got: $what $v (the command line's: $name $n)" test "$got/$v" = "$name/$n"
	i=$((i + 1))
done
check "the explanation says how much longer loop took (\"loop took ... more than\")" grep -q "loop took .* more than" "$TMPROOT/out"
for i in 0 1 2 3 4 5; do check_phase_invariants "$j" $i; done
