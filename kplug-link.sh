#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kplug-link.sh OUT CC LINKER INIH OBJECT...: link kplug.so, the one recipe
# of the standalone build (Makefile) and of the kernel's
# (scripts/gcc-plugins/kplug/Makefile).
#
#   OUT     the plugin to write (kplug.so)
#   CC      the GCC it is for: its cc1 must export every GCC symbol used
#   LINKER  a C compiler driver (word-split: "ccache gcc" works) (gcc, $(HOSTCC)): with the C driver,
#           operator new/delete resolve to cc1's own and libstdc++ is
#           never loaded into cc1
#   INIH    libinih.a
#
# KPLUG_LDFLAGS (word-split) goes into the final link only: the Debian
# build's hardening flags (-Wl,-z,relro -Wl,-z,now).
#
# The recipe:
# - Every undefined GCC symbol becomes a weak reference, except those of
#   compat/version-check.o (what runs before the version check) and of
#   config/*.o (libc and inih only; a weak reference would not pull inih's
#   archive member in).  Loaded into another GCC, kplug.so then still
#   loads (GCC dlopen()s plugins with RTLD_NOW) and its version check names
#   both compilers, instead of dlopen() failing on the first symbol that
#   moved.
# - Only plugin_init and plugin_is_GPL_compatible are exported.
# Then it checks the result and fails with one "kplug: ..." line: an
# exported symbol too many, a libstdc++ dependency, or an undefined symbol
# that CC's cc1 does not export (a weak reference must not hide a symbol
# the right GCC lacks).
set -eu

die() { echo "kplug: $*" >&2; exit 1; }

[ $# -ge 5 ] || die "usage: kplug-link.sh OUT CC LINKER INIH OBJECT..."
out=$1 cc=$2 linker=$3 inih=$4
shift 4

tmp=$out.link.d
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp" "$out.tmp"' EXIT

# Undefined symbols: the weak candidates and the ones that stay strong;
# symbols one object defines for another are neither.
: >"$tmp/weak"
: >"$tmp/strong"
nm --defined-only "$@" | awk 'NF == 3 { print $3 }' >"$tmp/strong"
for o; do
	case $o in
	*/config/*.o | */compat/version-check.o | config/*.o | compat/version-check.o)
		list=$tmp/strong ;;
	*)	list=$tmp/weak ;;
	esac
	nm -u "$o" | awk '{ print $2 }' >>"$list"
done
sort -u "$tmp/strong" >"$tmp/strong.s"
sort -u "$tmp/weak" | comm -23 - "$tmp/strong.s" >"$tmp/weaken"

# One relocatable object, its undefined GCC symbols weakened, then linked.
$linker -nostdlib -r -o "$tmp/all.o" "$@"
objcopy --weaken-symbols="$tmp/weaken" "$tmp/all.o"
printf '{\n\tglobal: plugin_init; plugin_is_GPL_compatible;\n\tlocal: *;\n};\n' \
	>"$tmp/exports.map"
# shellcheck disable=SC2086
$linker ${KPLUG_LDFLAGS:-} -shared -Wl,--exclude-libs,ALL -Wl,--version-script="$tmp/exports.map" \
	-o "$out.tmp" "$tmp/all.o" "$inih"

# The checks.
exported=$(nm -D --defined-only "$out.tmp" | awk '{ print $3 }' | sort | tr '\n' ' ')
[ "$exported" = "plugin_init plugin_is_GPL_compatible " ] ||
	die "$out: exports more than plugin_init and plugin_is_GPL_compatible: $exported"
if readelf -d "$out.tmp" | grep -q 'NEEDED.*libstdc++'; then
	die "$out: needs libstdc++ (link it with a C driver, not $linker)"
fi
cc1=$($cc -print-prog-name=cc1)
[ -f "$cc1" ] || die "$cc: cannot find its cc1 ($cc1)"
nm -D --defined-only "$cc1" | awk '{ print $3 }' | sort -u >"$tmp/cc1"
# Unversioned undefined symbols are GCC's (libc's carry @GLIBC_...), but
# for the C runtime's optional hooks.
nm -D --undefined-only "$out.tmp" | awk '{ print $2 }' |
	grep -v -e @ -e '^_ITM_' -e '^__gmon_start__$' | sort -u |
	comm -23 - "$tmp/cc1" >"$tmp/missing"
[ ! -s "$tmp/missing" ] ||
	die "$out: uses $(head -n 1 "$tmp/missing"), which $cc1 does not export ($(wc -l <"$tmp/missing") missing)"
mv -f "$out.tmp" "$out"
