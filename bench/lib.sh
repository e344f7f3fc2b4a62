# SPDX-License-Identifier: GPL-2.0
# Shared benchmark helpers: real kernel translation units and cc1 work
# measured with callgrind (instruction counts are stable on a busy machine).
#   . "$(dirname "$0")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../tests/lib.sh"

BENCH_VER=${KPLUG_BENCH_KERNEL:-6.12}
# Kernel TUs measured by default: small, medium and large.
BENCH_OBJS=${KPLUG_BENCH_OBJS:-"lib/string.o kernel/exit.o mm/filemap.o"}

# An x86_64 tinyconfig O= object tree of the cached kernel source, with
# BENCH_OBJS built once so that their .cmd files hold the exact commands.
bench_objtree() {
	local src obj="$CACHE/bench-linux-$BENCH_VER-x86_64"
	src=$(kernel_tree "$BENCH_VER") || return 1
	if [ ! -f "$obj/.ready" ]; then
		mkdir -p "$obj" &&
		make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >/dev/null &&
		make -s -C "$src" O="$obj" ARCH=x86_64 -j2 prepare >/dev/null &&
		touch "$obj/.ready" || return 1
	fi
	local o
	for o in $BENCH_OBJS; do
		[ -f "$obj/$(dirname "$o")/.$(basename "$o").cmd" ] ||
			make -s -C "$src" O="$obj" ARCH=x86_64 -j2 "$o" >/dev/null || return 1
	done
	echo "$obj"
}

# The compile command of OBJ (relative to the object tree) from its .cmd
# file (tests/kernel/kbuild-cmd.pl: up to the source, without the
# dependency output), writing to $OUT/bench.o, run by the compiler of the
# benchmark ($KCC: KPLUG_TEST_CC, gcc by default) instead of the gcc that
# configured the tree.
bench_cmd() {
	local cmd
	cmd=$(perl "$TOP/tests/kernel/kbuild-cmd.pl" --cc "$KCC" "$2" "$1") || return 1
	echo "$cmd -o $OUT/bench.o"
}

# Instructions executed by cc1 for one compile:
#   callgrind_cc1 OBJTREE "COMMAND LINE" [EXTRA FLAGS...]
callgrind_cc1() {
	local objtree=$1 cmd=$2 d total f
	shift 2
	d=$(mktemp -d "$OUT/cg.XXXXXX")
	(cd "$objtree" && valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file="$d/cg.%p" bash -c "$cmd $*" >/dev/null 2>"$d/log") || {
		echo "callgrind run failed: $cmd $*" >&2; grep -v '^==' "$d/log" | tail -5 >&2; return 1; }
	total=0
	for f in "$d"/cg.*; do
		grep -q '^cmd: .*cc1 ' "$f" || continue
		total=$((total + $(sed -n 's/^summary: \([0-9]*\).*/\1/p;s/^totals: \([0-9]*\).*/\1/p' "$f" | head -1)))
	done
	rm -rf "$d"
	echo "$total"
}

# A private copy of kplug.so, so that a rebuild during the run changes nothing.
# (A directory of its own per run: copying over a kplug.so that another run
# has mapped would crash that run's cc1.)
bench_plugin() {
	local d
	d=$(mktemp -d "$OUT/bench-plugin.XXXXXX") && cp "$KPLUG" "$d/kplug.so" &&
		echo "$d/kplug.so"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }
