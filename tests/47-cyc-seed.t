#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cyc_complexity line for line against the 2016 plugin (the seed patch,
# built for this compiler: with Linux 6.1's gcc-common.h for GCC 11 and 12,
# 7.2's for GCC 13 to 16), on a sample of GCC's torture suite at -O0 and
# -O2, both plugins loaded into the same compile.  40-kernel-cyc.t does
# the same on every unit of a Linux 6.1 build with the host's GCC.
# per-compiler
. "$(dirname "$0")/lib.sh"
need_seeds || done_testing
seed=$(seed_cyc_plugin "$KCC" 2>"$OUT/47-seed-$KCC.log")
rc=$?
ok $rc "the 2016 plugin builds for $KCC ($seed)"
[ $rc -eq 0 ] || { diag_in <"$OUT/47-seed-$KCC.log"; done_testing; }
G=$(gcc_source)/gcc/testsuite/gcc.c-torture/compile
mapfile -t files < <(ls "$G"/*.c | LC_ALL=C sort | awk 'NR % 24 == 1')
perm=
[ "$($KCC -dumpversion | cut -d. -f1)" -lt 14 ] || perm=-fpermissive
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for O in -O0 -O2; do
	: >"$t/seed" && : >"$t/kplug"
	n=0
	for f in "${files[@]}"; do
		rm -f "$t/k"
		$KCC $O -w $perm -fplugin="$seed" -fplugin="$KPLUG" \
			-fplugin-arg-kplug-enable=cyc_complexity \
			-fplugin-arg-kplug-cyc_complexity-output="$t/k" \
			-c "$f" -o "$t/o.o" 2>"$t/err" || continue
		n=$((n + 1))
		grep '^Cyclomatic Complexity ' "$t/err" >>"$t/seed"
		[ ! -f "$t/k" ] || cat "$t/k" >>"$t/kplug"
	done
	ok $((n * 10 >= ${#files[@]} * 9 ? 0 : 1)) "$O: $n of ${#files[@]} torture files compiled with both plugins"
	ok $(($(wc -l <"$t/seed") > 50 ? 0 : 1)) "$O: the 2016 plugin reported $(wc -l <"$t/seed") functions"
	same_nonempty "$t/kplug" "$t/seed" "$O: kplug's lines equal the 2016 plugin's, line for line"
done
done_testing
