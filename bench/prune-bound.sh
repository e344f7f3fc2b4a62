#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How few probes exact inference can need on the kernel units of
# bench/lib.sh (kbuild's settings: prune-session=kcov, prune-cuts=indirect),
# against their unpruned count: kplug's min and proven lower bounds, per
# function, from min's exact search (passes/probeset.c) as the
# -fdump-tree-all dump kplug_sancov1 prints it ("proven the fewest", or
# "not proven the fewest: at least N" where the search stopped).  Four models (docs/sancov.md):
#   shipped  probes at the start of a block with a statement (native's
#            places), a line inferred through the dominator trees;
#   edges    also on every CFG edge, in empty blocks and after every call
#            (places kplug does not use: edge probes need split edges);
#   strong   a probe implies a line when every path through it runs some
#            block of the line (a map format the report does not read);
#   both     edges and strong.
# The other three build kplug from this tree with bench/prune-bound.patch
# (a probe on an edge is counted, not emitted: their objects are not run).
# The patched kplug also appends "function probes bound blocks" per
# function to $KPLUG_BOUND_LOG when that is set, for a whole kernel build
# (make KPLUG=.../kplug.so; docs/sancov.md has the commands).
# Exit 1 when "both" keeps more probes than "shipped" in a function that
# both proved (a relaxed model can never need more).
# With "trace": the trace model instead (prune-observe=trace, prune-cuts=calls,
# as bench/prune.sh's trace table): the shipped kplug's min per function,
# against the proven fewest of the model that the patched kplug's search
# finds with far more work (KPLUG_BOUND_TRACE_WORK: the trace limits of
# passes/probeset.c raised, and no node limit below the exact search's); the gap
# in percent of the bound.  Exit 1 when the shipped min keeps fewer probes
# than the bound in a function (the bound would be no bound).  Then the
# trace model's min on the graph of kbuild's indirect cuts, where it does
# not model recursion (KPLUG_BOUND_TRACE_ANY_CUTS): what a cheaper answer
# to recursion than cutting every call would buy.
# Usage: bench/prune-bound.sh [trace]   (KPLUG_BENCH_OBJS="a.o b.o" to pick objects)
. "$(dirname "$0")/lib.sh"
case ${1:-set} in
set | trace) model_of=${1:-set} ;;
*) echo "bench: unknown mode '$1' (set or trace)" >&2; exit 2 ;;
esac
[ "$model_of" = set ] || [ -f "$KPLUG" ] || { echo "bench: build kplug.so first (make)" >&2; exit 2; }
W=$(mktemp -d "$OUT/bench-bound.XXXXXX")
trap 'rm -rf "$W"' EXIT
objtree=$(bench_objtree) || { echo "bench: cannot prepare kernel tree" >&2; exit 2; }

# a patched copy of this tree's sources, built
mkdir -p "$W/src" "$W/plugin"
(cd "$TOP" && git ls-files -z | grep -zv '^tests/' | xargs -0 cp --parents -t "$W/src") ||
	{ echo "bench: cannot copy the sources" >&2; exit 2; }
(cd "$W/src" && patch -s -p1 <"$TOP/bench/prune-bound.patch") ||
	{ echo "bench: bench/prune-bound.patch does not apply to this tree any more" >&2; exit 2; }
make -s -C "$W/src" kplug.so >"$W/build.log" 2>&1 ||
	{ echo "bench: the patched kplug does not build (see below)" >&2; tail -5 "$W/build.log" >&2; exit 2; }
cp "$W/src/kplug.so" "$W/plugin/kplug.so" || exit 2

if [ "$model_of" = trace ]; then	# the shipped kplug, beside the patched one
	mkdir -p "$W/shipped" && cp "$KPLUG" "$W/shipped/kplug.so" || exit 2
fi
SETTINGS="-fplugin-arg-kplug-enable=sancov -fplugin-arg-kplug-sancov-prune-session=kcov"
if [ "$model_of" = trace ]; then
	SETTINGS+=" -fplugin-arg-kplug-sancov-prune-cuts=calls -fplugin-arg-kplug-sancov-prune-observe=trace"
else
	SETTINGS+=" -fplugin-arg-kplug-sancov-prune-cuts=indirect"
