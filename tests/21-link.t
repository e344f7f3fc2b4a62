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
	! command -v gcc >/dev/null && ! command -v g++ >/dev/null
	ok $? "no plain gcc or g++ where $KCC lives"
	t=$(mktemp -d)
	make -s -C "$TOP" CC="$KCC" KPLUG_SO="$t/kplug.so" plugin >&2 && [ -f "$t/kplug.so" ]
	ok $? "make CC=$KCC builds kplug.so there nevertheless"
	rm -rf "$t"
fi
kplug_so_for "$other" >/dev/null
ok $? "make CC=$other (the other GCC of the pair)"
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
sh "$TOP/kplug-link.sh" "$t/kplug.so" "$KCC" "$KCC" "$inih" $objs "$t/x.o" 2>"$t/err"
ok $(($? != 0 ? 0 : 1)) "kplug-link.sh: a symbol cc1 does not export fails the link"
grep -qx "kplug: $t/kplug.so: uses kplug_no_such_gcc_fn, which $($KCC -print-prog-name=cc1) does not export (1 missing)" "$t/err"
ok $? "... with one line naming it"
printf '#include <string>\nstd::string *kplug_y(void) { return new std::string(80, 0); }\n' >"$t/config/y.cc"
$CXX -fPIC -O2 -c -o "$t/config/y.o" "$t/config/y.cc"
# shellcheck disable=SC2086
sh "$TOP/kplug-link.sh" "$t/kplug.so" "$KCC" "$CXX" "$inih" $objs "$t/config/y.o" 2>"$t/err"
grep -qx "kplug: $t/kplug.so: needs libstdc++ (link it with a C driver, not $CXX)" "$t/err"
ok $? "kplug-link.sh: a libstdc++ dependency fails the link with one line"
test ! -e "$t/kplug.so"
ok $? "... and leaves no kplug.so behind"
rm -rf "$t"
done_testing
