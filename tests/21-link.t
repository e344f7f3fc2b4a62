#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How kplug.so is linked (kplug-link.sh, the recipe the kernel's build
# shares): no libstdc++, only plugin_init and plugin_is_GPL_compatible
# exported, GCC symbols weak but for the version check's, and the one-line
# wrong-GCC message (this compiler's plugin loaded into the other one of
# its pair, other_cc).  53-kernel-profiles.t checks the kernel-built
# plugin the same way.
# per-compiler
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/plugin-link.sh"

other=$(other_cc)
# The chroots have gcc-N and g++-N only: make CC=gcc-N finds its C++
# compiler and link driver by itself.
if [ "$KCC" != gcc ] && [ "$KCC" != gcc-11 ]; then
	no_plain_gcc() { ! command -v gcc >/dev/null && ! command -v g++ >/dev/null; }
	check "no plain gcc or g++ where $KCC lives" no_plain_gcc
	t=$(mktemp -d)
	# builds_plugin_into DIR: make CC=KCC writes DIR/kplug.so
	builds_plugin_into() {
		make -s -C "$TOP" CC="$KCC" KPLUG_SO="$1/kplug.so" plugin >&2 && [ -f "$1/kplug.so" ]
	}
	check "make CC=$KCC builds kplug.so there nevertheless" builds_plugin_into "$t"
	rm -rf "$t"
fi
check "make CC=$other (the other GCC of the pair)" kplug_so_for "$other" >/dev/null
check_plugin_link standalone "$KPLUG" "make -C $TOP CC=$other clean install" "$KCC" "$other"

# kplug-link.sh's own checks stop a bad link with one line.
t=$(mktemp -d)
B=$TOP/build/gcc-$($KCC -dumpversion | cut -d. -f1)-$($KCC -dumpmachine)
objs=$(find "$B" -name '*.o' | sort)
CXX=g++${KCC#gcc}
inih=$($CXX -print-file-name=libinih.a)
mkdir -p "$t/config"
echo 'extern "C" void kplug_no_such_gcc_fn(void); void kplug_x(void) { kplug_no_such_gcc_fn(); }' >"$t/x.cc"
$CXX -fPIC -c -o "$t/x.o" "$t/x.cc"
# shellcheck disable=SC2086
check_exit 1 "kplug-link.sh: a symbol cc1 does not export fails the link" \
	sh "$TOP/kplug-link.sh" "$t/kplug.so" "$KCC" "$KCC" "$inih" $objs "$t/x.o" 2>"$t/err"
check "... with one line naming it" grep -qx \
	"kplug: $t/kplug.so: uses kplug_no_such_gcc_fn, which $($KCC -print-prog-name=cc1) does not export (1 missing)" "$t/err"
printf '#include <string>\nstd::string *kplug_y(void) { return new std::string(80, 0); }\n' >"$t/config/y.cc"
$CXX -fPIC -O2 -c -o "$t/config/y.o" "$t/config/y.cc"
# shellcheck disable=SC2086
sh "$TOP/kplug-link.sh" "$t/kplug.so" "$KCC" "$CXX" "$inih" $objs "$t/config/y.o" 2>"$t/err"
check "kplug-link.sh: a libstdc++ dependency fails the link with one line" \
	grep -qx "kplug: $t/kplug.so: needs libstdc++ (link it with a C driver, not $CXX)" "$t/err"
check "... and leaves no kplug.so behind" test ! -e "$t/kplug.so"
rm -rf "$t"
done_testing
