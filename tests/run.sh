#!/usr/bin/env bash
# `make test`: the harness's own tests (tests/harness/run.sh), the integration tests, then the unit
# tests and a set of integration tests again under ASan+UBSan (`make sanitize`). With
# IOWHY_NO_SANITIZE=1 the last part is left out and the unit tests (cmocka, given as arguments) run
# plain, before the integration tests: they run once either way. Ends with one line
# "N passed, N failed, N skipped" over all of them.
cd "$(dirname "$0")/.." || exit 1
# every "N passed, N failed[, N skipped]" line of a log, summed: "P F S"
sums() {
	sed -n 's/.*\b\([0-9]\+\) passed, \([0-9]\+\) failed\(, \([0-9]\+\) skipped\)\?.*/\1 \2 \4/p' |
		awk '{ p += $1; f += $2; s += $3; n++ } END { if (n) print p, f, s + 0 }'
}
counts() { sed -n 's/.*\b\([0-9]\+\) passed, \([0-9]\+\) failed\(, \([0-9]\+\) skipped\)\?.*/\1 \2 \4/p' | tail -n 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# took: the part's time since the last mark (a line after it)
t0=$SECONDS
took() { echo "### ($1 took $((SECONDS - t0)) s)"; t0=$SECONDS; }
echo "### the harness's own tests"
bash tests/harness/run.sh | tee "$log"
took "the harness's own tests"
read -r hp hf hs <<<"$(counts <"$log")"
up=0 uf=0 us=0
if [ -n "${IOWHY_NO_SANITIZE:-}" ]; then
	echo "### unit tests"
	sh tests/unit/run.sh "$@" | tee "$log"
	read -r up uf us <<<"$(counts <"$log")"
	took "the unit tests"
fi
echo "### integration tests"
bash tests/integration/run.sh | tee "$log"
read -r ip if is <<<"$(counts <"$log")"
took "the integration tests"
sp=0 sf=0 ss=0
if [ -z "${IOWHY_NO_SANITIZE:-}" ]; then
	echo "### under ASan+UBSan (make sanitize)"
	make --no-print-directory sanitize 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	read -r sp sf ss <<<"$(sums <"$log")"
	took "the build and tests under ASan+UBSan"
	# a build that failed, or a run that counted nothing, is one failure
	if [ -z "$sp" ] || { [ "$rc" != 0 ] && [ "${sf:-0}" = 0 ]; }; then
		sp=${sp:-0} sf=1 ss=${ss:-0}
	fi
fi
p=$(( ${hp:-0} + ${up:-0} + ${ip:-0} + sp )); f=$(( ${hf:-1} + ${uf:-1} + ${if:-1} + sf ))
s=$(( ${hs:-0} + ${us:-0} + ${is:-0} + ss ))
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
