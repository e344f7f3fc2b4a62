# Settings follow the source file, however cc1 gets it: [path:] sections,
# src: lists and the report's "tu" use the name the first line marker gives
# for .c input, .i input, -save-temps, -no-integrated-cpp, preprocessed
# source on stdin, C with line markers on stdin, ccache's preprocessor mode
# (run_second_cpp=false) and icecream's remote command line (simulated by
# hand: preprocessed locally with -E -fdirectives-only, compiled from stdin
# with -fdirectives-only -fpreprocessed in another directory).  Without a
# line marker (cpp -P) a path-dependent setting is one kplug: error.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/sancov/common.sh"
T=$(mktemp -d "$OUT/source-name.XXXXXX")
SRC=$T/tree
mkdir -p "$SRC/drivers/net" "$SRC/lib" "$T/remote"
cat > "$SRC/drivers/net/x.c" <<'EOF'
#include "../../lib/y.h"
int net_rx(int *q, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		if (q[i] > LIMIT && (q[i] & 1 || q[i] < -4))
			s += q[i];
	return s;
}
EOF
cat > "$SRC/lib/y.h" <<'EOF'
#define LIMIT 3
EOF
cp "$SRC/drivers/net/x.c" "$SRC/lib/z.c"
sed -i 's|../../lib/y.h|y.h|' "$SRC/lib/z.c"
printf '[kplug]\nenable = sancov\n[path:drivers/net/*]\ndisable = sancov\n' > "$T/off.ini"
printf '[path:drivers/net/*]\nenable = sancov\n' > "$T/on.ini"
IGN="-fplugin-arg-kplug-enable=sancov -fplugin-arg-kplug-sancov-ignore-src=drivers/net/*"
CYC="-fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-format=jsonl"

# build MODE OUT.o SRC FLAGS...: compile SRC (relative to $SRC) the MODE way.
build() {
	local mode=$1 o=$2 s=$3 i
	shift 3
	i=$T/pp.$$.i
	(cd "$SRC" && case $mode in
	c)	$CC -fplugin="$KPLUG" -O2 -c "$s" -o "$o" "$@" ;;
	i)	$CC -O2 -E "$s" -o "$i" && $CC -fplugin="$KPLUG" -O2 -c "$i" -o "$o" "$@" ;;
	save-temps)
		$CC -fplugin="$KPLUG" -O2 -save-temps=obj -c "$s" -o "$o" "$@" ;;
	no-integrated-cpp)
		$CC -fplugin="$KPLUG" -O2 -no-integrated-cpp -c "$s" -o "$o" "$@" ;;
	stdin-pp)
		$CC -O2 -E "$s" | $CC -fplugin="$KPLUG" -O2 -x cpp-output -c - -o "$o" "$@" ;;
	stdin-c)
		$CC -O2 -E "$s" | $CC -fplugin="$KPLUG" -O2 -x c -c - -o "$o" "$@" ;;
	ccache)
		# run_second_cpp=false: the compiler gets ccache's .i file
		CCACHE_DIR=$T/ccache CCACHE_NOCPP2=1 CCACHE_NODIRECT=1 CCACHE_RECACHE=1 \
			CCACHE_LOGFILE=$T/ccache.log ccache $CC -fplugin="$KPLUG" -O2 \
			-c "$s" -o "$o" "$@" ;;
	icecream)
		# the client preprocesses here, the remote compiles stdin elsewhere
		$CC -fplugin="$KPLUG" -O2 -E -fdirectives-only "$s" "$@" > "$i" &&
		(cd "$T/remote" && $CC -fplugin="$KPLUG" -O2 -x c -fdirectives-only \
			-fpreprocessed - -o "$o" -c "$@" < "$i") ;;
	esac)
}
MODES="c i save-temps no-integrated-cpp stdin-pp stdin-c ccache icecream"

pcs() { objdump -dr "$1" | grep -c 'R_.*__sanitizer_cov_trace_pc'; }
code() { objdump -dr "$1" | tail -n +3; }
# same_code A.o B.o: the same code
same_code() { cmp -s <(code "$1") <(code "$2"); }

# the same objects, whichever way cc1 is run
CC=gcc
for setting in "off.ini:-fplugin-arg-kplug-config=$T/off.ini" \
	       "on.ini:-fplugin-arg-kplug-config=$T/on.ini" \
	       "ignore-src:$IGN"; do
	what=${setting%%:*}
	flags=${setting#*:}
	for f in drivers/net/x.c lib/z.c; do
		rm -f "$T"/*.o
		build c "$T/ref.o" "$f" $flags || { ok 1 "$what $f: .c compiles"; continue; }
		ref=$(pcs "$T/ref.o")
		for mode in $MODES; do
			[ $mode = c ] && continue
			check "$what $f $mode: compiles" build $mode "$T/$mode.o" "$f" $flags
			is "$(pcs "$T/$mode.o")" "$ref" "$what $f $mode: $ref trace_pc calls, as for the .c"
			check "$what $f $mode: same code as the .c" same_code "$T/ref.o" "$T/$mode.o"
		done
		case $what:$f in
		off.ini:drivers/*|ignore-src:drivers/*|on.ini:lib/*) is "$ref" 0 "$what $f: not instrumented" ;;
		*) check "$what $f: instrumented ($ref trace_pc calls)" test "$ref" -gt 3 ;;
		esac
	done
done
# ccache_compiled_i LOG: ccache's LOG shows the compiler run on its .i file
ccache_compiled_i() {
	grep -q -- '-c .*/cpp_stdout[^ ]*\.i' "$1" 2>/dev/null || grep -q 'Executing .* [^ ]*\.i$' "$1"
}
check "ccache compiled its preprocessed .i file (run_second_cpp=false)" ccache_compiled_i "$T/ccache.log"

