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
grep -q '^ *g++-13,$' "$W/gen/debian/control" && ! grep -q '@V@' "$W/gen/debian/control"
ok $? "... Build-Depends names g++-13, no placeholder left"
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
[ -d "$root${PLUG[14]}" ] && [ -d "$root${PLUG[13]}" ] && [ ! -e "$root${PLUG[14]}/kplug.so" ] && [ ! -e "$root${PLUG[13]}/kplug.so" ]
ok $? "no kplug.so in the chroot's plugin directories ${PLUG[14]} and ${PLUG[13]} before the test"
plugdirs() { ls -A "$root${PLUG[14]}" "$root${PLUG[13]}"; }
plugdirs_before=$(plugdirs)

git clone -q "$TOP" "$W/src"
ok $? "git clone of the repository ($(git -C "$TOP" rev-parse --short HEAD))"
(cd "$W/src" && "$TC" run trixie nice -n 19 make deb DEB_OUT="$W/out" \
	DEB_BUILDPACKAGE_FLAGS=--ignore-builtin-builddeps) >"$W/make-deb.log" 2>&1
rc=$?
ok $rc "make deb in the clean clone, in the trixie chroot (dpkg-buildpackage, lintian --fail-on error,warning)"
[ $rc = 0 ] || diag "$(tail -n 30 "$W/make-deb.log")"
is "$(sed -n 's/^Binary: //p' "$W/out/"*.changes 2>/dev/null)" \
	"gcc-13-kplug gcc-13-kplug-dbgsym gcc-14-kplug gcc-14-kplug-dbgsym kplug-tools kplug-tools-dbgsym" \
	"the packages built: trixie's gcc-14-kplug and gcc-13-kplug (and no other), kplug-tools"
