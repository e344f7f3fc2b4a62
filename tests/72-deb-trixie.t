#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages on Debian 13 (trixie), as tests/70 checks them on
# this Debian 12 host: "make deb" in a clean clone, run in the trixie
# chroot (tools/toolchain-chroot), builds gcc-14-kplug and gcc-13-kplug
# (the compilers follow the distribution: debian/control is written from
# debian/control.in for trixie's 14 and 13), each pinned to the chroot's
# exact gcc-N/cpp-N build and lintian-clean with trixie's lintian; then,
# in the chroot, dpkg -i, gcc-N -fplugin=kplug with no path for N = 13
# and 14, one compiler's kplug.so refused by the other naming the package,
# kplug-report and man, and dpkg -r removing every file.
#
# The chroot is minbase: gcc-N and g++-N, no build-essential (whose plain
# gcc and g++ would hide a call of gcc where gcc-N is meant), so
# dpkg-buildpackage runs with --ignore-builtin-builddeps; every
# Build-Depends of debian/control is still checked.  The chroot is a cache
# the tests share: the packages are purged at the end, also on failure
# (trap); a kplug package a killed run left behind is purged first.
# lock: plugin-dir
# long
. "$(dirname "$0")/lib.sh"
# the compilers come from the distribution (debian/rules), never from the caller
unset KPLUG_DEB_GCCS
TC=$TOP/tools/toolchain-chroot
GCCS="14 13"
PKGS="gcc-14-kplug gcc-13-kplug kplug-tools"
ALL_PKGS="$PKGS gcc-14-kplug-dbgsym gcc-13-kplug-dbgsym kplug-tools-dbgsym"
FIX=$TOP/tests/fixtures
ARCH=$(dpkg --print-architecture)

if [ "$(id -u)" != 0 ]; then
	skip "the trixie chroot and dpkg -i need root (make check runs as root in CI)"
	done_testing
