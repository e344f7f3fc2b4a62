#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sancov parity with native -fsanitize-coverage=trace-pc,trace-cmp on every
# compiler, per function and callback (tests/sancov/parity.sh): GCC's
# gcc.dg/sancov tests and a sample of the torture suite (every 88th file
# of compile/ and execute/, sorted: 40 files) at -O0 and -O2.  GCC 14 made
# gnu89's implicit declarations errors: -fpermissive there, both ways.
# 32-sancov-parity.t runs the larger sample and more -O levels with the
# host's GCC 12; 58-kernel-parity.t compares kernel units.
# per-compiler
# long
. "$(dirname "$0")/lib.sh"
# testsuite_dir: G is the GCC 12 testsuite, extracted once
testsuite_dir() { local src; src=$(gcc_source) && G=$src/gcc/testsuite; }
check "GCC 12 testsuite extracted" testsuite_dir || done_testing
SANCOV_TESTS=("$G"/gcc.dg/sancov/*.c)
mapfile -t SAMPLE < <(ls "$G"/gcc.c-torture/compile/*.c "$G"/gcc.c-torture/execute/*.c |
	LC_ALL=C sort | awk 'NR % 88 == 1')
[ "$($KCC -dumpversion | cut -d. -f1)" -lt 14 ] || export PARITY_CFLAGS=-fpermissive
W=$(mktemp -d "$OUT/parity-cc.XXXXXX")
trap 'rm -rf "$W"' EXIT
want=$((${#SANCOV_TESTS[@]} + ${#SAMPLE[@]}))

for opt in -O0 -O2; do
	out=$(bash "$TOP/tests/sancov/parity.sh" "$KCC" "$KPLUG" $opt "$W/p$opt" \
		"${SANCOV_TESTS[@]}" "${SAMPLE[@]}" 2>&1)
	rc=$?
	diag "$KCC $opt: $(tail -1 <<<"$out")"
	[ $rc -eq 0 ] || head -20 <<<"$out" | diag_in
	ok $rc "$KCC $opt: every function has native's callbacks, no jump to one"
	files=$(sed -n 's/^files \([0-9]*\) .*/\1/p' <<<"$out" | tail -1)
	# a few torture files are for other targets or need other options
	ok $((${files:-0} * 100 >= want * 95 ? 0 : 1)) "$KCC $opt: ${files:-0} of $want files compared (>= 95 %)"
done
done_testing