fi
KCOV="-fplugin=$W/plugin/kplug.so $SETTINGS"
probes() { objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__sanitizer_cov_trace_pc'; }

# bound MODEL MODEL-ENV...: "probes bound functions proven" summed over
# the units; per function "unit:function probes proven(0/1) bound" in
# $W/fn-MODEL.  The plugin: $PLUGIN, else the patched one; the settings:
# $BOUND_SETTINGS, else $SETTINGS.
bound() {
	local model=$1 o cmd d=$W/dump settings=${BOUND_SETTINGS:-$SETTINGS} kcov
	shift
	kcov="-fplugin=${PLUGIN:-$W/plugin/kplug.so} $settings"
	for o in $BENCH_OBJS; do
		cmd=$(bench_cmd "$o" "$objtree")
		rm -rf "$d" && mkdir -p "$d"
		(cd "$objtree" && eval "env $* $cmd $kcov -fplugin-arg-kplug-sancov-prune=min \
			-fdump-tree-all -dumpdir $d/") || { echo "bench: $o: build failed" >&2; return 1; }
		sed "s|^;; Function \([^ ]*\) .*|;; Function $o:\1|" "$d"/*.kplug_sancov1
	done | awk -v fns="$W/fn-$model" '
	/^;; Function / { f = $3; next }
	/^;; kplug sancov-prune=min( \(trace\))?: / {
		k = $4 == "(trace):" ? 5 : 4
		n++; p += $k
		if (/, proven the fewest$/) { b += $k; ok++; print f, $k, 1, $k > fns }
		else if (/, not proven the fewest: at least [0-9]+$/) { b += $NF; print f, $k, 0, $NF > fns }
		else { print "bench: unexpected dump line: " $0 > "/dev/stderr"; exit 1 }
	} END { printf "%d %d %d %d\n", p, b, n, ok }'
}

off=0
for o in $BENCH_OBJS; do
	cmd=$(bench_cmd "$o" "$objtree")
	(cd "$objtree" && eval "$cmd $KCOV -fplugin-arg-kplug-sancov-prune=off") || exit 2
	off=$((off + $(probes "$OUT/bench.o")))
done
echo "kernel units ($BENCH_OBJS): $off probes unpruned"
# KPLUG_BOUND_WORK: the exact search's PS_EXACT_WORK (passes/probeset.c),
# 25 times a build's
work=KPLUG_BOUND_WORK=200000000

if [ "$model_of" = trace ]; then
	# KPLUG_BOUND_TRACE_WORK: the trace model's exact search's work,
	# 200,000 times a build's (PS_TRACE_EXACT_WORK; some 20 s in a function
	# it cannot finish), in functions of up to 400 nodes instead of 12;
	# and 256 rounds of its local search instead of 16
	twork=KPLUG_BOUND_TRACE_WORK=${KPLUG_BOUND_TRACE_WORK:-20000000000}
	read -r p _ n _ < <(PLUGIN=$W/shipped/kplug.so bound shipped) && [ "${n:-0}" -gt 0 ] ||
		{ echo "bench: shipped: no dump lines" >&2; exit 2; }
	read -r _ b nb ok < <(bound bound "$work" "$twork") && [ "${nb:-0}" -gt 0 ] ||
		{ echo "bench: bound: no dump lines" >&2; exit 2; }
	[ "$n" = "$nb" ] || { echo "bench: $n functions shipped, $nb bounded" >&2; exit 2; }
	echo "trace model (prune-observe=trace, prune-cuts=calls), probes kplug_sancov1 places:"
	printf '%-12s %8s %10s %10s %8s %s\n' "shipped min" bound bound/off gap proven functions
	printf '%-12d %8d %10s %9s%% %8d %d\n' "$p" "$b" "$(ratio "$b" "$off")" \
		"$(awk -v p="$p" -v b="$b" 'BEGIN { printf "%.1f", 100 * (p - b) / b }')" "$ok" "$n"
	# the bound holds for every set, the shipped one included
	below=$(awk 'NR == FNR { lb[$1] = $4; next } $2 < lb[$1] {
		print "bench: " $1 ": shipped " $2 " probes, bound " lb[$1] > "/dev/stderr"; w++ }
		END { print w + 0 }' "$W/fn-bound" "$W/fn-shipped")
	echo "functions where the shipped min is below the bound: $below"
	[ "$below" = 0 ] || { echo "bench: a shipped set has fewer probes than the bound" >&2; exit 1; }
	# What a cheaper answer to recursion would buy: the trace model on the
	# graph of kbuild's indirect cuts (recursion not modelled there)
	read -r pi _ ni _ < <(BOUND_SETTINGS="-fplugin-arg-kplug-enable=sancov \
		-fplugin-arg-kplug-sancov-prune-session=kcov -fplugin-arg-kplug-sancov-prune-cuts=indirect" \
		bound indirect KPLUG_BOUND_TRACE_ANY_CUTS=1) && [ "${ni:-0}" -gt 0 ] ||
		{ echo "bench: indirect: no dump lines" >&2; exit 2; }
	echo "trace model with kbuild's indirect cuts (recursion not modelled): min places $pi"
	exit 0
fi
printf '%-8s %8s %8s %10s %8s %s\n' model probes bound bound/off proven functions
for model in shipped edges strong both; do
	case $model in
	shipped) vars="$work" ;;
	edges) vars="$work KPLUG_BOUND_EDGES=1" ;;
	strong) vars="$work KPLUG_BOUND_STRONG=1" ;;
	both) vars="$work KPLUG_BOUND_EDGES=1 KPLUG_BOUND_STRONG=1" ;;
	esac
	read -r p b n ok < <(bound $model $vars) && [ -n "$n" ] && [ "$n" -gt 0 ] ||
		{ echo "bench: $model: no dump lines" >&2; exit 2; }
	printf '%-8s %8d %8d %10s %8d %d\n' "$model" "$p" "$b" "$(ratio "$b" "$off")" "$ok" "$n"
done
echo "(bound: no exact probe set of the model has fewer probes; min <= 0.5 needs bound/off <= 0.5)"

# "both" only adds places and inference to "shipped": where both proved
# their min, both's can never be larger.
read -r compared worse < <(awk 'NR == FNR { if ($3) s[$1] = $2; next }
	$3 && ($1 in s) { n++; if ($2 > s[$1]) { w++; print "bench: " $1 ": both " $2 \
		" probes, shipped " s[$1] > "/dev/stderr" } }
	END { print n + 0, w + 0 }' "$W/fn-shipped" "$W/fn-both")
echo "both against shipped: $compared functions proven in both models, $worse with more probes in both"
[ "$worse" = 0 ] && [ "$compared" -gt 0 ] || { echo "bench: the relaxed model gave more probes" >&2; exit 1; }
