# The benchmarks' statistics (bench/lib.sh): the median's interval is order statistics, and fewer
# than five rounds decide nothing (a 3-round min..max covers the median only 75% of the time: an
# io_floor.sh run of 3 rounds once printed "met"). No root, no kernel: pure shell and awk.
# shellcheck source=/dev/null
. bench/lib.sh
read -r m lo hi < <(printf '%s\n' 0.95 0.96 0.97 | ci)
check "3 rounds: the median" test "$m" = 0.96
check "3 rounds: no interval" test "$lo $hi" = "nan nan"
check "3 rounds: not decidable" test "$(side "$m" "$lo" "$hi" 0.90)" = "not decidable"
read -r m lo hi < <(printf '%s\n' 0.95 0.91 0.97 0.99 0.93 | ci)
check "5 rounds: min..max" test "$m $lo $hi" = "0.95 0.91 0.99"
check "5 rounds all above: above" test "$(side "$m" "$lo" "$hi" 0.90)" = above
read -r m lo hi < <(seq 1 25 | ci)
check "25 rounds: the 7th and 19th values" test "$m $lo $hi" = "13 7 19"
check "an interval across the line: not decidable" test "$(side "$m" "$lo" "$hi" 10)" = "not decidable"
check "an interval under the line: below" test "$(side "$m" "$lo" "$hi" 20)" = below
read -r m lo hi < <(printf '%s\n' 4 2 | ci)
check "an even count: the mean of the middle two" test "$m" = 3
