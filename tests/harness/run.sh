#!/usr/bin/env bash
# The harness's own tests: planted integration tests, each run through tests/integration/run.sh,
# must come out as stated (a test with no check, a null or empty comparison, a jq error, a skip
# after a failed check, a check that failed in a subshell, an unknown command: each fails), and
# cmocka skips must be counted by tests/unit/run.sh; two lanes share the I/O lock as run.sh says.
# Needs no root and no kernel feature.
# Last line: "harness: N passed, N failed".
cd "$(dirname "$0")/../.." || exit 1
dir=$(mktemp -d /tmp/iowhy-harness-test.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
# run.sh's lock files of its own: the planted tests neither wait for the suite's tests on the
# machine (make test's ASan build holds the shared lock beside this) nor hold them back
export IOWHY_TEST_LOCKDIR=$dir
passed=0 failed=0
ok() { echo "  ok   - $*"; passed=$((passed+1)); }
bad() { echo "  FAIL - $*"; failed=$((failed+1)); }

# plant NAME EXPECTED BODY: EXPECTED is PASS, FAIL or SKIP, as run.sh must report it
names=() expect=()
plant() { printf '%s\n' "$3" >"$dir/test_$1.sh"; names+=("$1"); expect+=("$2"); }

plant no_checks FAIL 'true'
plant missing_source FAIL 'source /nonexistent/lib.sh
no_such_command_here'
plant within_null FAIL 'check "null within null" within null null 2'
plant within_empty FAIL 'check "empty within empty" within "" "" 1'
plant within_zero_ref FAIL 'check "0 within 0" within 0 0 1'
plant within_word FAIL 'check "nan within 5" within nan 5 1'
plant fcmp_null FAIL 'check "null >= 0.95*null" fcmp "null >= 0.95*null"'
plant fcmp_empty FAIL 'x=
check "empty - 3 < 0" fcmp "$x - 3 < 0"'
plant fcmp_trailing FAIL 'check "5 >=" fcmp "5 >= "'
plant jq_error FAIL 'echo "{}" >"$TMPROOT/a.json"
n=$(jqr "$TMPROOT/a.json" "[.a[] | .b] | length")
check "jq error hidden by a test that passes" true'
plant jq_missing_file FAIL 'v=$(jqr "$TMPROOT/none.json" .a)
check "value read" test -z "$v"'
plant jcheck_null FAIL 'echo "{}" >"$TMPROOT/a.json"
jcheck ".a is there" "$TMPROOT/a.json" .a'
plant skip_after_fail FAIL 'fail "a check"
skip "a reason"'
plant fail_in_subshell FAIL 'pass "one"
x=$(fail "inside \$(...)")'
plant exit_zero_after_fail FAIL 'fail "a check"
exit 0'
plant exit_nonzero FAIL 'pass "one"
exit 3'
plant skip_alone SKIP 'skip "no such feature"'
plant good PASS 'check "numbers" fcmp "1 <= 2 && sqrt(4) == 2 && -1e3 < abs(-2)"
check "within" within 100 101 2
jcheck "jq true" <(echo "{\"a\": 1}") ".a == 1"
y=$(check "in a subshell" true)'
plant within_negative_ref FAIL 'check "within" within -100 -100.5 1'
plant verdict_contradiction FAIL 'echo "{\"schema_version\": 1, \"verdicts\": [{\"kind\": \"slow-member\", \"subject\": \"loop1\", \"inputs\": {\"ratio\": 60.4, \"lat_us\": 16, \"others_lat_us\": 442}}], \"verdict_inputs\": {\"peers\": false, \"members\": [{\"name\": \"loop1\", \"iowait_s\": 1}]}}" >"$TMPROOT/r.json"
pass "a report with a verdict whose ratio is not that of its numbers"'
plant part_skipped PASS 'pass "one"
skip_part "no chromium"'

paths=()
for n in "${names[@]}"; do paths+=("$dir/test_$n.sh"); done
out=$(bash tests/integration/run.sh "${paths[@]}" 2>&1)
# every planted test ran (a FAIL for a missing file would look like the FAIL expected)
grep -q "no such test" <<<"$out" && bad "run.sh did not find the planted tests" || ok "planted tests found"
for i in "${!names[@]}"; do
	n=${names[$i]} e=${expect[$i]}
	got=$(sed -n "s/^== test_$n: \([A-Z]*\).*/\1/p" <<<"$out")
	if [ "$got" = "$e" ]; then ok "$n: $e"; else bad "$n: expected $e, got '${got:-nothing}'"; fi
done
grep -q "^== test_good: PASS (4 checks" <<<"$out" && ok "good: 4 checks counted" ||
	bad "good: checks not counted: $(grep '^== test_good' <<<"$out")"
grep -q "^== test_part_skipped: PASS (1 checks, 1 part(s) skipped" <<<"$out" &&
	ok "a dropped part is counted" || bad "part not counted: $(grep '^== test_part_skipped' <<<"$out")"
want="integration: 2 passed, $(( ${#names[@]} - 3 )) failed, 1 skipped"
grep -qx "$want" <<<"$out" && ok "closing line: $want" || bad "closing line: $(tail -n 1 <<<"$out"), expected $want"

# Two lanes and the I/O lock: a lane does not wait for the lock while a test that is not an I/O
# test is left, and io_done lets the lock go. In this order: io1 (an I/O test: it names fsync)
# holds the lock 1.5 s; io2 lets it go at once (io_done) and runs on 1.5 s; io3 an I/O test;
# plain4 none; ex5 exclusive. Expected: plain4 starts while io1 runs (the free lane skips io2 and
# io3), io3 while io2 runs, ex5 after them all. (Each writes "NAME start|end NS" into a log.)
if ! command -v flock >/dev/null; then
	bad "lanes: no flock (util-linux): run.sh runs without its locks"
else
	lg=$dir/lanes.log lk=()
	mk() { printf '%s\n' "echo \"$1 start \$(date +%s%N)\" >>$lg" "$2" "echo \"$1 end \$(date +%s%N)\" >>$lg" \
		'pass "ran"' >"$dir/lk_$1.sh"; lk+=("$dir/lk_$1.sh"); }
	mk io1 ': fsync; sleep 1.5'
	mk io2 ': fsync; io_done; sleep 1.5'
	mk io3 ': fsync'
	mk plain4 'true'
	# ex5: exclusive (its header line first): it runs when nothing else is left
	mk ex5 'true'
	sed -i '1i # exclusive: the harness'"'"'s planted test' "$dir/lk_ex5.sh"
	lout=$(IOWHY_TEST_JOBS=2 bash tests/integration/run.sh "${lk[@]}" 2>&1)
	at() { awk -v n="$1" -v w="$2" '$1 == n && $2 == w { print $3 }' "$lg"; }
	if grep -qx "integration: 5 passed, 0 failed, 0 skipped" <<<"$lout"; then
		ok "lanes: the five planted tests passed"
		[ "$(at plain4 start)" -lt "$(at io1 end)" ] && ok "lanes: a test that is not an I/O test ran while an I/O test held the lock" ||
			bad "lanes: plain4 waited for the I/O lock behind io2 or io3: $(tr '\n' ' ' <"$lg")"
		[ "$(at io3 start)" -lt "$(at io2 end)" ] && ok "lanes: io_done let the I/O lock go" ||
			bad "lanes: io3 did not start before io2 ended: $(tr '\n' ' ' <"$lg")"
		[ "$(at ex5 start)" -gt "$(at io2 end)" ] && [ "$(at ex5 start)" -gt "$(at io3 end)" ] &&
			ok "lanes: the exclusive test ran last, not in the place of an I/O test waiting" ||
			bad "lanes: ex5 ran before the I/O tests ended: $(tr '\n' ' ' <"$lg")"
	else
		bad "lanes: the planted tests did not pass: $(tail -n 1 <<<"$lout")"
		out+=$'\n'"$lout"
	fi
fi

# Leftovers: a test that leaves processes running passes its checks, but run.sh names each, kills
# it and fails the run as "teardown(NAME)": one in the test's session; one in a session of its own
# working in TMPROOT; one in a session of its own with TMPROOT in its environment.
cat >"$dir/lk_left.sh" <<'T'
sleep 300 >/dev/null 2>&1 &
echo "$!" >"$LEFT/a"
env -u TMPROOT setsid sh -c 'echo $$ >"$2"; cd "$1" && exec sleep 301' _ "$TMPROOT" "$LEFT/b" >/dev/null 2>&1 &
setsid sh -c 'echo $$ >"$1"; exec sleep 302' _ "$LEFT/c" >/dev/null 2>&1 &
for _ in $(seq 50); do [ -s "$LEFT/b" ] && [ -s "$LEFT/c" ] && break; sleep 0.1; done
pass "ran"
T
mkdir "$dir/left"
# (without the test's cgroup, IOWHY_TEST_CGROUPS=0: as root it would name all three "in its cgroup")
tout=$(LEFT=$dir/left IOWHY_TEST_JOBS=1 IOWHY_TEST_CGROUPS=0 bash tests/integration/run.sh "$dir/lk_left.sh" 2>&1)
# gone: no such process, or a zombie not yet reaped
gone() { [ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]; }
for k in a:"in its session" b:"working in its TMPROOT" c:"with its TMPROOT"; do
	lpid=$(cat "$dir/left/${k%%:*}" 2>/dev/null)
	if [ -n "$lpid" ] && grep -qF "teardown: process $lpid left running (${k#*:})" <<<"$tout"; then
		ok "teardown: the process ${k#*:} is named"
	else
		bad "teardown: the process ${k#*:} (${lpid:-?}) not named: $(grep teardown <<<"$tout" | tr '\n' ' ')"
	fi
	if [ -n "$lpid" ] && gone "$lpid"; then ok "teardown: ${k#*:}: gone"; else
		bad "teardown: ${k#*:}: process ${lpid:-?} still there"; kill -9 "$lpid" 2>/dev/null; fi
done
grep -qx "integration: 1 passed, 1 failed, 0 skipped" <<<"$tout" && ok "teardown: the run fails" ||
	bad "teardown: the closing line: $(tail -n 1 <<<"$tout")"

# cmocka: a skipped test is counted as skipped, not passed
if [ -n "${CMOCKA_BIN_DIR:-}" ] || pkg-config --exists cmocka 2>/dev/null || [ -f /usr/include/cmocka.h ]; then
	cat >"$dir/sk.c" <<'C'
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
static void skipped(void **s) { (void)s; skip(); }
static void passes(void **s) { (void)s; assert_int_equal(1, 1); }
int main(void)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(skipped), cmocka_unit_test(passes) };
	return cmocka_run_group_tests(t, NULL, NULL);
}
C
	if ${CC:-cc} -o "$dir/sk" "$dir/sk.c" -lcmocka 2>"$dir/cc.log"; then
		line=$(sh tests/unit/run.sh "$dir/sk" | tail -n 1)
		[ "$line" = "1 passed, 0 failed, 1 skipped" ] && ok "cmocka skip counted: $line" ||
			bad "cmocka skip: '$line', expected '1 passed, 0 failed, 1 skipped'"
	else
		bad "cmocka test program did not build: $(head -n 3 "$dir/cc.log")"
	fi
else
	bad "cmocka is not installed (make deps)"
fi
[ "$failed" = 0 ] || { echo "--- run.sh said:"; echo "$out"; }
echo "harness: $passed passed, $failed failed"
[ "$failed" = 0 ]
