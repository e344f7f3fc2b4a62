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
# Usage: bench/prune-bound.sh   (KPLUG_BENCH_OBJS="a.o b.o" to pick objects)
. "$(dirname "$0")/lib.sh"
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

KCOV="-fplugin=$W/plugin/kplug.so -fplugin-arg-kplug-enable=sancov"
KCOV+=" -fplugin-arg-kplug-sancov-prune-session=kcov -fplugin-arg-kplug-sancov-prune-cuts=indirect"
probes() { objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__sanitizer_cov_trace_pc'; }

# bound MODEL MODEL-ENV...: "probes bound functions proven" summed over
# the units; per function "unit:function probes proven(0/1)" in $W/fn-MODEL.
bound() {
	local model=$1 o cmd d=$W/dump
	shift
	for o in $BENCH_OBJS; do
		cmd=$(bench_cmd "$o" "$objtree")
		rm -rf "$d" && mkdir -p "$d"
		(cd "$objtree" && eval "env $* $cmd $KCOV -fplugin-arg-kplug-sancov-prune=min \
			-fdump-tree-all -dumpdir $d/") || { echo "bench: $o: build failed" >&2; return 1; }
		sed "s|^;; Function \([^ ]*\) .*|;; Function $o:\1|" "$d"/*.kplug_sancov1
	done | awk -v fns="$W/fn-$model" '
	/^;; Function / { f = $3; next }
	/^;; kplug sancov-prune=min: / {
		n++; p += $4
		if (/, proven the fewest$/) { b += $4; ok++; print f, $4, 1 > fns }
		else if (/, not proven the fewest: at least [0-9]+$/) { b += $NF; print f, $4, 0 > fns }
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
printf '%-8s %8s %8s %10s %8s %s\n' model probes bound bound/off proven functions
# KPLUG_BOUND_WORK: the exact search's PS_EXACT_WORK (passes/probeset.c),
# 25 times a build's
work=KPLUG_BOUND_WORK=200000000
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
