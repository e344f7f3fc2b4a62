#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sancov's Clang modes (docs/sancov.md):
#  - libFuzzer executions until it finds the planted bug of
#    tests/sancov/abi-fuzz.c (one 32-bit and four byte comparisons), for a
#    harness built by GCC 12 with kplug (inline-8bit-counters,cmp and the PC
#    table) and by clang-14 -fsanitize=fuzzer, both -O2 and linked with the
#    same libFuzzer; the median over seeds 1..KPLUG_BENCH_SEEDS (default 15),
#    target GCC+kplug / clang <= 1.5;
#  - cc1 work (callgrind instruction counts of cc1 alone) of pc-guard and of
#    inline-8bit-counters against kplug's own trace-pc, on real kernel
#    translation units (bench/lib.sh), target <= 1.02 each.
# Usage: bench/sancov-abi.sh   (KPLUG_BENCH_OBJS="a.o b.o" to pick objects)
. "$(dirname "$0")/lib.sh"
[ -f "$KPLUG" ] || { echo "bench: build kplug.so first (make)" >&2; exit 2; }
KPLUG=$(bench_plugin) || exit 2
W=$(mktemp -d "$OUT/bench-abi.XXXXXX")
trap 'rm -rf "$(dirname "$KPLUG")" "$W"' EXIT
SEEDS=${KPLUG_BENCH_SEEDS:-15}
FUZZER=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
KSAN="-fplugin=$KPLUG -fplugin-arg-kplug-enable=sancov"
fail=0

# ---- libFuzzer: executions to the crash (host GCC and clang-14 only;
# KPLUG_BENCH_CC1_ONLY=1 leaves it out, as bench/compilers.sh does) ----
H=$TOP/tests/sancov/abi-fuzz.c
libfuzzer_ratio() {
	gcc -O2 -g -c "$H" -o "$W/g.o" $KSAN -fplugin-arg-kplug-sancov-trace=inline-8bit-counters,cmp \
		-fplugin-arg-kplug-sancov-pc-table=on && g++ "$W/g.o" "$FUZZER" -lpthread -lm -ldl -o "$W/gcc" &&
		clang-14 -O2 -g -c "$H" -o "$W/c.o" -fsanitize=fuzzer &&
		clang++-14 -fsanitize=fuzzer "$W/c.o" -o "$W/clang" ||
		{ echo "bench: cannot build the harnesses" >&2; exit 2; }

	# execs BINARY SEED: executions until the crash (fails if it did not crash)
	execs() {
		local out
		out=$("$1" -seed="$2" -runs=100000000 -print_final_stats=1 \
			-artifact_prefix="$W/" 2>&1) && return 1
		echo "$out" | grep -q 'deadly signal' || return 1
		echo "$out" | sed -n 's/^stat::number_of_executed_units: *//p'
	}
	median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

	printf '%6s %14s %14s\n' seed "gcc+kplug" clang-14
	: >"$W/g.txt"
	: >"$W/c.txt"
	for s in $(seq 1 "$SEEDS"); do
		g=$(execs "$W/gcc" "$s") || { echo "bench: gcc harness, seed $s: no crash" >&2; exit 2; }
		c=$(execs "$W/clang" "$s") || { echo "bench: clang harness, seed $s: no crash" >&2; exit 2; }
		printf '%6d %14d %14d\n' "$s" "$g" "$c"
		echo "$g" >>"$W/g.txt"
		echo "$c" >>"$W/c.txt"
	done
	mg=$(median <"$W/g.txt")
	mc=$(median <"$W/c.txt")
	r=$(ratio "$mg" "$mc")
	echo "libFuzzer executions to the crash ratio, GCC+kplug / clang-14 (median of $SEEDS seeds):" \
		"$r (target <= 1.5), gcc median $mg, clang median $mc"
	awk -v r="$r" 'BEGIN { exit !(r <= 1.5) }' || fail=1
}
[ -n "${KPLUG_BENCH_CC1_ONLY:-}" ] || libfuzzer_ratio

# ---- cc1 work against kplug's trace-pc ----
objtree=$(bench_objtree) || { echo "bench: cannot prepare kernel tree" >&2; exit 2; }
printf '%-16s %14s %14s %14s %8s %8s\n' object "kplug pc" pc-guard 8bit-counters guard 8bit
sum_pc=0 sum_g=0 sum_8=0
for o in $BENCH_OBJS; do
	cmd=$(bench_cmd "$o" "$objtree")
	pc=$(callgrind_cc1 "$objtree" "$cmd" $KSAN) || exit 2
	g=$(callgrind_cc1 "$objtree" "$cmd" $KSAN -fplugin-arg-kplug-sancov-trace=pc-guard) || exit 2
	e=$(callgrind_cc1 "$objtree" "$cmd" $KSAN -fplugin-arg-kplug-sancov-trace=inline-8bit-counters) || exit 2
	printf '%-16s %14d %14d %14d %8s %8s\n' "$o" "$pc" "$g" "$e" "$(ratio "$g" "$pc")" "$(ratio "$e" "$pc")"
	sum_pc=$((sum_pc + pc)) sum_g=$((sum_g + g)) sum_8=$((sum_8 + e))
done
rg=$(ratio "$sum_g" "$sum_pc")
r8=$(ratio "$sum_8" "$sum_pc")
echo "cc1 work ratio, kplug pc-guard / kplug pc: $rg (target <= 1.02)"
echo "cc1 work ratio, kplug inline-8bit-counters / kplug pc: $r8 (target <= 1.02)"
awk -v a="$rg" -v b="$r8" 'BEGIN { exit !(a <= 1.02 && b <= 1.02) }' || fail=1
exit $fail
