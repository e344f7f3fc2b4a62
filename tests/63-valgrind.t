#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# valgrind memcheck of cc1 running kplug (every pass on) on Linux 6.12
# translation units.  Only errors whose stack has a frame in kplug.so count:
# cc1 itself is not memcheck-clean.  A deliberately broken plugin first
# proves that the filter sees invalid reads and leaks.
# long
. "$(dirname "$0")/lib.sh"

d=$OUT/valgrind
VG_OBJS=${KPLUG_VALGRIND_OBJS:-"lib/string.o"}	# kernel/exit.o too: +4 min

if quick; then
	skip "valgrind on kernel translation units (KPLUG_QUICK)"
	done_testing
fi
if ! command -v valgrind >/dev/null; then
	skip "valgrind not installed (apt-get install valgrind)"
	done_testing
fi
rm -rf "$d"
mkdir -p "$d"

# memcheck CWD OUTDIR COMMAND-LINE: run it, XML per process in OUTDIR.
memcheck() {
	mkdir -p "$2"
	(cd "$1" && nice valgrind --tool=memcheck --trace-children=yes \
		--trace-children-skip='*/as,*/ld,*/collect2' \
		--leak-check=full --show-leak-kinds=definite \
		--errors-for-leak-kinds=definite --num-callers=50 \
		--xml=yes --xml-file="$2/vg.%p.xml" bash -c "$3" >"$2/log" 2>&1)
}

# The errors of OUTDIR with a kplug.so frame: "KIND fn (file:line)", one a line.
kplug_errors() {
	perl -0ne '
		while (m{<error>(.*?)</error>}sg) {
			my $e = $1;
			next unless $e =~ m{<obj>[^<]*/kplug\.so</obj>};
			my ($kind) = $e =~ m{<kind>(.*?)</kind>};
			my ($f) = $e =~ m{(<obj>[^<]*/kplug\.so</obj>.*?</frame>)}s;
			my ($fn) = $f =~ m{<fn>(.*?)</fn>};
			my ($file, $line) = $f =~ m{<file>(.*?)</file>\s*<line>(\d+)</line>}s;
			print "$kind ", ($fn // "?"), " (", ($file // "?"), ":", ($line // "?"), ")\n";
		}' "$1"/vg.*.xml
}

# ---- the filter, on a plugin with one invalid read and one leak ----
cat >"$d/broken.c" <<'EOF'
#include <stdlib.h>
int plugin_is_GPL_compatible;
struct plugin_name_args;
struct plugin_gcc_version;
int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *v)
{
	int *volatile p = malloc(16);
	void *volatile leak = malloc(48);
	volatile int x;

	free(p);
	x = p[1];
	leak = NULL;
	return (x & 0) + (leak != NULL);
}
EOF
mkdir -p "$d/broken"
gcc -shared -fPIC -g -O0 -o "$d/broken/kplug.so" "$d/broken.c" &&
memcheck "$d" "$d/self" "gcc -fplugin=$d/broken/kplug.so -x c -S -o $d/self.s /dev/null"
got=$(kplug_errors "$d/self" | cut -d' ' -f1 | sort | tr '\n' ' ')
is "$got" "InvalidRead Leak_DefinitelyLost " "the filter sees an invalid read and a leak in a broken kplug.so"

# ---- kernel translation units ----
if [ ! -f "$TOP/bench/lib.sh" ]; then
	skip "bench/lib.sh (kernel object tree helper) missing"
	done_testing
fi
# bench/lib.sh sources tests/lib.sh again: keep the TAP counters
n=$_tap_n f=$_tap_fail
. "$TOP/bench/lib.sh"
_tap_n=$n _tap_fail=$f
BENCH_OBJS=$VG_OBJS
# object_tree: objtree is bench's object tree of $BENCH_OBJS
object_tree() { objtree=$(bench_objtree); }
check "Linux $BENCH_VER x86_64 tinyconfig object tree with $VG_OBJS" object_tree
mkdir -p "$d/plugin"
cp "$KPLUG" "$d/plugin/kplug.so"
args="-fplugin=$d/plugin/kplug.so -fplugin-arg-kplug-enable=all -fplugin-arg-kplug-sancov-trace=pc,cmp"
# compiled_under_memcheck RC NAME LINES CALLS: memcheck exited RC = 0,
# it ran cc1 (its XML logs in $d/NAME), and the compile left LINES
# cyc_complexity lines and CALLS trace_pc calls, both > 0
compiled_under_memcheck() {
	[ "$1" -eq 0 ] && grep -lq '<exe>[^<]*/cc1</exe>' "$d/$2"/vg.*.xml && [ "$3" -gt 0 ] && [ "$4" -gt 0 ]
}
for o in $VG_OBJS; do
	n=$(basename "$o" .o)
	cmd=$(bench_cmd "$o" "$objtree" | sed -e 's/ -c / -S /' -e "s# -o [^ ]*# -o $d/$n.s#")
	start=$(date +%s)
	memcheck "$objtree" "$d/$n" "$cmd $args -fplugin-arg-kplug-cyc_complexity-output=$d/$n.cyc"
	rc=$?
	secs=$(($(date +%s) - start))
	lines=$(cat "$d/$n.cyc" 2>/dev/null | wc -l)
	calls=$(grep -c '__sanitizer_cov_trace_pc' "$d/$n.s" 2>/dev/null)
	check "$o: cc1 under memcheck with kplug compiled it ($lines cyc_complexity lines, $calls trace_pc calls, ${secs}s)" \
		compiled_under_memcheck "$rc" "$n" "$lines" "$calls"
	all=$(cat "$d/$n"/vg.*.xml | grep -c '<error>')
	mine=$(kplug_errors "$d/$n")
	errs=$(printf '%s' "$mine" | grep -v '^Leak_' | sort | uniq -c)
	leaks=$(printf '%s' "$mine" | grep '^Leak_' | sort | uniq -c)
	is "$errs" "" "$o: no memcheck error with a kplug.so frame ($all errors in all, outside kplug)"
	is "$leaks" "" "$o: no definite leak with a kplug.so frame"
done
done_testing
