# sancov: the same instrumentation as native -fsanitize-coverage, the kcov
# ABI, never a tail call, excluded functions, -g neutrality, bad input.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/sancov/common.sh"
T=$(mktemp -d "$OUT/sancov.XXXXXX")
S=$SANCOV_DIR
CMP="-fplugin-arg-kplug-sancov-trace=pc,cmp"

SO11=$(sancov_so11) || SO11=
check "kplug.so builds for gcc-11 too" test -n "$SO11"
compilers="gcc:$KPLUG"
[ -n "$SO11" ] && compilers="$compilers gcc-11:$SO11"

# ---- same blocks, same comparisons as native, at every level ----
for pair in $compilers; do
	cc=${pair%%:*} so=${pair#*:}
	for opt in -O0 -Og -Os -O2 -O3; do
		for f in tail.c attrs.c abi.c; do
			# native instruments .noinstr.text functions too
			is "$(callbacks $cc "$so" $opt "$S/$f" $CMP -fplugin-arg-kplug-sancov-float=on)" \
				"$(callbacks $cc native $opt "$S/$f" | grep -v '^skip_noinstr trace_')" \
				"$cc $opt $f: per-function callbacks equal native"
		done
	done
done
# (each output is checked to be there: a failed compile prints nothing)
pc_only=$(callbacks gcc "$KPLUG" -O2 "$S/abi.c")
check "default trace=pc: abi.c compiled, $(wc -l <<<"$pc_only") functions counted" test -n "$pc_only"
check "default trace=pc: trace_pc callbacks" grep -q ' trace_pc ' <<<"$pc_only"
is "$(awk '$2 != "-" && $2 != "trace_pc"' <<<"$pc_only")" "" \
	"default trace=pc: no comparison callbacks"
with_cmp=$(callbacks gcc "$KPLUG" -O2 "$S/abi.c" $CMP)
check "trace=pc,cmp: abi.c compiled, with cmp4 callbacks" grep -q ' trace_cmp4 ' <<<"$with_cmp"
is "$(grep -c 'trace_cmp[fd]' <<<"$with_cmp")" 0 "trace=pc,cmp: no float callbacks by default"
is "$(callbacks gcc "$KPLUG" -O2 "$S/abi.c" $CMP -fplugin-arg-kplug-sancov-float=on |
	grep -c 'trace_cmp[fd]')" 2 "float=on: cmpf and cmpd"

# GCC's own pass runs but adds nothing: every callback is kplug's.
gcc -O2 -c "$S/tail.c" -o "$T/n.o" -fplugin="$KPLUG" $KSANCOV $CMP \
	-fdump-tree-sancov="$T/native-pass.txt" -fdump-tree-optimized="$T/opt.txt"
is "$(grep -c __sanitizer_cov "$T/native-pass.txt")" 0 "GCC's sancov pass adds no callback"
check "kplug's pass adds them" test "$(grep -c __sanitizer_cov "$T/opt.txt")" -gt 10

# ---- the kcov ABI, observed at run time ----
gcc -O2 -w -c "$S/abi-rt.c" -o "$T/rt.o"
cat > "$T/abi.expected" <<'END'
const_cmp1 7 5
const_cmp2 65237 65236
cmp4 70000 9
const_cmp8 0 18446744068709551616
const_cmp4 100000 70000
switch 70000 count=5 bits=32 values=-8,1,5,7,42
switch 6 count=5 bits=32 values=-8,1,5,7,42
switch 122 count=3 bits=32 values=97,122,200
END
gcc -O0 -c "$S/abi.c" -o "$T/abi.o" -fplugin="$KPLUG" $KSANCOV $CMP && gcc "$T/abi.o" "$T/rt.o" -o "$T/abi"
is "$("$T/abi")" "$(cat "$T/abi.expected")" \
	"-O0 run: const operand first, cmp sizes, switch table [count, bits, values]"
