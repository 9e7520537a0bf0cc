#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run cmocka unit-test binaries and sum their results.
#
# Usage: sh tests/unit/run.sh BINARY...
#
# Prints each binary's cmocka output, then one plain line "N passed, N failed, N skipped" with the
# test counts of all binaries (cmocka counts a skip() apart from the passes). A binary that dies without a cmocka summary (crash, abort, missing) counts each
# test it started and did not finish as failed (at least one). Exit status: 0 if everything
# passed, 1 otherwise.
set -u

[ $# -ge 1 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }

out=$(mktemp "${TMPDIR:-/tmp}/iowhy-unit.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
trap 'exit 130' INT TERM

# Unbuffered stdout keeps cmocka's stdout (progress) and stderr (summary) lines in order. stdbuf
# works by LD_PRELOAD, which a sanitizer runtime refuses (it must come first): not for those.
unbuffered=
command -v stdbuf >/dev/null 2>&1 && unbuffered="stdbuf -o0 -e0"
sanitized() { grep -qaE '__(a|ub)san_' "$1" 2>/dev/null; }

# First number in the lines of $out matching the extended regexp $1; 0 if there is none.
count_of() {
	n=$(grep -E "$1" "$out" | head -n 1 | sed -E 's/[^0-9]*([0-9]+).*/\1/')
	echo "${n:-0}"
}

passed=0
failed=0
skipped=0
broken=0
for bin in "$@"; do
	echo "== $bin"
	# The standard cmocka format, whatever the caller's environment asks for.
	if sanitized "$bin"; then
		CMOCKA_MESSAGE_OUTPUT=stdout "$bin" >"$out" 2>&1
	else
		CMOCKA_MESSAGE_OUTPUT=stdout $unbuffered "$bin" >"$out" 2>&1
	fi
	rc=$?
	cat "$out"

	ok=$(count_of '^\[  PASSED  \] [0-9]+ test')
	sk=$(count_of '^\[  SKIPPED \] [0-9]+ test\(s\)')
	bad=$(count_of '^\[  FAILED  \] [0-9]+ test\(s\)')
	if ! grep -qE '^\[==========\] [0-9]+ test\(s\) run\.' "$out" || { [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; }; then
		# No summary, or a failing exit without failed tests: it did not finish normally.
		started=$(grep -cE '^\[ RUN      \]' "$out")
		ok=$(grep -cE '^\[       OK \]' "$out")
		bad=$((started - ok))
		[ "$bad" -ge 1 ] || bad=1
		echo "$bin: did not finish normally (exit status $rc)"
		broken=$((broken + 1))
	fi
	passed=$((passed + ok))
	skipped=$((skipped + sk))
	failed=$((failed + bad))
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
