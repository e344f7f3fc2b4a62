#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the coverage code itself costs GCC, without kplug: one generated C
# file (20 functions, 61 points each: the entry and every block of 40
# if-statements with loads, plus 20 plain statements), written by hand in
# four forms and compiled by plain gcc -Os (no plugin):
#   none   no coverage code
#   pc     __sanitizer_cov_trace_pc();
#   guard  __sanitizer_cov_trace_pc_guard(&guard[i]);  (arrays in __sancov_guards)
#   cntr   counter[i]++;                                 (arrays in __sancov_cntrs)
# Prints cc1 instructions (callgrind) and guard/pc, cntr/pc.  See
# docs/sancov.md ("cc1 work against kplug's own pc").
# Usage: bench/sancov-abi-hand.sh
. "$(dirname "$0")/lib.sh"
W=$(mktemp -d "$OUT/bench-hand.XXXXXX")
trap 'rm -rf "$W"' EXIT

gen() {
	awk -v mode="$1" -v F=20 -v N=40 '
	function pt(f, i) {
		if (mode == "pc") return "__sanitizer_cov_trace_pc();"
		if (mode == "guard") return sprintf("__sanitizer_cov_trace_pc_guard(&g%d[%d]);", f, i)
		if (mode == "cntr") return sprintf("c%d[%d]++;", f, i)
		return ""
	}
	BEGIN {
		print "struct s { int a[64]; int b[64]; struct s *next; };"
		print "void __sanitizer_cov_trace_pc(void); void __sanitizer_cov_trace_pc_guard(unsigned int *);"
		for (f = 0; f < F; f++) {
			if (mode == "guard")
				printf "static unsigned int g%d[%d] __attribute__((section(\"__sancov_guards\"),used));\n", f, 2 * N + 1
			if (mode == "cntr")
				printf "static unsigned char c%d[%d] __attribute__((section(\"__sancov_cntrs\"),used));\n", f, 2 * N + 1
			printf "int f%d(struct s *p, int x) {\n int y = 0; %s\n", f, pt(f, 0)
			i = 1
			for (j = 0; j < N; j++) {
				printf " if (p->a[%d] > x) { %s y += p->b[%d]; p = p->next; }\n", (j + f) % 64, pt(f, i), (j * 7 + f) % 64
				i++
				if (j % 2)
					printf " { %s y ^= p->a[%d]; }\n", pt(f, i), (j * 3 + f) % 64
				i++
			}
			print " return y; }"
		}
	}'
}

printf '%-6s %14s\n' form "cc1 instr"
for m in none pc guard cntr; do
	gen "$m" >"$W/$m.c"
	cc1=$(gcc -### -Os -fno-PIE -mcmodel=kernel -c "$W/$m.c" -o "$W/$m.o" 2>&1 | grep '/cc1 ' | tr -d '"')
	valgrind --tool=callgrind --callgrind-out-file="$W/cg.$m" $cc1 >/dev/null 2>"$W/log.$m" ||
		{ echo "bench: callgrind failed for $m" >&2; tail -5 "$W/log.$m" >&2; exit 2; }
	eval "n_$m=$(sed -n 's/^summary: //p;s/^totals: //p' "$W/cg.$m" | head -1)"
	eval "printf '%-6s %14d\n' $m \$n_$m"
done
echo "hand-written, plain gcc -Os: guard / pc $(ratio "$n_guard" "$n_pc"), cntr / pc $(ratio "$n_cntr" "$n_pc")"
