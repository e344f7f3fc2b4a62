#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How kplug.so is linked (kplug-link.sh, the recipe the kernel's build
# shares): no libstdc++, only plugin_init and plugin_is_GPL_compatible
# exported, GCC symbols weak but for the version check's, and the one-line
# wrong-GCC message.  53-kernel-profiles.t checks the kernel-built plugin
# the same way.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/plugin-link.sh"

check_plugin_link standalone "$KPLUG" "make -C $TOP CC=gcc-11 clean install"

# kplug-link.sh's own checks stop a bad link with one line.
t=$(mktemp -d)
B=$TOP/build/gcc-$(gcc -dumpversion | cut -d. -f1)-$(gcc -dumpmachine)
objs=$(find "$B" -name '*.o' | sort)
inih=$(g++ -print-file-name=libinih.a)
mkdir -p "$t/config"
echo 'extern "C" void kplug_no_such_gcc_fn(void); void kplug_x(void) { kplug_no_such_gcc_fn(); }' >"$t/x.cc"
g++ -fPIC -c -o "$t/x.o" "$t/x.cc"
# shellcheck disable=SC2086
sh "$TOP/kplug-link.sh" "$t/kplug.so" gcc gcc "$inih" $objs "$t/x.o" 2>"$t/err"
ok $(($? != 0 ? 0 : 1)) "kplug-link.sh: a symbol cc1 does not export fails the link"
grep -qx "kplug: $t/kplug.so: uses kplug_no_such_gcc_fn, which $(gcc -print-prog-name=cc1) does not export (1 missing)" "$t/err"
ok $? "... with one line naming it"
printf '#include <string>\nstd::string *kplug_y(void) { return new std::string(80, 0); }\n' >"$t/config/y.cc"
g++ -fPIC -O2 -c -o "$t/config/y.o" "$t/config/y.cc"
# shellcheck disable=SC2086
sh "$TOP/kplug-link.sh" "$t/kplug.so" gcc g++ "$inih" $objs "$t/config/y.o" 2>"$t/err"
grep -qx "kplug: $t/kplug.so: needs libstdc++ (link it with a C driver, not g++)" "$t/err"
ok $? "kplug-link.sh: a libstdc++ dependency fails the link with one line"
test ! -e "$t/kplug.so"
ok $? "... and leaves no kplug.so behind"
rm -rf "$t"
done_testing
