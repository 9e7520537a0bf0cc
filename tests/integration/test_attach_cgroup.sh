# iowhy attach --cgroup: two processes inside a cgroup v2 directory, one outside; a third joins the
# cgroup during the window. The report has the two and the joiner, never the one outside.
#
# witness: behaviour: the two processes inside and the joiner are listed, the one outside is not,
#   the text names the cgroup; tolerance: exact; observed: not recorded
need_root
source tests/integration/lib_attach.sh
command -v jq >/dev/null || skip "jq missing"
build_attach_target
make_test_cgroup iowhy-test-attach

for n in insidea insideb outsidex joinerx; do cp "$TGT" "$TMPROOT/$n"; done
start_bg A "$TMPROOT/insidea" sleep
start_bg B "$TMPROOT/insideb" sleep
start_bg O "$TMPROOT/outsidex" sleep
start_bg N "$TMPROOT/joinerx" sleep
echo "$A" > "$CG/cgroup.procs" && echo "$B" > "$CG/cgroup.procs" || skip "cannot move into $CG"

J=$TMPROOT/c.json
"$IOWHY" attach --cgroup "$CG" --duration 3 -j "$J" -o "$TMPROOT/c.txt" 2>"$TMPROOT/c.err" &
W=$!
wait_started "$TMPROOT/c.err" || fail "attach did not start: $(cat "$TMPROOT/c.err")"
echo "$N" > "$CG/cgroup.procs"
wait "$W"
rc=$?
check "attach --cgroup exits 0 (got $rc)" [ "$rc" = 0 ]
[ -s "$J" ] || { fail "no JSON report"; finish; }
comms=$(jqr "$J" '[.phases[0].comms[].comm] | join(" ")')
procs=$(jqr "$J" '[.phases[0].attach.processes[].comm] | join(" ")')
echo "  comms: $comms; processes: $procs"
check "both processes inside are reported" fcmp "$(jqr "$J" '[.phases[0].attach.processes[] | select(.comm == "insidea" or .comm == "insideb")] | length') == 2"
check "the one outside is not" fcmp "$(jqr "$J" '[.phases[0].comms[] | select(.comm == "outsidex")] | length') == 0"
check "the process that joined during the window is" fcmp "$(jqr "$J" '[.phases[0].attach.processes[] | select(.comm == "joinerx")] | length') == 1"
check "the text report names the cgroup" grep -q "cgroup $CG" "$TMPROOT/c.txt"
