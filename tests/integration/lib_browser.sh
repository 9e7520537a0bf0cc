# Headless Chromium for the HTML report tests (sourced after lib.sh). Installs it on first use
# (tests/install-deps.sh browser: large, so only these tests ask for it); skips when apt cannot.
#
#   need_chromium                  skip the test unless chromium runs
#   chrome ARGS... URL             headless Chromium with the network off (a dead proxy), a fresh
#                                  profile under $TMPROOT, its log on stderr
#   with_probe FILE SCRIPT OUT     copy an HTML/SVG FILE to OUT with SCRIPT run after the page's
#                                  own scripts (before </body>, or before </svg> as CDATA)
#   dump_dom FILE OUT ERRLOG       the DOM after the scripts ran, to OUT; Chromium's log to ERRLOG

need_chromium() {
	need_root
	if ! command -v chromium >/dev/null; then
		sh tests/install-deps.sh browser >"$TMPROOT/apt.log" 2>&1 ||
			skip "apt cannot install chromium: $(tail -1 "$TMPROOT/apt.log")"
	fi
	command -v chromium >/dev/null || skip "no chromium after installing it"
}

chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-default-apps --user-data-dir="$TMPROOT/chrome-profile" \
		--enable-logging=stderr --v=0 "$@"
}

with_probe() {
	local file=$1 script=$2 out=$3
	case $file in
	*.svg) awk -v s="$script" '/<\/svg>/ { print "<script type=\"text/ecmascript\"><![CDATA[" s "]]></script>" } { print }' "$file" >"$out" ;;
	*) awk -v s="$script" '/<\/body>/ { print "<script>" s "</script>" } { print }' "$file" >"$out" ;;
	esac
}

dump_dom() {
	chrome --dump-dom "file://$1" >"$2" 2>"$3"
}

# Console errors in a Chromium log (uncaught exceptions and console.error).
console_errors() {
	grep -E 'CONSOLE.*(Uncaught|Error)|:ERROR:CONSOLE' "$1" || true
}
