# The layers (docs/ARCHITECTURE.md): a file includes headers of its own layer or of a layer below
# it, never above. collect and report are siblings: neither includes the other. Top to bottom:
#   cli > workloads > engine > {collect, report} > summary > model > util
#
# witness: the source tree itself: each #include "..." of src/*/*.[ch] against the layer of the
#   header it names (docs/ARCHITECTURE.md's order); tolerance: exact (> 100 includes checked,
#   none going up); observed: not recorded
rank() {
	case $1 in
	cli) echo 7 ;; workloads) echo 6 ;; engine) echo 5 ;; collect | report) echo 4 ;;
	summary) echo 3 ;; model) echo 2 ;; util) echo 1 ;; *) echo 0 ;;
	esac
}
# header name -> its layer
declare -A layer_of
for h in src/*/*.h; do
	l=${h#src/}
	layer_of[$(basename "$h")]=${l%%/*}
done
bad=0 n=0
for f in src/*/*.[ch]; do
	from=${f#src/}
	from=${from%%/*}
	while read -r inc; do
		to=${layer_of[$inc]:-}
		[ -n "$to" ] || continue # system, bpf/ and generated headers
		n=$((n + 1))
		if [ "$to" != "$from" ] && { [ "$(rank "$to")" -ge "$(rank "$from")" ]; }; then
			echo "  $f includes $inc ($to is not below $from)"
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
check "checked $n includes between layers" test "$n" -gt 100
check "every include goes down a layer or stays in it ($bad do not)" test "$bad" = 0
