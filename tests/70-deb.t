#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages as a user meets them: "make deb" in a clean clone
# (dpkg-buildpackage, lintian), gcc-12-kplug and gcc-11-kplug pinned to the
# exact gcc-N/cpp-N build, dpkg -i, gcc -fplugin=kplug and kplug-report
# with no path, the man pages, kplug-kbuild apply from /usr/share/kplug on
# a small copy of a Linux 6.12 tree, a package pinned to another gcc-12
# build refused by dpkg, and dpkg -r removing every file.  The machine is
# left as it was found: the packages are removed at the end, also on
# failure (trap), and the test refuses to run over a kplug installed by
# hand or by package.
# lock: plugin-dir
# long
. "$(dirname "$0")/lib.sh"
# the compilers come from the distribution (debian/rules), never from the caller
unset KPLUG_DEB_GCCS
PKGS="gcc-12-kplug gcc-11-kplug kplug-tools"
ALL_PKGS="$PKGS gcc-12-kplug-dbgsym gcc-11-kplug-dbgsym kplug-tools-dbgsym"
FIX=$TOP/tests/fixtures
PLUG12=$(gcc-12 -print-file-name=plugin)
PLUG11=$(gcc-11 -print-file-name=plugin)

if [ "$(id -u)" != 0 ]; then
	skip "dpkg -i needs root (make check runs as root in CI)"
	done_testing
fi
installed() { dpkg-query -W -f='${Package} ${Status}\n' $ALL_PKGS 2>/dev/null | grep -v ' not-installed$'; }
before=$(installed)
is "$before" "" "no kplug package installed before the test (else: dpkg --purge $PKGS)"
# no_plugin_installed: neither GCC's plugin directory has a kplug.so
no_plugin_installed() { [ ! -e "$PLUG12/kplug.so" ] && [ ! -e "$PLUG11/kplug.so" ]; }
check "no kplug.so in the plugin directories before the test (else: make uninstall; make CC=gcc-11 uninstall)" \
	no_plugin_installed
[ -z "$before" ] && [ ! -e "$PLUG12/kplug.so" ] && [ ! -e "$PLUG11/kplug.so" ] || done_testing
plugdirs() { ls -A "$PLUG12" "$PLUG11"; }
plugdirs_before=$(plugdirs)

