#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/same-output.sh [REV]: do kplug at REV (default HEAD) and the working
# tree write the same objects?  For a change that must not change what
# kplug emits (a refactoring): kplug.so is built at REV in a temporary
# worktree, and both plugins compile the same units with the same
# settings:
#   units:    the kernel units of bench/lib.sh (BENCH_OBJS, Linux 6.12
#             x86_64 tinyconfig, their kbuild command lines), the
#             fixtures and every 40th file of GCC's C torture suite, at -O2
#   settings: cyc_complexity (its stderr report), each sancov trace mode,
#             pc-table, pruning (clang, min, per block, kcov sessions) with
#             the coverage map, and cyc_complexity's embedded records
# The objects must be byte-identical (the embedded cyc records compared
# without their per-compile "run" id), the stderr the same.  Prints one
# line per setting and "N units x M settings: K differ"; exit 1 when any
# differs.
. "$(dirname "$0")/lib.sh"

rev=${1:-HEAD}
git -C "$TOP" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
	{ echo "same-output: $rev: not a commit" >&2; exit 2; }
W=$(mktemp -d "$OUT/same-output.XXXXXX")
trap 'git -C "$TOP" worktree remove --force "$W/rev" >/dev/null 2>&1; rm -rf "$W"' EXIT

git -C "$TOP" worktree add -q --detach "$W/rev" "$rev" &&
	make -s -C "$W/rev" kplug.so CC="$KCC" >"$W/make.log" 2>&1 ||
	{ echo "same-output: cannot build kplug.so at $rev (see $W/make.log)" >&2; tail -5 "$W/make.log" >&2; exit 2; }
# (GCC names a plugin after its file: both must be kplug.so)
mkdir -p "$W/old" "$W/new" &&
	cp "$W/rev/kplug.so" "$W/old/kplug.so" && cp "$KPLUG" "$W/new/kplug.so" || exit 2

A=-fplugin-arg-kplug
SETTINGS=(
	"$A-enable=cyc_complexity"
	"$A-enable=sancov $A-sancov-trace=pc,cmp"
	"$A-enable=sancov $A-sancov-trace=pc-guard $A-sancov-pc-table=on"
	"$A-enable=sancov $A-sancov-trace=inline-8bit-counters $A-sancov-pc-table=on $A-sancov-bss=on"
	"$A-enable=sancov $A-sancov-trace=inline-bool-flag $A-sancov-ctors=off"
	"$A-enable=sancov $A-sancov-trace=pc $A-sancov-prune=clang"
	"$A-enable=sancov $A-sancov-trace=pc-guard $A-sancov-prune=min $A-sancov-prune-session=kcov $A-sancov-prune-cuts=indirect"
	"$A-enable=sancov $A-sancov-trace=pc $A-sancov-prune=min $A-sancov-prune-exact=blocks $A-sancov-prune-cuts=none"
	"$A-enable=cyc_complexity,sancov $A-cyc_complexity-embed=on $A-sancov-trace=pc-guard $A-sancov-map=on"
)

# units: "DIR<TAB>COMMAND LINE" (the command compiles to the -o given after it)
units=()
if objtree=$(bench_objtree 2>/dev/null); then
	for o in $BENCH_OBJS; do
		cmd=$(perl "$TOP/tests/kernel/kbuild-cmd.pl" --cc "$KCC" "$objtree" "$o") || exit 2
		units+=("$objtree	$cmd")
	done
else
	echo "same-output: no kernel object tree: kernel units left out" >&2
fi
for f in "$TOP"/tests/fixtures/*.c; do
	units+=("$TOP/tests/fixtures	$KCC -O2 -c $f")
done
if src=$(gcc_source); then
	find "$src/gcc/testsuite/gcc.c-torture/compile" -maxdepth 1 -name '*.c' | LC_ALL=C sort |
		awk 'NR % 40 == 1' >"$W/torture"
	while read -r f; do
		units+=("$W	$KCC -O2 -w -c $f")
	done <"$W/torture"
fi

# the object without the embedded records, and the records without "run"
normalise() {
	[ -s "$1" ] || return 0
	objcopy --remove-section=.kplug.cyc "$1" "$1.code" 2>/dev/null || cp "$1" "$1.code"
	readelf -p .kplug.cyc "$1" 2>/dev/null | sed -E 's/"run":"[^"]*",//' >"$1.records"
}

ndiff=0 nset=0
for s in "${SETTINGS[@]}"; do
	nset=$((nset + 1)) d=0 n=0
	for u in "${units[@]}"; do
		dir=${u%%	*} cmd=${u#*	}
		for p in old new; do
			so=$W/$p/kplug.so
			# (bash -c: kbuild's command lines quote, e.g. -DKBUILD_MODNAME='"x"')
			(cd "$dir" && bash -c "$cmd -fplugin=$so $s -o $W/$p.o" 2>"$W/$p.err")
			echo "rc=$?" >>"$W/$p.err"
			sed -i "s|$so|kplug.so|g" "$W/$p.err"
			normalise "$W/$p.o"
		done
		n=$((n + 1))
		# (a compile that wrote no object differs: two failures are not equal output)
		if [ ! -s "$W/old.o" ] || [ ! -s "$W/new.o" ] ||
		   ! cmp -s "$W/old.o.code" "$W/new.o.code" || ! cmp -s "$W/old.o.records" "$W/new.o.records" ||
		   ! cmp -s "$W/old.err" "$W/new.err"; then
			d=$((d + 1))
			[ $d -le 3 ] && echo "  differs: ${cmd##* } with $s: $(tail -n 2 "$W/new.err" | tr '\n' ' ')" >&2
		fi
		rm -f "$W"/old.o* "$W"/new.o*
	done
	printf '%-3s %d of %d units differ: %s\n' "$nset" "$d" "$n" "$s"
	ndiff=$((ndiff + d))
done
echo "${#units[@]} units x $nset settings: $ndiff differ (kplug at $(git -C "$TOP" rev-parse --short "$rev") against the working tree)"
[ $ndiff = 0 ]
