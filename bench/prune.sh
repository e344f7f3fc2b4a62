#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sancov-prune (docs/sancov.md), measured side by side in one run:
#  - static probes on GCC's torture files at -O2 (every 14th file of
#    gcc.c-torture/compile and execute): kplug's clang and min against its
#    unpruned count, beside clang-14's -fsanitize-coverage=trace-pc against
#    trace-pc,no-prune on the same files.  Targets: kplug clang <= clang-14's
#    ratio, min below both;
#  - static probes on real kernel translation units (bench/lib.sh), with
#    sancov-prune-session=kcov and prune-cuts=indirect as kbuild builds
#    them: min <= 0.5;
#  - cc1 work (callgrind) of prune=min against prune=off on those units:
#    <= 1.02;
#  - the trace model (sancov-prune-observe=trace, every call cut) on those
#    units against the set model with the same cuts; its cc1 work against
#    prune=off: <= 1.01.
# Usage: bench/prune.sh   (KPLUG_BENCH_OBJS="a.o b.o" to pick kernel objects)
. "$(dirname "$0")/lib.sh"
[ -f "$KPLUG" ] || { echo "bench: build kplug.so first (make)" >&2; exit 2; }
KPLUG=$(bench_plugin) || exit 2
W=$(mktemp -d "$OUT/bench-prune.XXXXXX")
trap 'rm -rf "$(dirname "$KPLUG")" "$W"' EXIT
KSAN="-fplugin=$KPLUG -fplugin-arg-kplug-enable=sancov"
fail=0

