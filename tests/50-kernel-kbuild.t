#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbuild/kplug-kbuild apply/revert/status on fresh Linux 6.1, 6.12 and
# 7.2 trees (7.2: Debian 13's linux-source-7.2, from the trixie chroot): idempotent apply, exact revert, stale detection, and one clear
# message with a non-zero exit for each bad input (unknown version, not a
# kernel tree, local changes where a hook goes, a foreign
# scripts/gcc-plugins/kplug, missing cross plugin headers).
# long
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"

K=$KBUILD_TOOL
W=$KOUT/kbuild-t
rm -rf "$W" && mkdir -p "$W"

run() {	# run CMD...: sets RC and MSG (stdout + stderr)
	MSG=$("$@" 2>&1)
	RC=$?
}
# run_said RC PATTERN: the last run exited RC and said PATTERN
run_said() { [ "$RC" = "$1" ] && grep -q -- "$2" <<<"$MSG"; }
# source_tree VER: pristine is the cached Debian tree of VER
source_tree() { pristine=$(kt_source "$1"); }
# hooks_in_place TREE: TREE sources kplug's Kconfig and Makefile, and has its sources
hooks_in_place() {
	grep -q 'source "scripts/gcc-plugins/kplug/Kconfig"' "$1/scripts/gcc-plugins/Kconfig" &&
		grep -q 'Makefile.kplug' "$1/scripts/Makefile.gcc-plugins" &&
		test -f "$1/scripts/gcc-plugins/kplug/kplug.c" &&
		test -f "$1/scripts/gcc-plugins/kplug/passes/cyc_complexity.c"
}
# nothing_applied TREE: TREE has no kplug directory and pristine's Kconfig
nothing_applied() {
	[ ! -e "$1/scripts/gcc-plugins/kplug" ] &&
		cmp -s "$pristine/scripts/gcc-plugins/Kconfig" "$1/scripts/gcc-plugins/Kconfig"
}

for ver in 6.1 6.12 7.2; do
	check "$ver: cached Debian tree" source_tree "$ver"
	t=$W/linux-$ver
	# a real copy: a write into it can never reach the cached tree
	check "$ver: private copy of the tree" cp -a "$pristine" "$t"
	kconfig_sum=$(sha1sum <"$pristine/scripts/gcc-plugins/Kconfig")

	run "$K" status "$t"
	is "$RC:${MSG%%:*}" "1:not integrated" "$ver: status of a pristine tree: not integrated (exit 1)"
	run "$K" apply "$t"
	is "$RC" 0 "$ver: apply"
	check "$ver: hooks in place, kplug sources in scripts/gcc-plugins/kplug" hooks_in_place "$t"
	# 6.12 and 7.2: the KPLUG_KCOV_UNIQUE patches, inert unless that option is on
	n=$(cd "$t" && grep -l CONFIG_KPLUG_KCOV_UNIQUE kernel/kcov.c arch/x86/kernel/vmlinux.lds.S \
		scripts/module.lds.S 2>/dev/null | wc -l)
	is "$n" "$([ "$ver" != 6.1 ] && echo 3 || echo 0)" "$ver: KPLUG_KCOV_UNIQUE patches in kcov.c and the linker scripts: $n"
	is "$(sha1sum <"$pristine/scripts/gcc-plugins/Kconfig")" "$kconfig_sum" \
		"$ver: the cached tree's Kconfig is untouched by apply"
	check_exit 1 "$ver: ... while the copy's Kconfig changed" cmp -s "$pristine/scripts/gcc-plugins/Kconfig" "$t/scripts/gcc-plugins/Kconfig"
	run "$K" status "$t"
	is "$RC:${MSG%%:*}" "0:integrated" "$ver: status: integrated (exit 0)"
	run "$K" apply "$t"
	check "$ver: apply again: 'already integrated', exit 0" \
		run_said 0 'already integrated'
	is "$(cd "$t" && cat scripts/gcc-plugins/Kconfig scripts/Makefile.gcc-plugins | grep -c kplug)" 3 \
		"$ver: second apply added nothing"

	echo '/* local edit */' >>"$t/scripts/gcc-plugins/kplug/kplug.c"
	run "$K" status "$t"
	is "$RC:${MSG%%:*}" "2:stale" "$ver: status after a kplug source changed: stale (exit 2)"
	run "$K" apply "$t"
	check "$ver: apply refreshes the copied sources" cmp -s "$TOP/kplug.c" "$t/scripts/gcc-plugins/kplug/kplug.c"

	run "$K" revert "$t"
	is "$RC" 0 "$ver: revert"
	check "$ver: reverted tree identical to the pristine one" diff -r "$pristine" "$t" >"$W/diff-$ver.txt" 2>&1
	run "$K" revert "$t"
	check "$ver: revert of a pristine tree: nothing to do, exit 0" \
		run_said 0 'not integrated; nothing to revert'

	# Local changes where a hook goes: refuse and change nothing.
	sed -i 's/^# All the plugin CFLAGS are collected here/# Local: all plugin CFLAGS here/' \
		"$t/scripts/Makefile.gcc-plugins"
	run "$K" apply "$t"
	check "$ver: apply refuses local changes where a hook goes, naming the file" \
		run_said 1 "^kplug-kbuild: $t/scripts/Makefile.gcc-plugins: local changes where kplug's hook goes"
	check "$ver: ... and changes nothing" nothing_applied "$t"
	run "$K" status "$t"
	is "$RC:${MSG%%:*}" "2:conflict" "$ver: status: conflict (exit 2)"
	cp "$pristine/scripts/Makefile.gcc-plugins" "$t/scripts/Makefile.gcc-plugins"

	# A hook edited after apply: revert refuses.
	"$K" apply "$t" >/dev/null
	sed -i 's|^include $(srctree)/scripts/gcc-plugins/kplug/Makefile.kplug|include $(srctree)/x.mk|' \
		"$t/scripts/Makefile.gcc-plugins"
	run "$K" revert "$t"
	check "$ver: revert refuses a hook changed after apply" \
		run_said 1 'refusing to revert; nothing changed'
	sed -i 's|^include $(srctree)/x.mk|include $(srctree)/scripts/gcc-plugins/kplug/Makefile.kplug|' \
		"$t/scripts/Makefile.gcc-plugins"
	"$K" revert "$t" >/dev/null

	# A scripts/gcc-plugins/kplug that kplug-kbuild did not create.
	mkdir "$t/scripts/gcc-plugins/kplug"
	run "$K" apply "$t"
	check "$ver: apply refuses a foreign scripts/gcc-plugins/kplug" \
		run_said 1 'exists but was not created by kplug-kbuild'
	rmdir "$t/scripts/gcc-plugins/kplug"
	check "$ver: tree pristine after the refusals" diff -r "$pristine" "$t" >/dev/null 2>&1
