# All three strategies with the flush phase: six phases, the report puts them side by side and
# ends with an explanation computed from the numbers.
#
# witness: behaviour: six phases, three of kind flush, the explanation names loop and split;
#   tolerance: exact; observed: not recorded
# witness: none independent: check_phase_invariants on all six phases (lib.sh); observed: not
#   recorded
need_root
j=$TMPROOT/r.json
$IOWHY gen --no-io --strategy loop,split,direct --count 200 --size 10k --sync --dir "$TMPROOT" --json "$j" \
	>"$TMPROOT/out" || fail "gen exited $?"
check "six phases (3 work + 3 flush)" test "$(jqr "$j" '.phases | length')" = 6
check "flush phases are kind flush" test "$(jqr "$j" '[.phases[] | select(.kind == "flush")] | length')" = 3
check "the explanation names loop and split" grep -q "loop took .* more than" "$TMPROOT/out"
for i in 0 1 2 3 4 5; do check_phase_invariants "$j" $i; done
