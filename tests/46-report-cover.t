#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug-report cover on what a user meets: lines in numeric order (4
# before 10), a PIE (its run-time addresses are not the map's) and a
# stripped program (strip removes the map, debug information) each named
# for what it is, with what to do.
. "$(dirname "$0")/lib.sh"
R=$TOP/tools/kplug-report
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/q.c" <<'EOF'
#include <stdlib.h>
int f(int a)
{
	if (a > 2)
		return a * 3;
	return a - 1;
}
int main(int c, char **v)
{
	int s = 0;
	for (int i = 0; i < c + 3; i++)
		s += f(i);
	return s == 7;
}
EOF
check "the coverage runtime builds" gcc -O0 -c "$TOP/tests/sancov/prune-rt.c" -o "$t/rt.o"
# build_and_run_q PIE: $t/qPIE built with a map, run, its hits in $t/hPIE
build_and_run_q() {
	gcc -O0 $1 -fplugin="$KPLUG" -fplugin-arg-kplug-enable=sancov \
		-fplugin-arg-kplug-sancov-map=on "$t/q.c" "$t/rt.o" -o "$t/q$1" &&
		KPLUG_COV_OUT=$t/h$1 "$t/q$1" a
}
for pie in -no-pie -pie; do
	rm -f "$t/q$pie" "$t/h$pie"
	check "q$pie: built with a map and run" build_and_run_q "$pie"
done

check "cover on the -no-pie program" "$R" cover "$t/q-no-pie" "$t/h-no-pie" >"$t/lines" 2>"$t/err"
got=$(cut -d: -f2 "$t/lines" | tr '\n' ' ')
is "$got" "4 5 6 10 11 12 13 " "cover lists the lines in numeric order"

"$R" cover "$t/q-pie" "$t/h-pie" >/dev/null 2>"$t/err"
rc=$?
ok $((rc == 2 ? 0 : 1)) "cover on a PIE fails (exit $rc)"
check "... saying it is a PIE and to link with -no-pie" grep -qx "kplug-report: $t/q-pie is position-independent (a PIE or a shared object): it ran at other addresses than its map's; link the program with -no-pie" "$t/err"
[ $rc -eq 2 ] || diag_in <"$t/err"

# a map record of another format version ("KPS1"): refused, named
cp "$t/q-no-pie" "$t/v1"
off=$(readelf -SW "$t/v1" | awk '$2 == ".debug_kplug_sancov" { print $5 }')
printf '1' | dd of="$t/v1" bs=1 seek=$((0x${off:-0} + 3)) conv=notrunc status=none
"$R" cover "$t/v1" "$t/h-no-pie" >/dev/null 2>"$t/err"
rc=$?
ok $((rc == 2 ? 0 : 1)) "cover on a map of another format version fails (exit $rc)"
check "... saying the map is of another format version" grep -q "map record of another format version" "$t/err" || diag_in <"$t/err"

strip "$t/q-no-pie" -o "$t/stripped"
"$R" cover "$t/stripped" "$t/h-no-pie" >/dev/null 2>"$t/err"
rc=$?
ok $((rc == 2 ? 0 : 1)) "cover on a stripped program fails (exit $rc)"
check "... naming the section strip removed" grep -q "no coverage map (section .debug_kplug_sancov, debug information that strip removes)" "$t/err"
# An inline function of C++ compiled in two units is COMDAT: the link keeps
# one copy and resolves the other's map to it.  It is counted once: as
# many probes as the program has coverage code (at -O0, one per probe).
cat >"$t/h.h" <<'EOF'
inline int shared(int x)
{
	if (x > 3)
		return x * 2;
	return x + 1;
}
EOF
printf '#include "h.h"\nint fa(int x) { return shared(x) + 1; }\n' >"$t/a.cc"
printf '#include "h.h"\nint fa(int);\nint main(int c, char **) { return shared(c) + fa(c) > 100; }\n' >"$t/b.cc"
# sites MODE PROGRAM: the coverage code the program has
sites() {
	case $1 in
	'pc' | 'pc-guard')
		objdump -d --no-show-raw-insn "$2" | grep -cE "call +[0-9a-f]+ <__sanitizer_cov_trace_${1/-/_}>" ;;
	inline-8bit-counters)
		echo $(( $(size -A "$2" | awk '$1 == "__sancov_cntrs" { print $2 }') )) ;;
	esac
}
# link_and_run_x DIR: DIR/x linked from DIR's a.o and b.o, run, its hits in DIR/hits
link_and_run_x() { g++ -no-pie "$1/a.o" "$1/b.o" "$t/rt.o" -o "$1/x" && KPLUG_COV_OUT=$1/hits "$1/x"; }
# counted_once N ERR: cover said (in ERR) 3 functions, N probes, and that one
# function is a copy of another or was discarded
counted_once() {
	grep -qx "kplug-report: cover: 3 functions, $1 probes, [1-9][0-9]* hit, [0-9]* lines covered" "$2" &&
		grep -qE 'note: 1 functions (are copies of another one|were discarded by the link)' "$2"
}
for mode in pc pc-guard inline-8bit-counters; do
	d=$t/comdat-$mode
	mkdir -p "$d"
	for u in a b; do
		g++ -O0 -c "$t/$u.cc" -o "$d/$u.o" -fplugin="$KPLUG" -fplugin-arg-kplug-enable=sancov \
			-fplugin-arg-kplug-sancov-trace=$mode -fplugin-arg-kplug-sancov-map=on || rm -f "$d/$u.o"
	done
	check "$mode: C++ program with a COMDAT function in two units built and run" link_and_run_x "$d" || continue
	check "$mode: cover reads its hits" "$R" cover "$d/x" "$d/hits" >"$d/lines" 2>"$d/err" || diag_in <"$d/err"
	n=$(sites $mode "$d/x")
	check "$mode: shared() counted once: 3 functions, $n probes (the program's coverage code)" \
		counted_once "$n" "$d/err" ||
		diag_in <"$d/err"
	check "$mode: the line shared() ran in its kept copy is covered" grep -q '/h.h:5$' "$d/lines" || diag_in <"$d/lines"
done
done_testing
