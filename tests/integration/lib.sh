# Shared helpers for integration tests. Each test is tests/integration/test_*.sh, run by run.sh in a
# fresh bash with this file sourced, cwd = repo root, IOWHY=./iowhy, TMPROOT = a temp dir removed
# after the test. A test calls `pass "msg"` / `fail "msg"` for each check, or `skip "reason"` to skip
# the whole test (exits). Cleanup: register with `on_exit "command"`; commands run in reverse order
# when the test ends, also on failure or signal.
IOWHY=${IOWHY:-./iowhy}
_checks_failed=0
_exit_cmds=()

on_exit() { _exit_cmds+=("$1"); }
_run_exit() {
	local i
	for ((i=${#_exit_cmds[@]}-1; i>=0; i--)); do eval "${_exit_cmds[$i]}" >/dev/null 2>&1 || true; done
	_exit_cmds=()
}
trap '_run_exit' EXIT
trap '_run_exit; exit 130' INT TERM

pass() { echo "  ok   - $*"; }
fail() { echo "  FAIL - $*"; _checks_failed=$((_checks_failed+1)); }
skip() { echo "  SKIP - $*"; exit 77; }
# check DESC COND...: pass if the command succeeds
check() { local d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# jq on a JSON report: jqr FILE FILTER
jqr() { jq -r "$2" "$1"; }
# Float comparisons via awk: fcmp "a <= b"
fcmp() { awk "BEGIN { exit !($1) }"; }
# within A B PCT: |A-B| <= PCT% of B
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d=a-b; if (d<0) d=-d; exit !(d <= b*p/100) }'; }

finish() { [ "$_checks_failed" = 0 ]; exit $?; }
