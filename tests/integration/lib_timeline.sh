# Checks of a --timeline file shared by the timeline tests (sourced after lib.sh). Times are µs
# with 3 decimals: 0.0015 is the rounding of two of them.
#   tl_task_slices FILE JQ      JQ applied to the array of the tasks' state slices
#   tl_negative FILE            slices (any) that end before they begin: their count
#   tl_untiled FILE             per task, slices that do not begin where the one before ended
#   tl_lane_overlaps FILE       device requests overlapping the one before on their lane (JSON lines)
#   tl_phase FILE N FIELD       ts or dur of the Nth phase slice

tl_task_slices() {
	jqr "$1" "[.traceEvents[] | select(.ph == \"X\" and .pid < 1073741824 and .cat != \"phase\")]
		| $2"
}

tl_negative() {
	jqr "$1" '[.traceEvents[] | select(.ph == "X") | select(.dur < 0)] | length'
}

tl_untiled() {
	tl_task_slices "$1" 'group_by(.tid) | map(sort_by(.ts) | . as $s | [range(1; length) |
		select(($s[.].ts - ($s[. - 1].ts + $s[. - 1].dur)) | (if . < 0 then -. else . end)
		> 0.0015)] | length) | add // 0'
}

tl_lane_overlaps() {
	# (sorted by begin, then length: a request of no length may begin where the one before ended)
	jq -c '[.traceEvents[] | select(.cat == "request")] | group_by([.pid, .tid]) |
		map(sort_by(.ts, .dur) | . as $l | range(1; length) | select($l[.].ts < $l[. - 1].ts +
		$l[. - 1].dur - 0.0015) | [$l[. - 1], $l[.]]) | .[]' "$1"
}

tl_phase() {
	jqr "$1" "[.traceEvents[] | select(.cat == \"phase\")][$2].$3"
}
