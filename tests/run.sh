#!/usr/bin/env bash
# `make test`: the unit tests (cmocka, given as arguments), then the integration tests. Ends with one
# line "N passed, N failed, N skipped" over both.
cd "$(dirname "$0")/.." || exit 1
counts() { sed -n 's/.*\b\([0-9]\+\) passed, \([0-9]\+\) failed\(, \([0-9]\+\) skipped\)\?.*/\1 \2 \4/p' | tail -n 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "### unit tests"
sh tests/unit/run.sh "$@" | tee "$log"
read -r up uf us <<<"$(counts <"$log")"
echo "### integration tests"
bash tests/integration/run.sh | tee "$log"
read -r ip if is <<<"$(counts <"$log")"
p=$(( ${up:-0} + ${ip:-0} )); f=$(( ${uf:-1} + ${if:-1} )); s=$(( ${us:-0} + ${is:-0} ))
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
