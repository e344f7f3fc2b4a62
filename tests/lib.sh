# SPDX-License-Identifier: GPL-2.0
# Shared helpers for kplug's TAP tests (bash).  Source it first thing:
#   . "$(dirname "$0")/lib.sh"
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SEEDS=${KPLUG_SEEDS:-$TOP/../shared/seeds}
OUT=${KPLUG_TEST_OUT:-$TOP/tests/out}
# The sources of kplug-report, the files the Makefile's REPORT_SRCS lists:
# main.c and every .c of the folders of tools/report, and the JSON escaper.
REPORT_SRCS=("$TOP"/tools/report/*.c "$TOP"/tools/report/*/*.c "$TOP/config/kplug-json.c")
# The compiler of every test: KPLUG_TEST_CC (tests/harness.pl sets it for
# the files marked "# per-compiler"), and the kplug.so built for it.
KCC=${KPLUG_TEST_CC:-gcc}
# kplug.so for compiler CC: ./kplug.so for gcc, build/CC/kplug.so for
# another one; kplug_so_for brings it up to date (make) and prints it.
kplug_so_path() { if [ "$1" = gcc ]; then echo "$TOP/kplug.so"; else echo "$TOP/build/$1/kplug.so"; fi; }
kplug_so_for() {
	local so
	so=$(kplug_so_path "$1")
	# Two test files may build one compiler's plugin at once: one make
	# at a time per compiler, or one links while the other reads a
	# half-written kplug.so.tmp.  Never leave a stale plugin behind.
	mkdir -p "$TOP/build/locks" &&
	flock "$TOP/build/locks/$1" make -s -C "$TOP" CC="$1" KPLUG_SO="$so" plugin >&2 ||
		{ rm -f "$so"; return 1; }
	echo "$so"
}
KPLUG=${KPLUG_SO_PATH:-$(kplug_so_path "$KCC")}
CACHE=${KPLUG_CACHE:-$TOP/tests/out/cache}
mkdir -p "$OUT" "$CACHE"
_tap_n=0
_tap_fail=0
# The test's own standard output and error, kept for the TAP lines and
# their diagnostics, so that a verdict reaches the harness even when the
# command a check runs has its output redirected (check WHAT CMD >FILE).
# The harness reads until every copy of the test's output is closed: a
# process that outlives the test must not inherit them
# (tests/kernel/icecc-net.sh closes every descriptor above 2 for its
# daemons); check closes them for the command it runs.
# In a subshell (out=$(... a function that checks ...)), whose counts
# die with it, a check writes where ok does: to the subshell's own output,
# which its caller reads.
exec {TAP_OUT}>&1 {TAP_ERR}>&2
TAP_PID=$BASHPID

plan() { echo "1..$1"; }
# ok and is take a result already computed (a command's status is
# check's) and return it: "is GOT WANT WHAT || diag ..." explains a failure.
ok() {	# ok COND-EXIT-STATUS DESCRIPTION
	_tap_n=$((_tap_n + 1))
	_diag_mark
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_fail=$((_tap_fail + 1))
		return 1
	fi
}
# check DESCRIPTION COMMAND [ARG...]: one check, passed when COMMAND (a
# program or a shell function) exits 0.  The command is an argument, so
# that no line can come between it and its verdict, as it can in
# "cond; ok $? ...".  Redirections written after the check apply to the
# command alone.  A condition of several commands (a pipeline, "a && b",
# a negation) is a function named for what it checks.
check() {
	local what=$1
	shift
	check_exit 0 "$what" "$@"
}
# check_exit STATUS DESCRIPTION COMMAND [ARG...]: as check, passed when
# COMMAND exits with exactly STATUS ("grep -q" that must not match: 1; a
# refusal: the status the tool documents), never by not running (126,
# 127) or by a signal.
check_exit() {
	local want=$1 what=$2 rc
	shift 2
	"$@" {TAP_OUT}>&- {TAP_ERR}>&-
	rc=$?
	_verdict "$rc" "$want" "$what" "$@"
}
# _verdict GOT WANT DESCRIPTION COMMAND...: the TAP line of a check, on
# the test's own output whatever the caller redirected (in a subshell:
# where ok writes, see TAP_PID).
_verdict() {
	local got=$1 want=$2 what=$3 out=$TAP_OUT err=$TAP_ERR
	shift 3
	[ "$BASHPID" = "$TAP_PID" ] || { out=1; err=2; }
	if [ "$got" -eq "$want" ]; then
		ok 0 "$what" >&"$out" 2>&"$err"
		return 0
	fi
	ok 1 "$what" >&"$out" 2>&"$err"
	diag "exit status $got (wanted $want): $*" 2>&"$err"
	return 1
}
is() {	# is GOT EXPECTED DESCRIPTION
	if [ "$1" == "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:      $1"
		diag "expected: $2"
		return 1
	fi
}
# skip REASON: counted as skipped (never as passed); the harness lists
# every reason, and under CI=true counts each skip as a failure.
skip() { _tap_n=$((_tap_n + 1)); _diag_mark; echo "ok $_tap_n # SKIP $1"; }
# need_cmd CMD PACKAGE: true when CMD is installed, else one skip naming
# the package (make deps installs it).
need_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	skip "$1 not installed (apt-get install $2, or: make deps)"
	return 1
}
# need_seeds: true when the 2016 seed patches are at $SEEDS, else one skip.
need_seeds() {
	ls "$SEEDS"/004-*cyclomatic*.patch >/dev/null 2>&1 && return 0
	skip "the 2016 seed patches are not at $SEEDS (set KPLUG_SEEDS=DIR)"
	return 1
}
# diag LINE...: diagnostics on stderr; diag_in: the same for standard
# input.  Where the harness sets KPLUG_DIAG_LOG, they also go there, after
# a line "@N" for each check N, so that its summary can show what was
# said around a failed check.
_diag_mark() { [ -z "${KPLUG_DIAG_LOG:-}" ] || echo "@$_tap_n" >>"$KPLUG_DIAG_LOG"; }
_diag_log() { if [ -n "${KPLUG_DIAG_LOG:-}" ]; then tee -a "$KPLUG_DIAG_LOG"; else cat; fi; }
diag() { printf '%s\n' "$@" | diag_in; }
diag_in() { sed 's/^/# /' | _diag_log >&2; }
done_testing() { echo "1..$_tap_n"; exit $((_tap_fail > 0)); }
quick() { [ -n "${KPLUG_QUICK:-}" ]; }

