# SPDX-License-Identifier: GPL-2.0
# Shared helpers for kplug's TAP tests (bash).  Source it first thing:
#   . "$(dirname "$0")/lib.sh"
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SEEDS=${KPLUG_SEEDS:-$TOP/../shared/seeds}
KPLUG=${KPLUG_SO_PATH:-$TOP/kplug.so}
OUT=${KPLUG_TEST_OUT:-$TOP/tests/out}
CACHE=${KPLUG_CACHE:-$TOP/tests/out/cache}
mkdir -p "$OUT" "$CACHE"
_tap_n=0
_tap_fail=0

plan() { echo "1..$1"; }
ok() {	# ok COND-EXIT-STATUS DESCRIPTION
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_fail=$((_tap_fail + 1))
	fi
}
is() {	# is GOT EXPECTED DESCRIPTION
	if [ "$1" == "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:      $1"
		diag "expected: $2"
	fi
}
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $1"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /' >&2; }
done_testing() { echo "1..$_tap_n"; exit $((_tap_fail > 0)); }
quick() { [ -n "${KPLUG_QUICK:-}" ]; }

# Run gcc with kplug loaded; extra args follow.
kgcc() { ${KPLUG_TEST_CC:-gcc} -fplugin="$KPLUG" "$@"; }

# Extract /usr/src/linux-source-VER.tar.xz once into $CACHE/linux-VER
# (read-only use: build with O= or copy it).  Prints the path.
kernel_tree() {
	local ver=$1 dir="$CACHE/linux-$1" tmp
	if [ ! -f "$dir/.extracted" ]; then
		tmp=$(mktemp -d "$CACHE/.linux-$ver.XXXXXX") &&
		tar -C "$tmp" -xf "/usr/src/linux-source-$ver.tar.xz" &&
		touch "$tmp/linux-source-$ver/.extracted" &&
		{ mv -T "$tmp/linux-source-$ver" "$dir" 2>/dev/null || [ -f "$dir/.extracted" ]; } &&
		rm -rf "$tmp" || return 1
	fi
	echo "$dir"
}

# Extract GCC's sources (testsuite and gcc/) once into $CACHE/gcc-12.  Prints the path.
gcc_source() {
	local dir="$CACHE/gcc-12" tmp
	if [ ! -f "$dir/.extracted" ]; then
		tmp=$(mktemp -d "$CACHE/.gcc-12.XXXXXX") &&
		tar -C "$tmp" --strip-components=1 -xf /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz \
			--wildcards 'gcc-12.2.0/gcc/testsuite/gcc.c-torture/*' \
			'gcc-12.2.0/gcc/testsuite/gcc.dg/sancov/*' \
			'gcc-12.2.0/gcc/testsuite/gcc.dg/asan/sancov-1.c' \
			'gcc-12.2.0/gcc/sancov.cc' &&
		touch "$tmp/.extracted" &&
		{ mv -T "$tmp" "$dir" 2>/dev/null || [ -f "$dir/.extracted" ]; } &&
		rm -rf "$tmp" || return 1
	fi
	echo "$dir"
}

# Build the 2016 cyc_complexity plugin from the seed patch, with the Linux 6.1
# tree's gcc-common.h, for CC (default gcc).  Prints the .so path.
seed_cyc_plugin() {
	local cc=${1:-gcc} linux so src
	so="$CACHE/seed-cyc-$cc.so"
	src="$CACHE/cyc_complexity_plugin.c"
	if [ ! -f "$so" ]; then
		linux=$(kernel_tree 6.1) || return 1
		awk '/^diff --git a\/scripts\/gcc-plugins\/cyc_complexity_plugin.c/ { f = 1; next }
		     f && /^@@/ { body = 1; next }
		     body && (/^-- $/ || /^diff /) { exit }
		     body && /^\+/ { print substr($0, 2) }' \
			"$SEEDS"/004-*cyclomatic*.patch > "$src" || return 1
		grep -q 'Cyclomatic Complexity %d' "$src" || return 1
		g++ -shared -fPIC -fno-rtti -fno-exceptions -std=gnu++11 -O2 -w \
			-I"$($cc -print-file-name=plugin)/include" \
			-I"$linux/scripts/gcc-plugins" -o "$so.tmp" "$src" &&
			mv "$so.tmp" "$so" || return 1
	fi
	echo "$so"
}