version=$(dpkg-parsechangelog -l "$W/src/debian/changelog" -S Version)
deb=()
for p in $PKGS; do deb[${#deb[@]}]=$W/out/${p}_${version}_$ARCH.deb; done
ls "${deb[@]}" >/dev/null
ok $? "the package files: $PKGS"

# lintian of trixie (make deb ran it in the chroot): no error, no warning;
# and it can fail: a package without its copyright file is an error.
ok $([ -f "$W/out/lintian.txt" ] && ! grep -E '^[EW]: ' "$W/out/lintian.txt" >&2; echo $?) \
	"lintian $(trixie lintian --version | sed 's/.* v*//') ran: no error and no warning"
diag "lintian: $(grep -c '^[A-Z]: ' "$W/out/lintian.txt") tags below warning, $(grep -c ' overridden ' "$W/out/lintian.txt") overridden"
mkdir -p "$W/bad"
dpkg-deb -R "${deb[0]}" "$W/bad/x" && rm "$W/bad/x/usr/share/doc/gcc-14-kplug/copyright" &&
	dpkg-deb -b "$W/bad/x" "$W/bad/gcc-14-kplug_0_$ARCH.deb" >/dev/null
trixie lintian --fail-on none "$W/bad/gcc-14-kplug_0_$ARCH.deb" 2>&1 | grep '^E: gcc-14-kplug: no-copyright-file' >/dev/null
ok $? "self-check: trixie's lintian reports a package without copyright file as an error"

# The pin: the chroot's exact gcc-N and cpp-N (cc1) build, as its
# gcc-N-plugin-dev pins gcc-N; kplug.so in that gcc-N's plugin directory.
for v in $GCCS; do
	d=$(dpkg-deb -f "$W/out/gcc-$v-kplug_${version}_$ARCH.deb" Depends)
	gv=$(trixie dpkg-query -W -f='${Version}' "gcc-$v")
	cv=$(trixie dpkg-query -W -f='${Version}' "cpp-$v")
	pin=$(trixie dpkg-query -W -f='${Depends}' "gcc-$v-plugin-dev" | tr ',' '\n' | sed -n "s/^ *\(gcc-$v (= .*)\)$/\1/p")
	[ -n "$gv" ] && [ -n "$cv" ] && [ -n "$pin" ] && grep -qF "gcc-$v (= $gv)" <<<"$d" &&
		grep -qF "cpp-$v (= $cv)" <<<"$d" && grep -qF "$pin" <<<"$d"
	ok $? "gcc-$v-kplug depends on trixie's gcc-$v (= $gv) and cpp-$v (= $cv), gcc-$v-plugin-dev's pin '$pin'"
	diag "gcc-$v-kplug Depends: $d"
	dpkg-deb -c "$W/out/gcc-$v-kplug_${version}_$ARCH.deb" | grep " \.${PLUG[$v]}/kplug.so$" >/dev/null
	ok $? "gcc-$v-kplug holds kplug.so in ${PLUG[$v]} (gcc-$v -print-file-name=plugin in the chroot)"
done
is "$(dpkg-deb -f "$W/out/kplug-tools_${version}_$ARCH.deb" Recommends)" "gcc-14-kplug | gcc-13-kplug" \
	"kplug-tools recommends gcc-14-kplug | gcc-13-kplug"

trixie dpkg -i "${deb[@]}" >"$W/install.log" 2>&1
rc=$?
ok $rc "dpkg -i $PKGS in the chroot"
[ $rc = 0 ] || diag "$(cat "$W/install.log")"
# shellcheck disable=SC2086
trixie dpkg -L $PKGS | sort -u >"$W/files"

cd "$FIX" || exit 1
for v in $GCCS; do
	is "$(trixie gcc-$v -fplugin=kplug -fplugin-arg-kplug-enable=cyc_complexity -O2 -c sample.c -o /dev/null 2>&1)" \
		"$(cat sample.O2.expected)" "gcc-$v -fplugin=kplug (no path) in the chroot: the 2016 lines"
done
err=$(trixie gcc-14 -fplugin="${PLUG[13]}/kplug.so" -x c -c /dev/null -o /dev/null 2>&1)
ok $([ $? = 1 ] && grep -q "rebuild it for this compiler: apt-get install gcc-14-kplug (this kplug.so is from gcc-13-kplug)" <<<"$err"; echo $?) \
	"gcc-13's kplug.so in gcc-14: one line naming the package"
diag "$err"
trixie gcc-14 -fplugin=kplug -fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-format=jsonl \
	-fplugin-arg-kplug-cyc_complexity-output="$W/cyc.jsonl" -O2 -c sample.c -o /dev/null
top=$(trixie kplug-report top -n 1 "$W/cyc.jsonl" 2>&1)
ok $([ "$(trixie sh -c 'command -v kplug-report')" = /usr/bin/kplug-report ] &&
	grep -q "$(sort -k3,3n sample.O2.expected | tail -n 1 | sed 's/.*://')" <<<"$top"; echo $?) \
	"kplug-report top (from /usr/bin in the chroot) names the most complex function"
is "$(trixie man -w kplug)" /usr/share/man/man7/kplug.7.gz "man -w kplug in the chroot"
cd "$W" || exit 1

# dpkg -r removes every file the packages installed.
# shellcheck disable=SC2086
trixie dpkg -r $PKGS >"$W/remove.log" 2>&1
rc=$?
ok $rc "dpkg -r $PKGS in the chroot"
[ $rc = 0 ] || diag "$(cat "$W/remove.log")"
left=$(while read -r f; do [ -e "$root$f" ] && [ ! -d "$root$f" ] && echo "$f"; done <"$W/files")
ok $(grep -q "^${PLUG[13]}/kplug.so$" "$W/files" && [ -z "$left" ]; echo $?) \
	"no file of the packages is left in the chroot ($(wc -l <"$W/files") listed by dpkg -L)"
[ -z "$left" ] || diag "left: $left"
is "$(plugdirs)" "$plugdirs_before" "the chroot's plugin directories as before the test"
[ ! -e "$root/usr/share/kplug" ]
ok $? "no /usr/share/kplug in the chroot"
# shellcheck disable=SC2086
trixie dpkg --purge $ALL_PKGS >/dev/null 2>&1
is "$(installed)" "" "dpkg -l in the chroot: no kplug package after dpkg --purge"
done_testing