# Run gcc with kplug loaded; extra args follow.
kgcc() { $KCC -fplugin="$KPLUG" "$@"; }
# The other compiler of KCC's pair (for version-mismatch checks), one that
# lives where KCC does: gcc <-> gcc-11 on the host, gcc-13 <-> gcc-14 in
# the trixie chroot, gcc-15 <-> gcc-16 in the sid chroot.
other_cc() {
	case $KCC in
	gcc-11) echo gcc ;;
	gcc-13) echo gcc-14 ;;
	gcc-14) echo gcc-13 ;;
	gcc-15) echo gcc-16 ;;
	gcc-16) echo gcc-15 ;;
	*) echo gcc-11 ;;
	esac
}

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

# scripts/gcc-plugins of the chroot's Linux 7.2 (gcc-common.h for GCC 13+),
# extracted once into $CACHE/gcc-plugins-7.2-ID, ID the tarball's
# size and date.  Prints the directory that holds scripts/gcc-plugins.
gcc_plugins_72() {
	local tar=/usr/src/linux-source-7.2.tar.xz id dir tmp
	id=$(stat -c '%s-%Y' "$tar") || return 1
	dir=$CACHE/gcc-plugins-7.2-$id
	if [ ! -f "$dir/.extracted" ]; then
		tmp=$(mktemp -d "$CACHE/.gcc-plugins.XXXXXX") &&
		tar -C "$tmp" --strip-components=1 -xf "$tar" \
			--wildcards 'linux-source-7.2/scripts/gcc-plugins/*' &&
		touch "$tmp/.extracted" &&
		{ mv -T "$tmp" "$dir" 2>/dev/null || [ -f "$dir/.extracted" ]; } &&
		rm -rf "$tmp" || return 1
	fi
	echo "$dir"
}

# Build the 2016 cyc_complexity plugin from the seed patch, with the Linux 6.1
# tree's gcc-common.h (7.2's for GCC 13+), for CC (default gcc).  Prints the
# .so path.
seed_cyc_plugin() {
	local cc=${1:-gcc} linux so src major gxx=g++ std=gnu++11
	so="$CACHE/seed-cyc-$cc.so"
	src="$CACHE/cyc_complexity_plugin-$cc.c"
	major=$($cc -dumpversion | cut -d. -f1)
	if [ ! -f "$so" ]; then
		if [ "$major" -ge 13 ]; then
			# GCC 13+: Linux 7.2's gcc-common.h knows them, and the
			# chroots have only g++-N (GCC 16 needs C++14 or later)
			linux=$(gcc_plugins_72) || return 1
			gxx=g++-$major std=gnu++17
		else
			linux=$(kernel_tree 6.1) || return 1
		fi
		awk '/^diff --git a\/scripts\/gcc-plugins\/cyc_complexity_plugin.c/ { f = 1; next }
		     f && /^@@/ { body = 1; next }
		     body && (/^-- $/ || /^diff /) { exit }
		     body && /^\+/ { print substr($0, 2) }' \
			"$SEEDS"/004-*cyclomatic*.patch > "$src" || return 1
		grep -q 'Cyclomatic Complexity %d' "$src" || return 1
		$gxx -shared -fPIC -fno-rtti -fno-exceptions -std=$std -O2 -w \
			-I"$($cc -print-file-name=plugin)/include" \
			-I"$linux/scripts/gcc-plugins" -o "$so.tmp" "$src" &&
			mv "$so.tmp" "$so" || return 1
	fi
	echo "$so"
}

# kplug_collect FILE|DIR...: the embedded cyc_complexity records as JSON
# Lines ("kplug-report collect").
kplug_collect() {
	"$TOP/tools/kplug-report" collect "$@"
}

# same_nonempty A B DESCRIPTION: one check that files A and B are byte-identical
# and that neither is missing or empty (two empty outputs of a build that did
# not happen are not "the same"; cmp -s of them passes).
same_nonempty() {
	local f
	for f in "$1" "$2"; do
		if [ ! -s "$f" ]; then
			ok 1 "$3"
			diag "$f is missing or empty"
			return 1
		fi
	done
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff "$1" "$2" | head -20 | diag_in
		return 1
	fi
}