done

# Unknown version and not a kernel tree.
fake=$W/linux-5.15
mkdir -p "$fake/scripts"
sed -e 's/^VERSION = .*/VERSION = 5/' -e 's/^PATCHLEVEL = .*/PATCHLEVEL = 15/' \
	"$(kernel_tree 6.12)/Makefile" >"$fake/Makefile"
cp "$(kernel_tree 6.12)/scripts/Kbuild.include" "$fake/scripts/"
run "$K" apply "$fake"
is "$RC:$MSG" "1:kplug-kbuild: $fake: Linux 5.15 is not supported (supported: 6.1, 6.12, 7.2)" \
	"unknown kernel version refused"
run "$K" status "$fake"
is "$RC" 1 "status of an unknown version: exit 1"
run "$K" apply "$W"
is "$RC:$MSG" "1:kplug-kbuild: $W: not a Linux source tree (no Makefile and scripts/Kbuild.include)" \
	"not a kernel tree refused"
run "$K" apply "$W/nonexistent"
is "$RC:$MSG" "1:kplug-kbuild: $W/nonexistent: no such directory" "missing directory refused"
run "$K" frobnicate "$fake"
is "$RC" 1 "unknown command: usage, exit 1"

# The C++ standard kplug.so is compiled with, per GCC major of $(CC):
# the Makefile's own line, evaluated by make (51 checks a gcc-14 build's
# .kplug.o.cmd).  GCC 16's plugin headers need C++14 or later.
std_line=$(grep '^kplug-cxx-std[[:space:]]*:=' "$TOP/kbuild/tree/scripts/gcc-plugins/kplug/Makefile")
check "kplug/Makefile picks the C++ standard in one line (kplug-cxx-std)" test -n "$std_line"
stds=
for m in 11 12 13 14 15 16 17; do
	stds="$stds $m:$(printf 'kplug-gcc-major := %s\n%s\nall: ; @echo $(kplug-cxx-std)\n' "$m" "$std_line" |
		make -s -f -)"
done
is "$stds" " 11:gnu++11 12:gnu++11 13:gnu++11 14:gnu++11 15:gnu++11 16:gnu++17 17:gnu++17" \
	"kplug.so's C++ standard per GCC: gnu++11 up to 15, gnu++17 from 16 on"

# Missing cross plugin headers: the build stops and names the package,
# where upstream's Kconfig would silently drop the plugin.
if quick; then
	skip "missing cross plugin headers (builds scripts/; KPLUG_QUICK)"
else
	fakecc=$W/fakecc
	mkdir -p "$fakecc"
	for tool in as ld ar nm objcopy objdump strip readelf; do
		ln -sf "$(command -v aarch64-linux-gnu-$tool)" "$fakecc/aarch64-linux-gnu-$tool"
	done
	cat >"$fakecc/aarch64-linux-gnu-gcc" <<'EOF'
#!/bin/sh
# aarch64-linux-gnu-gcc as if gcc-12-plugin-dev-aarch64-linux-gnu were missing
[ "$*" = -print-file-name=plugin ] && { echo /nonexistent/gcc-cross/plugin; exit 0; }
exec aarch64-linux-gnu-gcc "$@"
EOF
	chmod +x "$fakecc/aarch64-linux-gnu-gcc"
	t=$W/linux-6.12
	"$K" apply "$t" >/dev/null
	b=$W/build-noheaders
	mk() { make -C "$t" O="$b" ARCH=arm64 CROSS_COMPILE="$fakecc/aarch64-linux-gnu-" "$@"; }
	mk tinyconfig >"$W/noheaders.log" 2>&1 &&
		"$t/scripts/config" --file "$b/.config" -e GCC_PLUGINS -e GCC_PLUGIN_KPLUG &&
		mk olddefconfig >>"$W/noheaders.log" 2>&1
	check "no plugin headers: CONFIG_GCC_PLUGIN_KPLUG survives olddefconfig (no silent drop)" grep -qx 'CONFIG_GCC_PLUGIN_KPLUG=y' "$b/.config"
	check_exit 2 "no plugin headers: the build fails" mk -j2 scripts >>"$W/noheaders.log" 2>&1
	check "... naming the compiler and gcc-12-plugin-dev-aarch64-linux-gnu" grep -q 'kplug: no GCC plugin headers for .*aarch64-linux-gnu-gcc (GCC 12, aarch64-linux-gnu) in /nonexistent/gcc-cross/plugin/include: install gcc-12-plugin-dev-aarch64-linux-gnu' "$W/noheaders.log"
	grep 'kplug:' "$W/noheaders.log" | head -n 1 | diag_in
fi

done_testing
