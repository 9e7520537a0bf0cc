#!/usr/bin/env bash
# `make test`: the harness's own tests (tests/harness/run.sh), the integration tests, and under
# ASan+UBSan (`make sanitize`) the unit tests and a set of integration tests again. The ASan part
# runs beside the harness's and the integration tests (on the CPU the I/O tests, run one at a
# time, leave idle; every integration test holds beside another's load): the build and the unit
# tests holding the shared test lock, so that no exclusive test runs beside them (run.sh runs
# those last), then the integration tests under ASan in one lane, taking the locks as any run of
# run.sh does beside another. Its output comes after the integration tests'.
# With IOWHY_NO_SANITIZE=1 the ASan part is left out and the unit tests (cmocka, given as
# arguments) run plain, before the integration tests: they run once either way. Ends with one
# line "N passed, N failed, N skipped" over all of them.
cd "$(dirname "$0")/.." || exit 1
# every "N passed, N failed[, N skipped]" line of a log, summed: "P F S"
sums() {
	sed -n 's/.*\b\([0-9]\+\) passed, \([0-9]\+\) failed\(, \([0-9]\+\) skipped\)\?.*/\1 \2 \4/p' |
		awk '{ p += $1; f += $2; s += $3; n++ } END { if (n) print p, f, s + 0 }'
}
counts() { sed -n 's/.*\b\([0-9]\+\) passed, \([0-9]\+\) failed\(, \([0-9]\+\) skipped\)\?.*/\1 \2 \4/p' | tail -n 1; }
log=$(mktemp) sanlog=$(mktemp) sanpid=''
trap 'rm -f "$log" "$sanlog"; [ -z "$sanpid" ] || kill -- -"$sanpid" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
if [ -z "${IOWHY_NO_SANITIZE:-}" ]; then
	LOCK=${IOWHY_TEST_LOCKDIR:-/tmp}/iowhy-tests.lock
	[ -e "$LOCK" ] || { (umask 0; : >>"$LOCK") 2>/dev/null; }
	set -m # (its own process group, killed with it on the way out)
	(
		l=''
		if command -v flock >/dev/null && exec {l}<"$LOCK"; then flock -s "$l"; fi
		make --no-print-directory sanitize-build || exit 1
		make --no-print-directory sanitize-unit
		urc=$?
		# the shared lock goes: the integration tests under ASan take their own, as any run of
		# run.sh does beside another (one lane: at most three tests at once on the machine)
		[ -z "$l" ] || exec {l}<&-
		IOWHY_TEST_JOBS=1 make --no-print-directory sanitize-integration
		irc=$?
		[ "$urc" = 0 ] && [ "$irc" = 0 ]
	) >"$sanlog" 2>&1 &
	sanpid=$!
	set +m
fi
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
	echo "### under ASan+UBSan (make sanitize), run beside the above"
	wait "$sanpid"
	rc=$?
	sanpid=''
	tee "$log" <"$sanlog"
	read -r sp sf ss <<<"$(sums <"$log")"
	took "waiting for them"
	# a build that failed, or a run that counted nothing, is one failure
	if [ -z "$sp" ] || { [ "$rc" != 0 ] && [ "${sf:-0}" = 0 ]; }; then
		sp=${sp:-0} sf=1 ss=${ss:-0}
	fi
fi
p=$(( ${hp:-0} + ${up:-0} + ${ip:-0} + sp )); f=$(( ${hf:-1} + ${uf:-1} + ${if:-1} + sf ))
s=$(( ${hs:-0} + ${us:-0} + ${is:-0} + ss ))
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
