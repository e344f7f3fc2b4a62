#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sancov on every compiler: per-function callbacks equal native
# -fsanitize-coverage=trace-pc,trace-cmp on tail.c, attrs.c and abi.c at
# five -O levels; -g changes nothing (-fcompare-debug, same callbacks);
# the cached declarations survive garbage collection.  (30-sancov.t keeps
# the host-only parts.)
# per-compiler
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/sancov/common.sh"
T=$(mktemp -d "$OUT/sancov-debug.XXXXXX")
S=$SANCOV_DIR
CMP="-fplugin-arg-kplug-sancov-trace=pc,cmp"

for opt in -O0 -Og -Os -O2 -O3; do
	for f in tail.c attrs.c abi.c; do
		# native instruments .noinstr.text functions too
		is "$(callbacks $KCC "$KPLUG" $opt "$S/$f" $CMP -fplugin-arg-kplug-sancov-float=on)" \
			"$(callbacks $KCC native $opt "$S/$f" | grep -v '^skip_noinstr trace_')" \
			"$KCC $opt $f: per-function callbacks equal native"
	done
done

# ---- -g changes nothing ----
for opt in -O0 -Og -Os -O2; do
	for f in tail.c abi.c "$(gcc_source)/gcc/testsuite/gcc.c-torture/execute/20000422-1.c"; do
		# GCC 14 made implicit declarations an error: torture files are gnu89
		std=-std=gnu89
		[ "${f#/}" = "$f" ] && f=$S/$f std=
		check "$KCC -fcompare-debug $opt $(basename "$f")" \
			$KCC $opt $std -g -fcompare-debug -w -c "$f" -o "$T/cd.o" -fplugin="$KPLUG" $KSANCOV $CMP
	done
	is "$(callbacks $KCC "$KPLUG" $opt "$S/tail.c" $CMP -g)" \
		"$(callbacks $KCC "$KPLUG" $opt "$S/tail.c" $CMP)" "$KCC $opt: -g gives the same callbacks"
done

# ---- the cached declarations survive garbage collection ----
check "$KCC: collection at every opportunity: no crash" $KCC -O2 -c "$S/abi.c" -o "$T/gc.o" \
	-fplugin="$KPLUG" $KSANCOV $CMP --param ggc-min-expand=0 --param ggc-min-heapsize=0
is "$(jumps "$T/gc.o")" "$($KCC -O2 -c "$S/abi.c" -o "$T/nogc.o" -fplugin="$KPLUG" $KSANCOV $CMP &&
	jumps "$T/nogc.o")" "$KCC: collection at every opportunity: same instrumentation"
rm -rf "$T"
done_testing
