#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sancov parity with native -fsanitize-coverage=trace-pc,trace-cmp on
# kernel units, per function and callback (tests/sancov/parity.sh), with
# every compiler: the units of the shared x86_64 builds (Linux 6.12 with
# GCC 11 and 12, Linux 7.2 with GCC 13 to 16, 7.2's built by gcc-14),
# each compiled again from its kbuild command line by that compiler,
# natively and with kplug's sancov in place of the kernel's kplug flags.
# 32-sancov-parity.t and 49-sancov-parity-cc.t do the same on GCC's tests.
# One core, on what 51-kernel-build.t built (a "# runs alone" file, which the
# harness runs first): beside other files, never beside another kernel
# test reading those builds.
# lock: kernel-builds
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"

if quick; then
	skip "kernel builds (KPLUG_QUICK)"
	done_testing
fi

UNITS="fs/read_write.o kernel/exit.o mm/filemap.o"
W=$(mktemp -d "$OUT/k58.XXXXXX")
trap 'rm -rf "$W"' EXIT

# kernel_parity CC SUITE VER BUILD: parity of UNITS of BUILD, compiled by
# CC.  PARITY_KFLAGS (the self-check) goes to parity.sh.
kernel_parity() {
	local cc=$1 suite=$2 ver=$3 build=$4 run so out rc n
	run=()
	[ "$suite" = host ] || run=("$TOP/tools/toolchain-chroot" run "$suite")
	so=$(kplug_so_path "$cc")
	check "$cc: kplug.so built ($so)" "${run[@]}" make -s -C "$TOP" CC="$cc" KPLUG_SO="$so" plugin >"$W/make-$cc.log" 2>&1
	out=$("${run[@]}" env PARITY_KBUILD_DIR="$KOUT/$build" PARITY_KFLAGS="${PARITY_KFLAGS:-}" \
		bash "$TOP/tests/sancov/parity.sh" "$cc" "$so" -O2 "$W/$cc" $UNITS 2>&1)
	rc=$?
	diag "$cc, Linux $ver: $(tail -1 <<<"$out")"
	[ $rc -eq 0 ] || head -20 <<<"$out" | diag_in
	ok $rc "$cc, Linux $ver units: every function has native's callbacks"
	n=$(sed -n 's/^files \([0-9]*\) (dropped 0) .*/\1/p' <<<"$out")
	is "${n:-none}" "$(wc -w <<<"$UNITS")" "$cc: all $(wc -w <<<"$UNITS") units compiled both ways, none dropped"
	[ "${n:-0}" = "$(wc -w <<<"$UNITS")" ] || cat "$W/$cc"/*/n.err 2>/dev/null | head -5 | diag_in
}

# the builds, each once (51 made them: cached)
built=
# build_x86 VER: the x86_64 kernel of Linux VER (kt_build says whether
# it reused the cached build or how long it took)
build_x86() {
	case $1 in
	6.12)	kt_build_x86 ;;
	7.2)	kt_build_x86_72 ;;
	esac
}
build_once() {	# build_once VER
	case " $built " in *" $1 "*) return 0 ;; esac
	built="$built $1"
	check "Linux $1: x86_64 build" build_x86 "$1"
}

for cc in ${KPLUG_COMPILERS:-gcc gcc-11 gcc-13 gcc-14 gcc-15 gcc-16}; do
	# (toolchain-chroot suite prints nothing where it fails)
	suite=$("$TOP/tools/toolchain-chroot" suite "$cc")
	check "$cc: found (${suite:-nowhere})" test -n "$suite" || continue
	case $suite in
	host)	build_once 6.12 && kernel_parity "$cc" host 6.12 "$KT_X86" ;;
	*)	build_once 7.2 && kernel_parity "$cc" "$suite" 7.2 "$KT_X86_72" ;;
	esac
done

# The check can fail: kplug tracing less than native is caught.
build_once 7.2
out=$(PARITY_KFLAGS=-fplugin-arg-kplug-sancov-trace=pc kernel_parity gcc-14 trixie 7.2 "$KT_X86_72" 2>&1)
check "self-check: kplug with trace=pc only differs from native on the units" grep -q '^not ok .*every function has native' <<<"$out"
done_testing