for pair in $compilers; do
	cc=${pair%%:*} so=${pair#*:}
	for opt in -O0 -Og -Os -O2; do
		$cc $opt -c "$S/abi.c" -o "$T/n.o" -fsanitize-coverage=trace-pc,trace-cmp &&
		gcc "$T/n.o" "$T/rt.o" -o "$T/n" &&
		$cc $opt -c "$S/abi.c" -o "$T/k.o" -fplugin="$so" $KSANCOV $CMP \
			-fplugin-arg-kplug-sancov-float=on &&
		gcc "$T/k.o" "$T/rt.o" -o "$T/k"
		is "$("$T/k")" "$("$T/n")" "$cc $opt run: the same callbacks and operands as native"
	done
done

# ---- never tail-called ----
# tail_built_three_ways CC OPT SO: tail.c into n.o (native), k.o (kplug)
# and t.o (kplug, tailcall=on)
tail_built_three_ways() {
	$1 $2 -c "$S/tail.c" -o "$T/n.o" -fsanitize-coverage=trace-pc,trace-cmp &&
		$1 $2 -c "$S/tail.c" -o "$T/k.o" -fplugin="$3" $KSANCOV $CMP &&
		$1 $2 -c "$S/tail.c" -o "$T/t.o" -fplugin="$3" $KSANCOV $CMP \
			-fplugin-arg-kplug-sancov-tailcall=on
}
# same_code A.o B.o: the same disassembly
same_code() { cmp -s <(objdump -d "$1" | tail -n +3) <(objdump -d "$2" | tail -n +3); }
for pair in $compilers; do
	cc=${pair%%:*} so=${pair#*:}
	for opt in -O2 -Os -O3; do
		rm -f "$T/n.o" "$T/k.o" "$T/t.o"
		check "$cc $opt: tail.c built native, kplug, kplug tailcall=on" tail_built_three_ways $cc $opt "$so"
		read -r nj nc <<< "$(jumps "$T/n.o")"
		read -r kj kc <<< "$(jumps "$T/k.o")"
		check "$cc $opt: native tail-calls callbacks ($nj jmp)" test "$nj" -gt 0
		is "$kj $kc" "0 $((nj + nc))" "$cc $opt: kplug has no jmp, only calls"
		check "$cc $opt: tailcall=on gives native's exact code" same_code "$T/n.o" "$T/t.o"
	done
done

# ---- what is never instrumented ----
out=$(callbacks gcc "$KPLUG" -O2 "$S/attrs.c" -DHAVE_NSC $CMP)
is "$(echo "$out" | awk '$1 ~ /^skip_(attr|noinstr)/ && $2 != "-"')" "" \
	"gcc 12: no_sanitize_coverage and .noinstr.text functions get nothing"
check "gcc 12: plain function instrumented" grep -q '^cov_plain trace_pc 3$' <<<"$out"
check "gcc 12: the .noinstr.text function was compiled" grep -q '^skip_noinstr -' <<<"$out"
is "$out" "$(callbacks gcc native -O2 "$S/attrs.c" -DHAVE_NSC |
	grep -v '^skip_noinstr trace_')" "gcc 12: otherwise exactly native (native instruments noinstr)"
if [ -n "$SO11" ]; then
	out=$(callbacks gcc-11 "$SO11" -O2 "$S/attrs.c")
	is "$(echo "$out" | awk '$1 == "skip_noinstr" && $2 != "-"')" "" \
		"gcc 11: .noinstr.text functions get nothing"
else
	skip "no gcc-11"
fi

# -g (-fcompare-debug) and garbage collection: 37-sancov-debug.t, on every compiler.

# ---- ini ----
printf '[kplug]\nenable = sancov\n[sancov]\ntrace = pc, cmp\n' > "$T/p.ini"
is "$(callbacks gcc "$KPLUG" -O2 "$S/abi.c" -fplugin-arg-kplug-config="$T/p.ini")" \
	"$(callbacks gcc "$KPLUG" -O2 "$S/abi.c" $CMP)" "ini [sancov] trace = pc, cmp"

# ---- bad input: one kplug line, non-zero exit ----
bad() {	# bad DESCRIPTION EXPECTED-LINE ARGS...
	local what=$1 want=$2 err rc
	shift 2
	err=$(cd "$T" && gcc -O2 -c "$S/tail.c" -o bad.o -fplugin="$KPLUG" "$@" 2>&1)
	rc=$?
	is "$err" "$want" "$what: one line"
	check "$what: exit status $rc" test "$rc" -ne 0
}
printf 'src:*\n# comment\nfun:ok\nfun ok\n' > "$T/bad.list"
bad "unknown trace mode" \
	"cc1: error: kplug: -fplugin-arg-kplug-sancov-trace=pc,edge: unknown value 'edge' for 'sancov-trace' (expected pc,cmp,pc-guard,inline-8bit-counters,inline-bool-flag)" \
	$KSANCOV -fplugin-arg-kplug-sancov-trace=pc,edge
bad "unreadable list" \
	"cc1: error: kplug: missing.list: cannot read list: No such file or directory" \
	$KSANCOV -fplugin-arg-kplug-sancov-allow=missing.list
bad "malformed list line" \
	"cc1: error: kplug: bad.list:4: malformed line 'fun ok' (expected src:GLOB or fun:GLOB)" \
	$KSANCOV -fplugin-arg-kplug-sancov-ignore=bad.list
bad "bad inline glob" \
	"cc1: error: kplug: -fplugin-arg-kplug-sancov-ignore-fun=a,b[: fun glob 'b[' has an unclosed '['" \
	$KSANCOV -fplugin-arg-kplug-sancov-ignore-fun=a,b[
bad "native flag as well" \
	"cc1: error: kplug: sancov: -fsanitize-coverage is given too; use either native coverage or kplug's sancov, not both" \
	$KSANCOV -fsanitize-coverage=trace-pc

# ---- the bundled coverage example ----
check "example/coverage/run.sh runs" env KPLUG="$KPLUG" "$TOP/example/coverage/run.sh" >"$T/coverage.out" 2>&1
out=$(cat "$T/coverage.out")
check "example: 24 of 26 blocks covered" grep -q '^covered 24 of 26 instrumented blocks' <<<"$out"
is "$(echo "$out" | sed -n '/^not covered:/,/^tail/p' | sed '1d;$d' | xargs)" \
	"classify_number: 29 classify_word: 39" "example: the odd-number and long-word lines are not covered"
check "example: native tail-calls one callback, kplug none" grep -q 'native -fsanitize-coverage 1, kplug 0$' <<<"$out"
is "$(echo "$out" | sed -n '/^native build: /,$p' | xargs)" \
	"native build: 1 recorded PC(s) in the caller instead of the block: main prog.c:60" \
	"example: the native build records a PC in the caller"

rm -rf "$T"
done_testing
