# The layers (docs/ARCHITECTURE.md): a file includes headers of its own layer or of a layer below
# it, never above. collect and report are siblings: neither includes the other. Top to bottom:
#   cli > workloads > engine > {collect, report} > summary > model > util
#
# witness: the source tree itself: each #include "..." of src/*/*.[ch] against the layer of the
#   header it names (docs/ARCHITECTURE.md's order); tolerance: exact (> 100 includes checked,
#   none going up); observed: not recorded
# (tables and one sed over all files, not a subshell or a process per header, file and include:
# those forks took 12-20 s on a loaded host)
declare -A rank=([cli]=7 [workloads]=6 [engine]=5 [collect]=4 [report]=4 [summary]=3 [model]=2
	[util]=1)
# header name -> its layer
declare -A layer_of
for h in src/*/*.h; do
	l=${h#src/}
	layer_of[${h##*/}]=${l%%/*}
done
bad=0 n=0
# "FILE HEADER" for each #include "HEADER" of each file (sed -s: ^ and F per file)
while read -r f inc; do
	from=${f#src/}
	from=${from%%/*}
	to=${layer_of[$inc]:-}
	[ -n "$to" ] || continue # system, bpf/ and generated headers
	n=$((n + 1))
	if [ "$to" != "$from" ] && [ "${rank[$to]:-0}" -ge "${rank[$from]:-0}" ]; then
		echo "  $f includes $inc ($to is not below $from)"
		bad=$((bad + 1))
	fi
done < <(sed -s -n '/^#include "[^"]*"/{F;s/^#include "\([^"]*\)".*/\1/p}' src/*/*.[ch] | paste -d' ' - -)
check "checked $n includes between layers" test "$n" -gt 100
check "every include goes down a layer or stays in it ($bad do not)" test "$bad" = 0
