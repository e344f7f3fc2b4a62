#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Clang's coverage modes (pc-guard, inline-8bit-counters, inline-bool-flag,
# each with the PC table) on every compiler: tests/sancov/abicount.sh
# checks per object that each mode has exactly as many points as kplug's
# trace-pc (guard calls, the load before each guard call, the sections'
# sizes, the PC table per function, the constructor), on kplug's sancov
# test files at -O0 and -O2; and every mode, with cmp, is -fcompare-debug
# clean.  34-sancov-abi.t checks the rest (libFuzzer, clang-14, other
# targets) with the host's GCC.
# per-compiler
. "$(dirname "$0")/lib.sh"
S=$TOP/tests/sancov
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for opt in -O0 -O2; do
	out=$(bash "$S/abicount.sh" "$KCC" "$KPLUG" "$opt" "$t/count$opt" \
		"$S/tail.c" "$S/attrs.c" "$S/abi.c" "$S/cross.c" 2>&1)
	rc=$?
	ok $rc "$opt: every Clang mode has trace-pc's points, object by object ($(echo "$out" | tail -1))"
	[ $rc -eq 0 ] || echo "$out" | head -20 | diag_in
done
for m in pc-guard inline-8bit-counters inline-bool-flag; do
	for opt in -O0 -O2; do
		check "$m,cmp $opt: -fcompare-debug clean" \
			$KCC $opt -g -fcompare-debug -w -c "$S/abi.c" -o "$t/cd.o" -fplugin="$KPLUG" \
			-fplugin-arg-kplug-enable=sancov -fplugin-arg-kplug-sancov-trace=$m,cmp \
			-fplugin-arg-kplug-sancov-pc-table=on 2>"$t/err" || diag_in <"$t/err"
	done
done
done_testing