W=$(mktemp -d "$OUT/deb.XXXXXX")
cleanup() {
	# shellcheck disable=SC2086
	dpkg --purge $ALL_PKGS >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Bad input: without the packaging tools, one line naming the packages.
mkdir -p "$W/nopath"
msg=$(cd "$TOP" && PATH=$W/nopath /usr/bin/make -s deb 2>&1 | grep '^kplug:')
is "$msg" "kplug: make deb needs dpkg-dev, debhelper, fakeroot and lintian: apt-get install dpkg-dev debhelper fakeroot lintian (or: make deps)" \
	"make deb without the packaging tools: one line naming them"

check "git clone of the repository ($(git -C "$TOP" rev-parse --short HEAD))" git clone -q "$TOP" "$W/src"
make_deb() { (cd "$W/src" && nice -n 19 make deb DEB_OUT="$W/out"); }
check "make deb in the clean clone (dpkg-buildpackage, lintian --fail-on error,warning)" \
	make_deb >"$W/make-deb.log" 2>&1 || diag "$(tail -n 30 "$W/make-deb.log")"
is "$(sed -n 's/^Binary: //p' "$W/out/"*.changes 2>/dev/null)" \
	"gcc-11-kplug gcc-11-kplug-dbgsym gcc-12-kplug gcc-12-kplug-dbgsym kplug-tools kplug-tools-dbgsym" \
	"the packages built: Debian 12's gcc-12-kplug and gcc-11-kplug (and no other), kplug-tools"
deb=()
for p in $PKGS; do
	deb[${#deb[@]}]=$W/out/${p}_$(dpkg-parsechangelog -l "$W/src/debian/changelog" -S Version)_$(dpkg --print-architecture).deb
done
check "the packages: $PKGS" ls "${deb[@]}" >/dev/null

# lintian (make deb ran it): no error, no warning (overrides carry their
# reason); and it can fail: a package without its copyright file is an error.
is "$(grep -E '^[EW]: ' "$W/out/lintian.txt")" "" "lintian: no error and no warning"
diag "lintian: $(grep -c '^[A-Z]: ' "$W/out/lintian.txt") tags below warning, $(grep -c ' overridden ' "$W/out/lintian.txt") overridden"
mkdir -p "$W/bad"
dpkg-deb -R "${deb[0]}" "$W/bad/x" && rm "$W/bad/x/usr/share/doc/gcc-12-kplug/copyright" &&
	dpkg-deb -b "$W/bad/x" "$W/bad/gcc-12-kplug_0_amd64.deb" >/dev/null
# no_copyright_error DEB: lintian reports DEB's missing copyright file as an error
no_copyright_error() { lintian --fail-on none "$1" 2>&1 | grep '^E: gcc-12-kplug: no-copyright-file' >/dev/null; }
check "self-check: lintian reports a package without copyright file as an error" \
	no_copyright_error "$W/bad/gcc-12-kplug_0_amd64.deb"

# The pin: the exact gcc-N and cpp-N (cc1) build, as gcc-N-plugin-dev pins gcc-N.
# has_all TEXT STRING...: TEXT contains every STRING
has_all() {
	local text=$1 s
	shift
	for s; do grep -qF -- "$s" <<<"$text" || return 1; done
}
# holds_plugin V: the gcc-V-kplug package has kplug.so in gcc-V's plugin directory
holds_plugin() { dpkg-deb -c "$W/out/gcc-$1-kplug_"*.deb | grep " \.$(gcc-$1 -print-file-name=plugin)/kplug.so$" >/dev/null; }
for v in 12 11; do
	d=$(dpkg-deb -f "$W/out/gcc-$v-kplug_"*"_$(dpkg --print-architecture).deb" Depends)
	gv=$(dpkg-query -W -f='${Version}' "gcc-$v")
	cv=$(dpkg-query -W -f='${Version}' "cpp-$v")
	pin=$(dpkg-query -W -f='${Depends}' "gcc-$v-plugin-dev" | tr ',' '\n' | sed -n "s/^ *\(gcc-$v (= .*)\)$/\1/p")
	check "gcc-$v-kplug depends on gcc-$v (= $gv) and cpp-$v (= $cv), gcc-$v-plugin-dev's pin '$pin'" \
		has_all "$d" "gcc-$v (= $gv)" "cpp-$v (= $cv)" "$pin"
	check "gcc-$v-kplug holds kplug.so in gcc-$v -print-file-name=plugin" holds_plugin "$v"
done

# A gcc-12-kplug built against another gcc-12 build (its pin altered, as
# a build on another machine would have it): dpkg refuses to configure it.
dpkg-deb -R "${deb[0]}" "$W/other"
sed -i 's/^\(Depends: .*gcc-12 (= [^)]*\))/\1+other1)/; s/^\(Depends: .*cpp-12 (= [^)]*\))/\1+other1)/' \
	"$W/other/DEBIAN/control"
sed -i 's/^Version: .*/&+other1/' "$W/other/DEBIAN/control"
dpkg-deb -b "$W/other" "$W/gcc-12-kplug-other.deb" >/dev/null
check "a gcc-12-kplug pinned to another gcc-12 build" grep -q "gcc-12 (= $(dpkg-query -W -f='${Version}' gcc-12)+other1)" "$W/other/DEBIAN/control"
dpkg -i "$W/gcc-12-kplug-other.deb" >"$W/other.log" 2>&1
rc=$?
# refused_dependency RC: RC is 1, and $W/other.log names the unmet pin
refused_dependency() {
	[ "$1" = 1 ] && grep -q "dependency problems prevent configuration of gcc-12-kplug" "$W/other.log" &&
		grep -q "depends on gcc-12 (= .*+other1)" "$W/other.log"
}
check "dpkg -i refuses it: dependency problems (exit $rc)" refused_dependency "$rc"
diag "$(grep -A3 'dependency problems' "$W/other.log")"
is "$(dpkg-query -W -f='${Status}' gcc-12-kplug)" "install ok unpacked" "... and leaves it unconfigured"
dpkg --purge gcc-12-kplug >/dev/null 2>&1
is "$(installed)" "" "... purged again"

check "dpkg -i $PKGS" dpkg -i "${deb[@]}" >"$W/install.log" 2>&1 ||
	diag "$(cat "$W/install.log")"
dpkg -L $PKGS | sort -u >"$W/files"

cd "$FIX" || exit 1
is "$(gcc -fplugin=kplug -fplugin-arg-kplug-enable=cyc_complexity -O2 -c sample.c -o /dev/null 2>&1)" \
	"$(cat sample.O2.expected)" "gcc -fplugin=kplug (no path): the 2016 lines"
is "$(gcc-11 -fplugin=kplug -fplugin-arg-kplug-enable=cyc_complexity -O2 -c sample.c -o /dev/null 2>&1)" \
	"$(cat sample.O2.expected)" "gcc-11 -fplugin=kplug (no path): the 2016 lines"
gcc -fplugin=kplug -fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-format=jsonl \
	-fplugin-arg-kplug-cyc_complexity-output="$W/cyc.jsonl" -O2 -c sample.c -o /dev/null
top=$(kplug-report top -n 1 "$W/cyc.jsonl" 2>&1)
# names_top TOP: kplug-report is /usr/bin's, and TOP (its output) names
# the function of sample.O2.expected with the highest M
names_top() {
	[ "$(command -v kplug-report)" = /usr/bin/kplug-report ] &&
		grep -q "$(sort -k3,3n sample.O2.expected | tail -n 1 | sed 's/.*://')" <<<"$1"
}
check "kplug-report top (from /usr/bin) names the most complex function" names_top "$top"
check "the shipped profile /usr/share/kplug/config/ci-gate.ini loads" \
	gcc -fplugin=kplug -fplugin-arg-kplug-config=/usr/share/kplug/config/ci-gate.ini -O2 -c sample.c -o /dev/null >/dev/null 2>&1
# other_build_refused: gcc-12 exits 1 with gcc-11's kplug.so, naming the
# package to install (err: what it said)
other_build_refused() {
	err=$(gcc-12 -fplugin="$PLUG11/kplug.so" -x c -c /dev/null -o /dev/null 2>&1)
	[ $? = 1 ] && grep -q "rebuild it for this compiler: apt-get install gcc-12-kplug (this kplug.so is from gcc-11-kplug)" <<<"$err"
}
check "gcc-11's kplug.so in gcc-12: one line naming the package" other_build_refused
diag "$err"
cd "$W" || exit 1

# The man pages: found, rendered without a groff warning, the same as the build's.
for page in 7:kplug 1:kplug-report 1:kplug-kbuild; do
	is "$(man -w "${page#*:}")" "/usr/share/man/man${page%%:*}/${page#*:}.${page%%:*}.gz" "man -w ${page#*:}"
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 "${page%%:*}" "${page#*:}" 2>&1 >/dev/null)
	is "$w" "" "man ${page#*:}: no groff warning"
done
LC_ALL=C.UTF-8 MANWIDTH=200 man 7 kplug 2>/dev/null | grep -o 'fplugin-arg-kplug-[a-z_-]*[a-z]' | sort -u >"$W/man-opts"
gcc -fplugin=kplug -fplugin-arg-kplug-help -x c -c /dev/null -o /dev/null |
	sed -n 's/^    \([a-z_-]*\) (default .*/fplugin-arg-kplug-\1/p' | sort >"$W/help-opts"
# help_in_man: the help lists options, and kplug(7) has each of them
help_in_man() { [ -s "$W/help-opts" ] && [ -z "$(comm -13 "$W/man-opts" "$W/help-opts")" ]; }
check "every option of the installed plugin's help is in the installed kplug(7)" help_in_man

# kplug-kbuild from /usr/share/kplug on a small copy of Linux 6.12: the
# files check_tree reads and the files the hooks change.
k=$W/linux-6.12
files="Makefile scripts/Kbuild.include $(for p in /usr/share/kplug/kbuild/patches/linux-6.12/*.patch; do
	sed -n 's|^+++ b/||p' "$p" | head -n 1; done)"
# small_copy: $files of Linux 6.12 copied into $k (from the extracted
# tree unless something integrated kplug into it, else the tarball)
small_copy() {
	if [ -f "$CACHE/linux-6.12/.extracted" ] && [ ! -e "$CACHE/linux-6.12/scripts/gcc-plugins/kplug" ]; then
		mkdir -p "$k" && (cd "$CACHE/linux-6.12" && cp --parents $files "$k")
	else
		mkdir -p "$k" && tar -C "$k" --strip-components=1 -xf /usr/src/linux-source-6.12.tar.xz \
			$(printf 'linux-source-6.12/%s ' $files)
	fi
}
check "small copy of Linux 6.12 ($(wc -w <<<"$files") files)" small_copy
cp -a "$k" "$W/pristine"
# apply_installed TREE: /usr/bin's kplug-kbuild applies to TREE (msg: what it said)
apply_installed() { msg=$(kplug-kbuild apply "$1" 2>&1) && [ "$(command -v kplug-kbuild)" = /usr/bin/kplug-kbuild ]; }
check "kplug-kbuild apply (from /usr/bin)" apply_installed "$k"
diag "$msg"
# installed_sources_in TREE: TREE has /usr/share/kplug's sources and sources kplug's Kconfig
installed_sources_in() {
	cmp -s /usr/share/kplug/kplug.c "$1/scripts/gcc-plugins/kplug/kplug.c" &&
		cmp -s /usr/share/kplug/passes/sancov.c "$1/scripts/gcc-plugins/kplug/passes/sancov.c" &&
		grep -q 'source "scripts/gcc-plugins/kplug/Kconfig"' "$1/scripts/gcc-plugins/Kconfig"
}
check "the sources of /usr/share/kplug are in scripts/gcc-plugins/kplug, the hooks in place" installed_sources_in "$k"
check "apply points at the installed docs" grep -q 'see /usr/share/doc/kplug-tools/kbuild.md' <<<"$msg"
is "$(kplug-kbuild status "$k")" "integrated: $k (Linux 6.12), kplug sources match /usr/share/kplug" \
	"kplug-kbuild status: integrated, sources match /usr/share/kplug"
# reverted TREE: kplug-kbuild reverts TREE to $W/pristine
reverted() { kplug-kbuild revert "$1" >/dev/null && diff -r "$W/pristine" "$1" >/dev/null; }
check "kplug-kbuild revert: the copy as it was" reverted "$k"
is "$(kplug-kbuild apply "$W/nonexistent" 2>&1)" "kplug-kbuild: $W/nonexistent: no such directory" \
	"kplug-kbuild apply on a missing directory: one line"

# dpkg -r removes every file the packages installed.
check "dpkg -r $PKGS" dpkg -r $PKGS >"$W/remove.log" 2>&1
left=$(while read -r f; do [ -e "$f" ] && [ ! -d "$f" ] && echo "$f"; done <"$W/files")
is "$left" "" "no file of the packages is left"
is "$(plugdirs)" "$plugdirs_before" "the plugin directories as before the test"
check "no /usr/share/kplug" test ! -e /usr/share/kplug
check_exit 16 "man -w kplug: no page any more" man -w kplug >/dev/null 2>&1
is "$(installed | grep -v ' deinstall ok config-files$')" "" "dpkg -l: no kplug package installed"
done_testing
