#!/usr/bin/env bash
# Run the integration tests (tests/integration/test_*.sh, or the names given). Each runs in its own
# bash with lib.sh sourced, a fresh $TMPROOT, and a time limit. Exit 0 = pass, 77 = skip.
# A test passes only if it made at least one check and none failed (lib.sh records them). Last
# line: "N passed, N failed, N skipped".
cd "$(dirname "$0")/../.." || exit 1
export OUT=${OUT:-build}
export IOWHY=${IOWHY:-$PWD/iowhy} CALIB=${CALIB:-$PWD/$OUT/calib}
LIMIT=${IOWHY_TEST_TIMEOUT:-300}
pass=0 failn=0 skipn=0 partn=0 failed_names=() part_names=() roots=()
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/integration/test_*.sh)
for t in "${tests[@]}"; do
	# a bare name means tests/integration/NAME.sh; a test that is not there fails, never passes
	case $t in */*) ;; *) t=tests/integration/${t%.sh}.sh ;; esac
	name=$(basename "$t" .sh)
	if [ ! -f "$t" ]; then
		echo "== $name: FAIL (no such test: $t)"
		failn=$((failn+1)); failed_names+=("$name")
		continue
	fi
	TMPROOT=$(mktemp -d /tmp/iowhy-test.XXXXXX)
	HARNESS_DIR=$(mktemp -d /tmp/iowhy-harness.XXXXXX)
	export TMPROOT HARNESS_DIR
	roots+=("$TMPROOT")
	echo "== $name"
	start=$(date +%s.%N)
	timeout --signal=TERM --kill-after=10 "$LIMIT" \
		bash -c 'source tests/integration/lib.sh || exit 1; source "$1"; finish' _ "$t"
	rc=$?
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	rm -rf "$TMPROOT"
	# The verdict is the harness's, from the checks the test recorded, whatever it exited with:
	# it passes only with at least one check made and none failed.
	np=$(cat "$HARNESS_DIR/pass" 2>/dev/null | wc -l)
	nf=$(cat "$HARNESS_DIR/fail" 2>/dev/null | wc -l)
	nparts=$(cat "$HARNESS_DIR/parts" 2>/dev/null | wc -l)
	rm -rf "$HARNESS_DIR"
	why=
	case $rc in
	0|77) [ "$nf" = 0 ] || why="$nf failed check(s)" ;;
	124) why="timed out after ${LIMIT} s" ;;
	*) why="exit $rc" ;;
	esac
	[ -n "$why" ] || [ "$rc" = 77 ] || [ "$np" != 0 ] || why="no check made"
	parts=
	if [ "$nparts" != 0 ]; then
		parts=", $nparts part(s) skipped"
		partn=$((partn+nparts)); part_names+=("$name")
	fi
	if [ -n "$why" ]; then
		failn=$((failn+1)); failed_names+=("$name"); echo "== $name: FAIL ($why, $np passed, ${secs} s)"
	elif [ "$rc" = 77 ]; then
		skipn=$((skipn+1)); echo "== $name: SKIP (${secs} s)"
	else
		pass=$((pass+1)); echo "== $name: PASS ($np checks$parts, ${secs} s)"
	fi
done
# Nothing a test set up may outlive it: loop devices and mounts under this run's temp dirs (not
# those of another run going on at the same time).
left=0
if [ ${#roots[@]} -gt 0 ]; then
	left=$( (losetup -a; findmnt -rn -o TARGET) 2>/dev/null | grep -cF "${roots[@]/#/-e}" )
fi
if [ "$left" != 0 ]; then
	echo "== leftovers: $left loop devices or mounts under this run's /tmp/iowhy-test.* were not torn down"
	failn=$((failn+1)); failed_names+=("teardown")
fi
[ ${#part_names[@]} -eq 0 ] || echo "parts skipped: $partn in ${part_names[*]}"
[ ${#failed_names[@]} -eq 0 ] || echo "failed: ${failed_names[*]}"
echo "integration: $pass passed, $failn failed, $skipn skipped"
[ "$failn" = 0 ]
