#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# -flto: the code of an LTO unit is generated at the link, in lto1, where
# kplug's sancov never ran, so an instrumented-looking build would have no
# coverage at all.  kplug stops instead: sancov refuses a unit compiled
# with -flto (fat or not), and an enabled pass in lto1 (the plugin on the
# link line) is refused with one line saying where the arguments belong.
# cyc_complexity runs before the LTO streaming and reports at compile time.
# per-compiler
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/a.c" <<'EOF'
int g(int x) { if (x > 3) return x * 2; return x - 1; }
int main(int argc, char **argv) { return g(argc); }
EOF
echo 'void __sanitizer_cov_trace_pc(void) {}' >"$t/cov.c"
check "the callback's object is built" $KCC -O2 -c "$t/cov.c" -o "$t/cov.o"

# the reference: without -flto the program has coverage calls
check "sancov without -flto compiles" kgcc -O2 -fplugin-arg-kplug-enable=sancov -c "$t/a.c" -o "$t/plain.o" 2>"$t/err"
$KCC "$t/plain.o" "$t/cov.o" -o "$t/plain" 2>>"$t/err"
n=$(objdump -d "$t/plain" 2>/dev/null | grep -c 'call.*<__sanitizer_cov_trace_pc>')
ok $((n > 0 ? 0 : 1)) "... and the linked program calls __sanitizer_cov_trace_pc ($n sites)"

for lto in "-flto" "-flto -ffat-lto-objects"; do
	rm -f "$t/a.o"
	kgcc -O2 $lto -fplugin-arg-kplug-enable=sancov -c "$t/a.c" -o "$t/a.o" 2>"$t/err"
	rc=$?
	ok $((rc != 0 ? 0 : 1)) "sancov with $lto: the compile fails (exit $rc)"
	is "$(grep -c . "$t/err")" 1 "... with one line"
	check "... that names -flto and says what to do" \
		grep -q "kplug: sancov: cannot instrument a unit compiled with -flto .*: compile it with -fno-lto" "$t/err"
	[ $rc -ne 0 ] || diag_in <"$t/err"
	check "... and writes no object" test ! -e "$t/a.o"
done

check "cyc_complexity with -flto compiles" \
	kgcc -O2 -flto -fplugin-arg-kplug-enable=cyc_complexity -c "$t/a.c" -o "$t/c.o" 2>"$t/err"
check "... and reports at compile time" grep -qx "Cyclomatic Complexity 2 $t/a.c:g" "$t/err"
check "kplug loaded with no pass on the LTO link line: the link works" \
	kgcc -O2 -flto "$t/c.o" "$t/cov.o" -o "$t/c" 2>"$t/err"
is "$(cat "$t/err")" "" "... and prints nothing"
kgcc -O2 -flto -fplugin-arg-kplug-enable=cyc_complexity "$t/c.o" "$t/cov.o" -o "$t/c2" 2>"$t/err"
rc=$?
ok $((rc != 0 ? 0 : 1)) "a pass enabled on the LTO link line: the link fails (exit $rc)"
check "... with kplug's line naming the pass and what to do" grep -q \
	"lto1: error: kplug: cyc_complexity is enabled in the LTO link (lto1), which compiles no source file: .*drop the -fplugin-arg-kplug-\* arguments from the link command" "$t/err"
[ $rc -ne 0 ] || diag_in <"$t/err"
done_testing