# the report names the source file too
for mode in $MODES; do
	build $mode "$T/$mode.o" drivers/net/x.c $CYC 2> "$T/$mode.jsonl"
	is "$(grep -o '"tu":"[^"]*"' "$T/$mode.jsonl" | sort -u)" '"tu":"drivers/net/x.c"' \
		"$mode: report's tu is the source file"
done

# no line marker: path-dependent settings fail with one line, others work
(cd "$SRC" && gcc -O2 -E -P drivers/net/x.c) > "$T/p.i"
cp "$T/p.i" "$T/p-copy.i"
nomarker() {	# nomarker stdin|file FLAGS...: stderr of compiling -P output
	local how=$1
	shift
	if [ $how = stdin ]; then
		(cd "$SRC" && kgcc -O2 -x cpp-output -c - -o "$T/np.o" "$@" < "$T/p.i") 2>&1
	else
		(cd "$SRC" && kgcc -O2 -c "$T/p.i" -o "$T/np.o" "$@") 2>&1
	fi
}
# failed_with_one_kplug_line RC OUT PATTERN: a compile that exited RC
# failed, and its output OUT has one kplug: line, matching PATTERN
failed_with_one_kplug_line() {
	[ "$1" -ne 0 ] && [ "$(grep -c 'kplug:' <<<"$2")" = 1 ] && grep -q "$3" <<<"$2"
}
# compiled_quietly_instrumented RC OUT OBJ: a compile that exited RC
# succeeded, printed nothing (OUT) and instrumented OBJ
compiled_quietly_instrumented() { [ "$1" -eq 0 ] && [ -z "$2" ] && [ "$(pcs "$3")" -gt 3 ]; }
# failed_needing_name RC OUT: a compile that exited RC failed, its output
# OUT saying that it needs the name of the source file
failed_needing_name() { [ "$1" -ne 0 ] && grep -q 'needs the name of the source file' <<<"$2"; }
for how in stdin file; do
	out=$(nomarker $how -fplugin-arg-kplug-config="$T/off.ini"); rc=$?
	check "-P output ($how), [path:] profile: one kplug: error" failed_with_one_kplug_line "$rc" "$out" \
		"off.ini:4: \[path:drivers/net/\*\] needs the name of the source file"
	[ $rc -ne 0 ] || diag "$out"
	out=$(nomarker $how $IGN); rc=$?
	check "-P output ($how), inline ignore-src: one kplug: error" failed_with_one_kplug_line "$rc" "$out" \
		"sancov: src: entries .* need the name of the source file"
	out=$(nomarker $how -fplugin-arg-kplug-enable=sancov); rc=$?
	check "-P output ($how), nothing path-dependent: compiles and is instrumented" \
		compiled_quietly_instrumented "$rc" "$out" "$T/np.o"
done
out=$( (cd "$SRC" && { echo 'int before;'; cat "$T/p.i"; } | sed '2i # 1 "drivers/net/x.c"' |
	kgcc -O2 -x c -c - -o "$T/late.o" -fplugin-arg-kplug-config="$T/off.ini") 2>&1); rc=$?
check "C on stdin with code before its first line marker: the name is unknown" \
	failed_needing_name "$rc" "$out"

# GCC 11 settles the name the same way
if so11=$(sancov_so11); then
	# build11 MODE OUT.o SRC FLAGS...: build with gcc-11 and its kplug.so
	build11() { KPLUG=$so11 CC=gcc-11 build "$@"; }
	# instrumented_as_c N: N (> 3) trace_pc calls, as many as in the .c's ref11.o
	instrumented_as_c() { [ "$1" -gt 3 ] && [ "$1" = "$(pcs "$T/ref11.o")" ]; }
	for mode in i stdin-pp stdin-c icecream; do
		build11 c "$T/ref11.o" drivers/net/x.c -fplugin-arg-kplug-config="$T/on.ini"
		check "gcc-11 $mode: compiles" \
			build11 $mode "$T/m11.o" drivers/net/x.c -fplugin-arg-kplug-config="$T/on.ini"
		n=$(pcs "$T/m11.o")
		check "gcc-11 $mode: [path:] section enables sancov ($n trace_pc calls)" instrumented_as_c "$n"
	done
	out=$( (cd "$SRC" && gcc-11 -fplugin="$so11" -O2 -x cpp-output -c - -o "$T/np.o" \
		-fplugin-arg-kplug-config="$T/off.ini" < "$T/p.i") 2>&1); rc=$?
	check "gcc-11: -P output on stdin with a [path:] profile fails" failed_needing_name "$rc" "$out"
else
	skip "gcc-11 or its plugin headers missing"
fi
rm -rf "$T"
done_testing
