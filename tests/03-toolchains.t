#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The newer compilers' chroots (tools/toolchain-chroot): each suite's
# chroot can be made (or is cached) outside the checkout, holds the
# compilers the harness expects there and no plain gcc/g++ (so that
# "make CC=gcc-N" is what the per-compiler runs really test), and a second
# request reuses the cache.  A chroot that cannot be made fails here,
# naming the command, before the per-compiler files fail on it.
. "$(dirname "$0")/lib.sh"
TC=$TOP/tools/toolchain-chroot

# suite <- compilers it must have
declare -A HAS=([trixie]="gcc-13 gcc-14" [sid]="gcc-15 gcc-16")

for suite in trixie sid; do
	root=$("$TC" path "$suite" 2>"$OUT/03-$suite.err")
	rc=$?
	ok $rc "$suite: chroot made or cached ($TC path $suite)"
	[ $rc -eq 0 ] || diag_in <"$OUT/03-$suite.err"
	case $root in
	"$TOP"/*) ok 1 "$suite: the chroot ($root) is outside the checkout" ;;
	/?*) ok 0 "$suite: the chroot ($root) is outside the checkout" ;;
	*) ok 1 "$suite: the chroot is outside the checkout (no path printed)" ;;
	esac
	check "$suite: the chroot is complete" test -f "$root/.kplug-complete"
	again=$(timeout 20 "$TC" path "$suite" 2>/dev/null)
	is "$again" "$root" "$suite: a second request reuses the cached chroot"
	for cc in ${HAS[$suite]}; do
		is "$("$TC" suite "$cc")" "$suite" "$cc: the harness looks for it in $suite"
		v=$("$TC" run "$suite" "$cc" -dumpversion 2>&1)
		is "${v%%.*}" "${cc#gcc-}" "$cc: runs in the $suite chroot (version $v)"
		check "$cc: its plugin headers are installed" "$TC" run "$suite" test -f \
			"$("$TC" run "$suite" "$cc" -print-file-name=plugin)/include/plugin-version.h"
		check "$cc: g++-${cc#gcc-} is installed" "$TC" run "$suite" sh -c "command -v g++-${cc#gcc-}" >/dev/null
	done
	"$TC" run "$suite" sh -c 'command -v gcc || command -v g++' >"$OUT/03-plain" 2>&1
	rc=$?
	ok $((rc != 0 ? 0 : 1)) "$suite: no plain gcc or g++ (only gcc-N and g++-N)"
	[ $rc -ne 0 ] || diag_in <"$OUT/03-plain"
	# what run passes in: the checkout at its path, KPLUG_* variables, the cwd
	got=$(cd "$TOP/tests" && KPLUG_PROBE=x "$TC" run "$suite" sh -c 'echo "$PWD $KPLUG_PROBE ${HOME:-}"; test -f lib.sh && echo lib')
	is "$got" "$(cd "$TOP/tests" && pwd -P) x /root
lib" "$suite: run keeps the cwd and KPLUG_* variables, the checkout is there"
done
for cc in gcc gcc-11; do
	is "$("$TC" suite "$cc")" host "$cc: on the host"
done
check_exit 1 "an unknown compiler is refused" "$TC" suite gcc-99 >/dev/null 2>"$OUT/03-err"
check "... naming it" grep -q "no chroot is known to have 'gcc-99'" "$OUT/03-err"
done_testing
