#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The cc1 ratios on every compiler kplug supports, each measured side by
# side with its own baseline on the same kernel translation units:
#  - cyc.sh: kplug loaded and idle (target <= 1.005), cyc_complexity
#    (<= 1.01), cyc_complexity embed=on (<= 1.01), against no plugin;
#  - sancov.sh: kplug sancov against that GCC's native trace-pc (<= 1.02),
#    with the .text and per-function parity checks;
#  - sancov-abi.sh, cc1 part: pc-guard and inline-8bit-counters against
#    kplug's trace-pc (<= 1.02 each).
# gcc-13 to gcc-16 run in their chroots (tools/toolchain-chroot), with
# valgrind from there; the kernel object tree is prepared once, on the host.
#
#   bench/compilers.sh   (KPLUG_BENCH_COMPILERS="gcc gcc-14" to pick
#                         compilers, KPLUG_BENCH_OBJS="a.o b.o" objects)
#
# Each ratio line is printed as "CC: <the script's line>", so that
# bench/all.sh lists every compiler's ratios in its table.  Exit status 0
# when every script ran and met its targets on every compiler.
. "$(dirname "$0")/lib.sh"
COMPILERS=${KPLUG_BENCH_COMPILERS:-gcc gcc-11 gcc-13 gcc-14 gcc-15 gcc-16}
bench_objtree >/dev/null || { echo "bench: cannot prepare kernel tree" >&2; exit 2; }

# on CC CMD...: CMD where CC lives, with KPLUG_TEST_CC=CC
on() {
	local cc=$1 suite
	shift
	suite=$("$TOP/tools/toolchain-chroot" suite "$cc") || return 2
	if [ "$suite" = host ]; then
		env KPLUG_TEST_CC="$cc" "$@"
	else
		"$TOP/tools/toolchain-chroot" run "$suite" env KPLUG_TEST_CC="$cc" "$@"
	fi
}

status=0
for cc in $COMPILERS; do
	on "$cc" bash -c ". '$TOP/tests/lib.sh' && kplug_so_for '$cc' >/dev/null" || {
		echo "bench: cannot build kplug.so for $cc" >&2; status=1; continue; }
	for s in cyc.sh sancov.sh sancov-abi.sh; do
		log=$OUT/compilers-$cc-${s%.sh}.log
		on "$cc" env KPLUG_BENCH_CC1_ONLY=1 bash "$TOP/bench/$s" >"$log" 2>&1
		rc=$?
		grep -E 'ratio|^total|^object' "$log" | sed "s/^/$cc: /"
		if [ $rc -ne 0 ]; then
			echo "$cc: bench/$s exited $rc (log: $log)"
			status=1
		fi
	done
done
exit $status