# probes OBJ: trace-pc calls in OBJ
probes() { objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__sanitizer_cov_trace_pc'; }
within() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

# ---- torture files, -O2 ----
G=$(gcc_source)/gcc/testsuite || exit 2
mapfile -t FILES < <(ls "$G"/gcc.c-torture/compile/*.c "$G"/gcc.c-torture/execute/*.c |
	LC_ALL=C sort | awk 'NR % 14 == 1')
declare -A sum
n=0
for f in "${FILES[@]}"; do
	declare -A c=()
	for m in off clang min; do
		gcc -w -O2 -c "$f" -o "$W/$m.o" $KSAN -fplugin-arg-kplug-sancov-prune=$m \
			2>/dev/null || continue 2
		c[$m]=$(probes "$W/$m.o")
	done
	# Clang's rule alone, without the probes exact inference needs
	gcc -w -O2 -c "$f" -o "$W/rule.o" $KSAN -fplugin-arg-kplug-sancov-prune=clang \
		-fplugin-arg-kplug-sancov-prune-check=off 2>/dev/null || continue
	c[rule]=$(probes "$W/rule.o")
	clang-14 -w -O2 -c "$f" -o "$W/cp.o" -fsanitize-coverage=trace-pc 2>/dev/null &&
		clang-14 -w -O2 -c "$f" -o "$W/cn.o" -fsanitize-coverage=trace-pc,no-prune \
			2>/dev/null || continue
	# bb: every block, no critical edge split (like for like with GCC's blocks)
	clang-14 -w -O2 -c "$f" -o "$W/bp.o" -fsanitize-coverage=trace-pc,bb 2>/dev/null &&
		clang-14 -w -O2 -c "$f" -o "$W/bn.o" -fsanitize-coverage=trace-pc,bb,no-prune \
			2>/dev/null || continue
	c[cp]=$(probes "$W/cp.o")
	c[cn]=$(probes "$W/cn.o")
	c[bp]=$(probes "$W/bp.o")
	c[bn]=$(probes "$W/bn.o")
	for k in off clang min rule cp cn bp bn; do sum[$k]=$(( ${sum[$k]:-0} + ${c[$k]} )); done
	n=$((n + 1))
done
rc=$(ratio "${sum[clang]}" "${sum[off]}")
rm_=$(ratio "${sum[min]}" "${sum[off]}")
rcl=$(ratio "${sum[cp]}" "${sum[cn]}")
echo "torture -O2, $n files: kplug off ${sum[off]} clang ${sum[clang]} min ${sum[min]};" \
	"clang-14 no-prune ${sum[cn]} prune ${sum[cp]}; clang-14 bb,no-prune ${sum[bn]} bb ${sum[bp]}"
echo "torture static probes, absolute: kplug clang ${sum[clang]}, min ${sum[min]}; clang-14 trace-pc ${sum[cp]}, trace-pc,bb ${sum[bp]}"
echo "torture static probes ratio, clang-14 trace-pc,bb / trace-pc,bb,no-prune: $(ratio "${sum[bp]}" "${sum[bn]}") (no critical edge split, as GCC's blocks)"
echo "torture static probes ratio, kplug clang-pruned / unpruned: $rc (target <= $rcl, clang-14's trace-pc / trace-pc,no-prune)"
echo "torture static probes, Clang's rule alone (prune-check=off) / unpruned: $(ratio "${sum[rule]}" "${sum[off]}") (reported: no exact inference)"
lo=$(awk -v a="$rc" -v b="$rcl" 'BEGIN { print (a < b) ? a : b }')
echo "torture static probes ratio, kplug min / unpruned: $rm_ (target < $lo)"
within "$rc" "$rcl" || fail=1
awk -v m="$rm_" -v l="$lo" 'BEGIN { exit !(m < l) }' || fail=1

# ---- kernel units ----
objtree=$(bench_objtree) || { echo "bench: cannot prepare kernel tree" >&2; exit 2; }
KCOV="$KSAN -fplugin-arg-kplug-sancov-prune-session=kcov -fplugin-arg-kplug-sancov-prune-cuts=indirect"
printf '%-16s %8s %8s %8s %8s %8s %14s %14s %8s\n' object off clang min clang/off min/off \
	"cc1 off" "cc1 min" min/off
t_off=0 t_clang=0 t_min=0 cg_off=0 cg_min=0
for o in $BENCH_OBJS; do
	cmd=$(bench_cmd "$o" "$objtree")
	declare -A k=()
	for m in off clang min; do
		(cd "$objtree" && eval "$cmd $KCOV -fplugin-arg-kplug-sancov-prune=$m") ||
			{ echo "bench: $o: build failed with prune=$m" >&2; exit 2; }
		k[$m]=$(probes "$OUT/bench.o")
	done
	a=$(callgrind_cc1 "$objtree" "$cmd" $KCOV -fplugin-arg-kplug-sancov-prune=off) || exit 2
	b=$(callgrind_cc1 "$objtree" "$cmd" $KCOV -fplugin-arg-kplug-sancov-prune=min) || exit 2
	printf '%-16s %8d %8d %8d %8s %8s %14d %14d %8s\n' "$o" "${k[off]}" "${k[clang]}" "${k[min]}" \
		"$(ratio "${k[clang]}" "${k[off]}")" "$(ratio "${k[min]}" "${k[off]}")" "$a" "$b" \
		"$(ratio "$b" "$a")"
	t_off=$((t_off + k[off])); t_clang=$((t_clang + k[clang])); t_min=$((t_min + k[min]))
	cg_off=$((cg_off + a)); cg_min=$((cg_min + b))
done
# ---- the trace model (sancov-prune-observe=trace) on the same units ----
# It needs every call cut (recursion): against the set model with the same
# cuts, and against kbuild's set model (above).
KCALLS="$KSAN -fplugin-arg-kplug-sancov-prune-session=kcov -fplugin-arg-kplug-sancov-prune-cuts=calls"
printf '%-16s %8s %8s %8s %14s %14s %8s\n' object off set trace "cc1 off" "cc1 trace" trace/off
tr_off=0 tr_set=0 tr_min=0 cg_toff=0 cg_tmin=0
for o in $BENCH_OBJS; do
	cmd=$(bench_cmd "$o" "$objtree")
	declare -A k=()
	for m in off min:set min:trace; do
		extra=
		[ "$m" = off ] || extra=-fplugin-arg-kplug-sancov-prune-observe=${m#*:}
		(cd "$objtree" && eval "$cmd $KCALLS -fplugin-arg-kplug-sancov-prune=${m%%:*} $extra") ||
			{ echo "bench: $o: build failed with $m" >&2; exit 2; }
		k[$m]=$(probes "$OUT/bench.o")
	done
	a=$(callgrind_cc1 "$objtree" "$cmd" $KCALLS -fplugin-arg-kplug-sancov-prune=off) || exit 2
	b=$(callgrind_cc1 "$objtree" "$cmd" $KCALLS -fplugin-arg-kplug-sancov-prune=min \
		-fplugin-arg-kplug-sancov-prune-observe=trace) || exit 2
	printf '%-16s %8d %8d %8d %14d %14d %8s\n' "$o" "${k[off]}" "${k[min:set]}" "${k[min:trace]}" \
		"$a" "$b" "$(ratio "$b" "$a")"
	tr_off=$((tr_off + k[off])); tr_set=$((tr_set + k[min:set])); tr_min=$((tr_min + k[min:trace]))
	cg_toff=$((cg_toff + a)); cg_tmin=$((cg_tmin + b))
done
echo "kernel units, every call cut: set min $tr_set, trace min $tr_min of $tr_off unpruned;" \
	"trace / unpruned: $(ratio "$tr_min" "$tr_off") (target <= 0.45: reported)"
echo "cc1 instructions ratio, trace min / prune=off (calls cut): $(ratio "$cg_tmin" "$cg_toff") (target <= 1.01)"
within "$(ratio "$cg_tmin" "$cg_toff")" 1.01 || fail=1

km=$(ratio "$t_min" "$t_off")
kc=$(ratio "$t_clang" "$t_off")
cg=$(ratio "$cg_min" "$cg_off")
echo "kernel units static probes ratio, min / unpruned: $km (target <= 0.5)"
echo "kernel units static probes, clang / unpruned: $kc (reported)"
echo "cc1 instructions ratio, prune=min / prune=off: $cg (target <= 1.02)"
within "$km" 0.5 || fail=1
within "$cg" 1.02 || fail=1
exit $fail