fi
W=$(mktemp -d "$OUT/deb-trixie.XXXXXX")
trixie() { "$TC" run trixie "$@"; }
cleanup() {
	# shellcheck disable=SC2086
	[ -z "${root:-}" ] || trixie dpkg --purge $ALL_PKGS >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# debian/control for a list of compilers (no build: debian/rules in a copy).
mkdir -p "$W/gen/debian" && cp "$TOP/debian/control.in" "$TOP/debian/rules" "$W/gen/debian/"
gen() { (cd "$W/gen" && rm -f debian/control && make -s -f debian/rules debian/control "$@" >/dev/null &&
	sed -n 's/^Package: //p' debian/control | tr '\n' ' '); }
gen_err() { (cd "$W/gen" && make -s -f debian/rules debian/control "$@" 2>&1 >/dev/null | grep '^kplug:'); }
is "$(gen codename=trixie)" "gcc-14-kplug gcc-13-kplug kplug-tools " "debian/control for trixie: gcc-14-kplug gcc-13-kplug kplug-tools"
is "$(gen codename=bookworm)" "gcc-12-kplug gcc-11-kplug kplug-tools " "debian/control for bookworm: gcc-12-kplug gcc-11-kplug kplug-tools"
is "$(gen codename=trixie KPLUG_DEB_GCCS=13)" "gcc-13-kplug kplug-tools " "KPLUG_DEB_GCCS=13: gcc-13-kplug only"
# gxx13_only CONTROL: CONTROL's Build-Depends names g++-13, no @V@ left
gxx13_only() { grep -q '^ *g++-13,$' "$1" && ! grep -q '@V@' "$1"; }
check "... Build-Depends names g++-13, no placeholder left" gxx13_only "$W/gen/debian/control"
is "$(gen_err codename=forky)" \
	"kplug: no compilers known for Debian 'forky': make deb KPLUG_DEB_GCCS=\"N M\" (the gcc-N to package, newest first)" \
	"an unknown distribution: one line asking for KPLUG_DEB_GCCS"
is "$(gen_err KPLUG_DEB_GCCS='14 x')" 'kplug: KPLUG_DEB_GCCS: "x" is not a GCC major version' \
	"KPLUG_DEB_GCCS with a word that is no version: one line"

# The chroot (made once, cached): a chroot that cannot be made fails here.
root=$("$TC" path trixie 2>"$W/chroot.log")
rc=$?
ok $rc "the trixie chroot: $TC path trixie"
[ $rc = 0 ] || { diag "$(tail -n 20 "$W/chroot.log")"; root=; done_testing; }
diag "trixie chroot: $root"
installed() { trixie dpkg-query -W -f='${Package} ${Status}\n' $ALL_PKGS 2>/dev/null | grep -v ' not-installed$'; }
left=$(installed)
if [ -n "$left" ]; then
	diag "purging kplug packages an earlier run left in the chroot: $left"
	# shellcheck disable=SC2086
	trixie dpkg --purge $ALL_PKGS >/dev/null 2>&1
fi
declare -A PLUG
for v in $GCCS; do PLUG[$v]=$(trixie gcc-$v -print-file-name=plugin); done
# no_plugin_installed: both plugin directories of the chroot are there, without a kplug.so
no_plugin_installed() {
	[ -d "$root${PLUG[14]}" ] && [ -d "$root${PLUG[13]}" ] &&
		[ ! -e "$root${PLUG[14]}/kplug.so" ] && [ ! -e "$root${PLUG[13]}/kplug.so" ]
}
check "no kplug.so in the chroot's plugin directories ${PLUG[14]} and ${PLUG[13]} before the test" no_plugin_installed
plugdirs() { ls -A "$root${PLUG[14]}" "$root${PLUG[13]}"; }
plugdirs_before=$(plugdirs)

check "git clone of the repository ($(git -C "$TOP" rev-parse --short HEAD))" git clone -q "$TOP" "$W/src"
make_deb() {
	(cd "$W/src" && "$TC" run trixie nice -n 19 make deb DEB_OUT="$W/out" \
		DEB_BUILDPACKAGE_FLAGS=--ignore-builtin-builddeps)
}
check "make deb in the clean clone, in the trixie chroot (dpkg-buildpackage, lintian --fail-on error,warning)" \
	make_deb >"$W/make-deb.log" 2>&1 || diag "$(tail -n 30 "$W/make-deb.log")"
is "$(sed -n 's/^Binary: //p' "$W/out/"*.changes 2>/dev/null)" \
	"gcc-13-kplug gcc-13-kplug-dbgsym gcc-14-kplug gcc-14-kplug-dbgsym kplug-tools kplug-tools-dbgsym" \
	"the packages built: trixie's gcc-14-kplug and gcc-13-kplug (and no other), kplug-tools"
version=$(dpkg-parsechangelog -l "$W/src/debian/changelog" -S Version)
deb=()
for p in $PKGS; do deb[${#deb[@]}]=$W/out/${p}_${version}_$ARCH.deb; done
check "the package files: $PKGS" ls "${deb[@]}" >/dev/null

# lintian of trixie (make deb ran it in the chroot): no error, no warning;
# and it can fail: a package without its copyright file is an error.
# lintian_clean: make deb's lintian ran and reported no error and no warning (else they go to stderr)
lintian_clean() { [ -f "$W/out/lintian.txt" ] && ! grep -E '^[EW]: ' "$W/out/lintian.txt" >&2; }
check "lintian $(trixie lintian --version | sed 's/.* v*//') ran: no error and no warning" lintian_clean
diag "lintian: $(grep -c '^[A-Z]: ' "$W/out/lintian.txt") tags below warning, $(grep -c ' overridden ' "$W/out/lintian.txt") overridden"
mkdir -p "$W/bad"
dpkg-deb -R "${deb[0]}" "$W/bad/x" && rm "$W/bad/x/usr/share/doc/gcc-14-kplug/copyright" &&
	dpkg-deb -b "$W/bad/x" "$W/bad/gcc-14-kplug_0_$ARCH.deb" >/dev/null
# no_copyright_error DEB: trixie's lintian reports DEB's missing copyright file as an error
no_copyright_error() { trixie lintian --fail-on none "$1" 2>&1 | grep '^E: gcc-14-kplug: no-copyright-file' >/dev/null; }
check "self-check: trixie's lintian reports a package without copyright file as an error" \
	no_copyright_error "$W/bad/gcc-14-kplug_0_$ARCH.deb"

# The pin: the chroot's exact gcc-N and cpp-N (cc1) build, as its
# gcc-N-plugin-dev pins gcc-N; kplug.so in that gcc-N's plugin directory.
# depends_pinned DEPENDS V GV CV PIN: GV, CV and PIN are known, and DEPENDS
# has gcc-V (= GV), cpp-V (= CV) and PIN
depends_pinned() {
	[ -n "$3" ] && [ -n "$4" ] && [ -n "$5" ] && grep -qF "gcc-$2 (= $3)" <<<"$1" &&
		grep -qF "cpp-$2 (= $4)" <<<"$1" && grep -qF "$5" <<<"$1"
}
# holds_plugin V: the gcc-V-kplug package has kplug.so in the chroot's gcc-V plugin directory
holds_plugin() { dpkg-deb -c "$W/out/gcc-$1-kplug_${version}_$ARCH.deb" | grep " \.${PLUG[$1]}/kplug.so$" >/dev/null; }
for v in $GCCS; do
	d=$(dpkg-deb -f "$W/out/gcc-$v-kplug_${version}_$ARCH.deb" Depends)
	gv=$(trixie dpkg-query -W -f='${Version}' "gcc-$v")
	cv=$(trixie dpkg-query -W -f='${Version}' "cpp-$v")
	pin=$(trixie dpkg-query -W -f='${Depends}' "gcc-$v-plugin-dev" | tr ',' '\n' | sed -n "s/^ *\(gcc-$v (= .*)\)$/\1/p")
	check "gcc-$v-kplug depends on trixie's gcc-$v (= $gv) and cpp-$v (= $cv), gcc-$v-plugin-dev's pin '$pin'" \
		depends_pinned "$d" "$v" "$gv" "$cv" "$pin"
	diag "gcc-$v-kplug Depends: $d"
	check "gcc-$v-kplug holds kplug.so in ${PLUG[$v]} (gcc-$v -print-file-name=plugin in the chroot)" holds_plugin "$v"
done
is "$(dpkg-deb -f "$W/out/kplug-tools_${version}_$ARCH.deb" Recommends)" "gcc-14-kplug | gcc-13-kplug" \
	"kplug-tools recommends gcc-14-kplug | gcc-13-kplug"

check "dpkg -i $PKGS in the chroot" trixie dpkg -i "${deb[@]}" >"$W/install.log" 2>&1 ||
	diag "$(cat "$W/install.log")"
# shellcheck disable=SC2086
trixie dpkg -L $PKGS | sort -u >"$W/files"

cd "$FIX" || exit 1
for v in $GCCS; do
	is "$(trixie gcc-$v -fplugin=kplug -fplugin-arg-kplug-enable=cyc_complexity -O2 -c sample.c -o /dev/null 2>&1)" \
		"$(cat sample.O2.expected)" "gcc-$v -fplugin=kplug (no path) in the chroot: the 2016 lines"
done
# other_build_refused: gcc-14 exits 1 with gcc-13's kplug.so, naming the
# package to install (err: what it said)
other_build_refused() {
	err=$(trixie gcc-14 -fplugin="${PLUG[13]}/kplug.so" -x c -c /dev/null -o /dev/null 2>&1)
	[ $? = 1 ] && grep -q "rebuild it for this compiler: apt-get install gcc-14-kplug (this kplug.so is from gcc-13-kplug)" <<<"$err"
}
check "gcc-13's kplug.so in gcc-14: one line naming the package" other_build_refused
diag "$err"
trixie gcc-14 -fplugin=kplug -fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-format=jsonl \
	-fplugin-arg-kplug-cyc_complexity-output="$W/cyc.jsonl" -O2 -c sample.c -o /dev/null
top=$(trixie kplug-report top -n 1 "$W/cyc.jsonl" 2>&1)
# names_top TOP: the chroot's kplug-report is /usr/bin's, and TOP (its
# output) names the function of sample.O2.expected with the highest M
names_top() {
	[ "$(trixie sh -c 'command -v kplug-report')" = /usr/bin/kplug-report ] &&
		grep -q "$(sort -k3,3n sample.O2.expected | tail -n 1 | sed 's/.*://')" <<<"$1"
}
check "kplug-report top (from /usr/bin in the chroot) names the most complex function" names_top "$top"
is "$(trixie man -w kplug)" /usr/share/man/man7/kplug.7.gz "man -w kplug in the chroot"
cd "$W" || exit 1

# dpkg -r removes every file the packages installed.
# shellcheck disable=SC2086
check "dpkg -r $PKGS in the chroot" trixie dpkg -r $PKGS >"$W/remove.log" 2>&1 ||
	diag "$(cat "$W/remove.log")"
left=$(while read -r f; do [ -e "$root$f" ] && [ ! -d "$root$f" ] && echo "$f"; done <"$W/files")
# nothing_left: dpkg -L listed gcc-13's kplug.so, and no file it listed is left
nothing_left() { grep -q "^${PLUG[13]}/kplug.so$" "$W/files" && [ -z "$left" ]; }
check "no file of the packages is left in the chroot ($(wc -l <"$W/files") listed by dpkg -L)" nothing_left
[ -z "$left" ] || diag "left: $left"
is "$(plugdirs)" "$plugdirs_before" "the chroot's plugin directories as before the test"
check "no /usr/share/kplug in the chroot" test ! -e "$root/usr/share/kplug"
# shellcheck disable=SC2086
trixie dpkg --purge $ALL_PKGS >/dev/null 2>&1
is "$(installed)" "" "dpkg -l in the chroot: no kplug package after dpkg --purge"
done_testing
