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
gcc -O0 -c "$TOP/tests/sancov/prune-rt.c" -o "$t/rt.o"
ok $? "the coverage runtime builds"
for pie in -no-pie -pie; do
	rm -f "$t/q$pie" "$t/h$pie"
	gcc -O0 $pie -fplugin="$KPLUG" -fplugin-arg-kplug-enable=sancov \
		-fplugin-arg-kplug-sancov-map=on "$t/q.c" "$t/rt.o" -o "$t/q$pie" &&
		KPLUG_COV_OUT=$t/h$pie "$t/q$pie" a
	ok $? "q$pie: built with a map and run"
done

"$R" cover "$t/q-no-pie" "$t/h-no-pie" >"$t/lines" 2>"$t/err"
ok $? "cover on the -no-pie program"
got=$(cut -d: -f2 "$t/lines" | tr '\n' ' ')
is "$got" "4 5 6 10 11 12 13 " "cover lists the lines in numeric order"

"$R" cover "$t/q-pie" "$t/h-pie" >/dev/null 2>"$t/err"
rc=$?
ok $((rc == 2 ? 0 : 1)) "cover on a PIE fails (exit $rc)"
grep -qx "kplug-report: $t/q-pie is position-independent (a PIE or a shared object): it ran at other addresses than its map's; link the program with -no-pie" "$t/err"
ok $? "... saying it is a PIE and to link with -no-pie"
[ $rc -eq 2 ] || diag_in <"$t/err"

strip "$t/q-no-pie" -o "$t/stripped"
"$R" cover "$t/stripped" "$t/h-no-pie" >/dev/null 2>"$t/err"
rc=$?
ok $((rc == 2 ? 0 : 1)) "cover on a stripped program fails (exit $rc)"
grep -q "no coverage map (section .debug_kplug_sancov, debug information that strip removes)" "$t/err"
ok $? "... naming the section strip removed"
done_testing
