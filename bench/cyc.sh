#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cc1 work of kplug with no pass enabled and with cyc_complexity enabled,
# each against no plugin, on real kernel translation units (callgrind).
# Targets: <= 1.005 (loaded, nothing enabled), <= 1.01 (cyc_complexity) and
# <= 1.01 (cyc_complexity with its records embedded in the object, embed=on).
. "$(dirname "$0")/lib.sh"
[ -f "$KPLUG" ] || { echo "bench: build kplug.so first (make)" >&2; exit 2; }
KPLUG=$(bench_plugin) || exit 2
trap 'rm -rf "$(dirname "$KPLUG")"' EXIT
objtree=$(bench_objtree) || { echo "bench: cannot prepare kernel tree" >&2; exit 2; }

printf '%-16s %14s %14s %14s %14s %8s %8s %8s\n' object "no plugin" "kplug idle" "kplug cyc" \
	"cyc embed" idle cyc embed
sum_base=0 sum_idle=0 sum_cyc=0 sum_emb=0
for o in $BENCH_OBJS; do
	cmd=$(bench_cmd "$o" "$objtree")
	base=$(callgrind_cc1 "$objtree" "$cmd") || exit 2
	idle=$(callgrind_cc1 "$objtree" "$cmd" -fplugin="$KPLUG") || exit 2
	cyc=$(callgrind_cc1 "$objtree" "$cmd" -fplugin="$KPLUG" \
		-fplugin-arg-kplug-enable=cyc_complexity \
		-fplugin-arg-kplug-cyc_complexity-output=/dev/null) || exit 2
	emb=$(callgrind_cc1 "$objtree" "$cmd" -fplugin="$KPLUG" \
		-fplugin-arg-kplug-enable=cyc_complexity \
		-fplugin-arg-kplug-cyc_complexity-embed=on) || exit 2
	printf '%-16s %14d %14d %14d %14d %8s %8s %8s\n' "$o" "$base" "$idle" "$cyc" "$emb" \
		"$(ratio "$idle" "$base")" "$(ratio "$cyc" "$base")" "$(ratio "$emb" "$base")"
	sum_base=$((sum_base + base)); sum_idle=$((sum_idle + idle)); sum_cyc=$((sum_cyc + cyc))
	sum_emb=$((sum_emb + emb))
done
r_idle=$(ratio "$sum_idle" "$sum_base")
r_cyc=$(ratio "$sum_cyc" "$sum_base")
r_emb=$(ratio "$sum_emb" "$sum_base")
printf '%-16s %14d %14d %14d %14d %8s %8s %8s\n' total "$sum_base" "$sum_idle" "$sum_cyc" \
	"$sum_emb" "$r_idle" "$r_cyc" "$r_emb"
echo "cc1 work ratio, kplug loaded with no pass: $r_idle (target <= 1.005)"
echo "cc1 work ratio, kplug cyc_complexity:      $r_cyc (target <= 1.01)"
echo "cc1 work ratio, cyc_complexity embed=on:   $r_emb (target <= 1.01)"
awk -v a="$r_idle" -v b="$r_cyc" -v c="$r_emb" 'BEGIN { exit !(a <= 1.005 && b <= 1.01 && c <= 1.01) }'
