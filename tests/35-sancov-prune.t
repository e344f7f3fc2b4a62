# sancov-prune (off|clang|min) and the coverage map: bad combinations,
# kplug-report cover on its own and on bad input, and the proof by running
# programs: GCC's gcc.c-torture/execute programs built unpruned and pruned
# (tests/sancov/prune-exec.sh), run, and each run's inferred lines must be
# those of the unpruned run -- and must not be once the probes inference
# needs are dropped (prune-check=off), or the proof could not fail.
# long
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/sancov/common.sh"
T=$(mktemp -d "$OUT/sancov-prune.XXXXXX")
S=$SANCOV_DIR
R=$TOP/tools/kplug-report
PRUNE=-fplugin-arg-kplug-sancov-prune
make -s -C "$TOP" tools >&2
check "GCC 12 testsuite extracted" gcc_source >"$T/gcc-source"
G=$(cat "$T/gcc-source")/gcc/testsuite/gcc.c-torture/execute

# ---- bad combinations: one kplug line, non-zero exit ----
bad() { sancov_bad "$T" "$S/tail.c" "$@"; }	# bad DESCRIPTION EXPECTED-LINE ARGS...
bad "prune with cmp only" \
	"cc1: error: kplug: $PRUNE=min: sancov-prune needs a trace mode with a probe per block (pc, pc-guard, inline-8bit-counters or inline-bool-flag)" \
	-fplugin-arg-kplug-sancov-trace=cmp $PRUNE=min
bad "map with cmp only" \
	"cc1: error: kplug: -fplugin-arg-kplug-sancov-map=on: sancov-map needs a trace mode with a probe per block (pc, pc-guard, inline-8bit-counters or inline-bool-flag)" \
	-fplugin-arg-kplug-sancov-trace=cmp -fplugin-arg-kplug-sancov-map=on
bad "unknown prune mode" \
	"cc1: error: kplug: $PRUNE=max: unknown value 'max' for 'sancov-prune' (expected one of off,clang,min)" \
	$PRUNE=max
bad "unknown exactness" \
	"cc1: error: kplug: $PRUNE-exact=edges: unknown value 'edges' for 'sancov-prune-exact' (expected one of lines,blocks)" \
	$PRUNE=min $PRUNE-exact=edges

# ---- cross targets: the map is assembled and read on arm (ARM and Thumb)
# and arm64; every callback's return address maps to its probe ----
cp "$S/cross.c" "$T/x.c"
printf 'SECTIONS { .text : { *(.text .text.*) } /DISCARD/ : { *(.exit.text) } }\n' > "$T/x.lds"
printf 'int g(int x) { return x & 1; }\nvoid stop(int x) { for (;;); }\nvoid __sanitizer_cov_trace_pc(void) {}\n' > "$T/x-rt.c"
# cross_linked CC FLAGS SO DIR: x.c pruned with its map and the runtime,
# compiled by CC with FLAGS and kplug.so SO, linked by x.lds into DIR/x
cross_linked() {
	$1 -O2 $2 -c "$T/x.c" -o "$4/x.o" -fplugin="$3" $KSANCOV $PRUNE=min &&
		$1 -O2 $2 -c "$T/x-rt.c" -o "$4/rt.o" &&
		"${1%gcc}ld" -T "$T/x.lds" -e f "$4/x.o" "$4/rt.o" -o "$4/x"
}
# every_probe_hit DIR: cover hit each of f's (>= 4) probes, mapping them
# to at least 8 lines
every_probe_hit() {
	grep -q ": cover: 1 functions, \([1-9][0-9]*\) probes, \1 hit, " "$1/rep" &&
		[ "$(wc -l < "$1/hits")" -ge 4 ] && [ "$(wc -l < "$1/lines")" -ge 8 ]
}
# cross CC FLAGS THUMB-BIT
cross() {
	local cc=$1 flags=$2 bit=$3 name="$1 $2" so d=$T/x-${1}${2// /}
	mkdir -p "$d"
	check "$name: kplug.so built" kplug_so_for "$cc" >/dev/null
	so=$(kplug_so_path "$cc")
	check "$name: pruned unit with its map compiled and linked, .exit.text discarded" \
		cross_linked "$cc" "$flags" "$so" "$d"
	# the return address of every call to the callback (or its veneer)
	"${cc%gcc}objdump" -d "$d/x" | awk -v bit=$bit \
		'/\t(bl|blx)\t.*trace_pc.*>$/ { getline; sub(":", "", $1); printf "0x%x\n", strtonum("0x" $1) + bit }' \
		> "$d/hits"
	check "$name: kplug-report cover maps all $(wc -l < "$d/hits") return addresses" \
		"$R" cover "$d/x" "$d/hits" > "$d/lines" 2> "$d/rep"
	check "$name: every probe hit ($(head -1 "$d/rep")), $(wc -l < "$d/lines") lines (>= 8)" \
		every_probe_hit "$d"
	check "$name: fx's record (discarded code) is noted, not counted" \
		grep -q ": note: 1 functions were discarded by the link" "$d/rep"
	awk '{ printf "0x%x\n", strtonum($1) + 2 }' "$d/hits" | head -1 > "$d/off"
	check_exit 2 "$name: an address 2 bytes off is no probe (exit 2)" \
		"$R" cover "$d/x" "$d/off" >/dev/null 2>&1
}
cross arm-linux-gnueabi-gcc "-marm" 0
cross arm-linux-gnueabi-gcc "-mthumb" 1
cross aarch64-linux-gnu-gcc "" 0

# ---- one program, every mode: same lines, fewer probes ----
gcc -O2 -c "$S/prune-rt.c" -o "$T/rt.o"
cat > "$T/p.c" <<'C'
#include <stdlib.h>
int g, h;
__attribute__((noinline)) int f(int x)
{
	int r = 0;
	if (x > 3)
		g++;
	else
		h++;
	if (x & 1)
		r = 5;
	while (x > 0) {
		x -= 3;
		r++;
	}
	if (x < -100)
		exit(3);
	return r;
}
int main(int argc, char **argv)
{
	int i, s = 0;
	for (i = 0; i < argc + 3; i++)
		s += f(i);
	if (s == 7)
		abort();
	return 0;
}
C
declare -A n
# built_ran_covered TRACE MODE: p.c built with TRACE, prune=MODE and the
# map into p-MODE, run (p-MODE.hits) and covered (p-MODE.lines, .rep)
built_ran_covered() {
	gcc -O2 -no-pie -fplugin="$KPLUG" $KSANCOV -fplugin-arg-kplug-sancov-trace=$1 \
		$PRUNE=$2 -fplugin-arg-kplug-sancov-map=on "$T/p.c" "$T/rt.o" -o "$T/p-$2" &&
		KPLUG_COV_OUT=$T/p-$2.hits "$T/p-$2" a b &&
		"$R" cover "$T/p-$2" "$T/p-$2.hits" >"$T/p-$2.lines" 2>"$T/p-$2.rep"
}
# fewer_probes_pruned OFF CLANG MIN: both pruned counts below unpruned OFF
fewer_probes_pruned() { [ "$3" -lt "$1" ] && [ "$2" -lt "$1" ]; }
for t in pc pc-guard inline-8bit-counters inline-bool-flag; do
	for m in off clang min; do
		rm -f "$T/p-$m" "$T/p-$m.hits"
		check "$t, prune=$m: built, ran, covered" built_ran_covered $t $m
		n[$m]=$(sed -n 's/.*functions, \([0-9]*\) probes.*/\1/p' "$T/p-$m.rep")
	done
	nl=$(wc -l <"$T/p-off.lines")
	check "$t: the unpruned run covers $nl lines (>= 12)" test "$nl" -ge 12
	same_nonempty "$T/p-off.lines" "$T/p-clang.lines" "$t: the clang run infers exactly the unpruned lines"
	same_nonempty "$T/p-off.lines" "$T/p-min.lines" "$t: the min run infers exactly the unpruned lines"
	check "$t: probes off ${n[off]}, clang ${n[clang]}, min ${n[min]}: fewer pruned" \
		fewer_probes_pruned "${n[off]:-0}" "${n[clang]:-99}" "${n[min]:-99}"
done
check_exit 1 "the exit(3) line never ran: not covered" grep -q "^$T/p.c:17\$" "$T/p-off.lines"

# Runs end at a noreturn call: in g() both arms end one, so no run ends
# in the test block, and the two arms tell every run (a probe there too,
# as an edge to EXIT from every block whose paths all end in a noreturn
# call once gave, is one too many).
printf '#include <stdlib.h>\nvoid g(int i) { if (i != 1) abort(); exit(0); }\n' >"$T/g.c"
rm -f "$T/g.o"
gcc -O0 -c "$T/g.c" -o "$T/g.o" -fplugin="$KPLUG" $KSANCOV $PRUNE=min $PRUNE-exact=blocks $PRUNE-cuts=none
is "$(objdump -dr "$T/g.o" 2>/dev/null | grep -cE 'R_X86_64_PLT32[[:space:]]+__sanitizer_cov_trace_pc')" 2 \
	"prune=min: a function whose paths all end in noreturn calls gets a probe per arm only (2)"

# pc-table: the entry block keeps its probe under pruning, as the first
# element (the table's flag-1 entry is the function's address): in f's
# code the first guard call comes before any jump and passes element 0.
# entry_probe_first FIRST JUMP ARG OFFSETS: the first guard call (line
# FIRST) comes before the first jump (line JUMP) and passes ARG, the
# smallest of the guard OFFSETS
entry_probe_first() {
	[ -n "$1" ] && [ -n "$2" ] && [ "$1" -lt "$2" ] && [ -n "$3" ] &&
		[ $((${3#__sancov_guards})) = "$(sort -n <<<"$4" | head -1)" ]
}
for m in clang min; do
	gcc -O2 -c "$T/p.c" -o "$T/pt-$m.o" -fplugin="$KPLUG" $KSANCOV -fplugin-arg-kplug-sancov-trace=pc-guard \
		-fplugin-arg-kplug-sancov-pc-table=on $PRUNE=$m
	objdump -dr "$T/pt-$m.o" | awk '/^[0-9a-f]+ <.*>:$/ { in_f = $2 == "<f>:"; next } in_f' >"$T/pt-$m.f"
	first=$(grep -nE 'R_X86_64_PLT32[[:space:]]+__sanitizer_cov_trace_pc_guard' "$T/pt-$m.f" | head -1 | cut -d: -f1)
	jump=$(grep -nE '[[:space:]]j[a-z]+[[:space:]]' "$T/pt-$m.f" | head -1 | cut -d: -f1)
	# the guard arguments' offsets in the section, in code order
	offs=$(grep -oE 'R_X86_64_PC32[[:space:]]+__sancov_guards[-+]0x[0-9a-f]+' "$T/pt-$m.f" |
		sed 's/.*__sancov_guards//' | while read -r a; do echo $((a)); done)
	arg=$(head -n "${first:-1}" "$T/pt-$m.f" | grep -oE '__sancov_guards[-+]0x[0-9a-f]+' | tail -1)
	check "pc-guard, pc-table, prune=$m: f's entry probe first (call at line ${first:-none}, jump at ${jump:-none}, $arg, element 0 of $(wc -w <<<"$offs"))" \
		entry_probe_first "$first" "$jump" "$arg" "$offs"
done
check "the loop body line is covered (min)" grep -q "^$T/p.c:13\$" "$T/p-min.lines"

# ---- kplug-report cover on bad input: one line, exit 2 ----
cover_bad() {	# cover_bad DESCRIPTION PATTERN ARGS...
	local what=$1 pat=$2 err rc
	shift 2
	err=$("$R" cover "$@" 2>&1 >/dev/null)
	rc=$?
	check "$what: exit status $rc" test $rc -eq 2
	check "$what: says '$pat'" grep -q -- "$pat" <<<"$err"
	[ -z "$err" ] || diag "$(echo "$err" | head -2)"
}
echo 0x1234 >"$T/unknown.hits"
cover_bad "an address no map knows" "0x1234 is in no coverage map" "$T/p-min" "$T/unknown.hits"
printf '%s\nxyz\n' "$(head -1 "$T/p-min.hits")" >"$T/junk.hits"
cover_bad "a line that is no address" "junk.hits:2: not a hexadecimal address" "$T/p-min" "$T/junk.hits"
gcc -O2 -no-pie "$T/p.c" -o "$T/plain"
cover_bad "a binary without a map" "no coverage map" "$T/plain" "$T/p-min.hits"
cp "$T/p-min" "$T/cut"
off=$(readelf -SW "$T/cut" | awk '$2 == ".debug_kplug_sancov" { print $5 }')
printf '\377\377\377\377' | dd of="$T/cut" bs=1 seek=$((0x$off + 4)) conv=notrunc status=none
cover_bad "a map record with a bad size" "size out of bounds" "$T/cut" "$T/p-min.hits"
# one map of records of pointer sizes 4 and 8 crashed the reader (a heap
# write through a probe index read with the other size's layout); one of
# both byte orders was misread
C=$TOP/tests/fuzz/corpus/covmap
for m in pointer-sizes byte-orders; do
	check "a program whose map holds records of mixed $m" \
		objcopy --update-section .debug_kplug_sancov="$C/mixed-$m" "$T/p-min" "$T/mixed-$m"
done
cover_bad "map records of pointer sizes 4 and 8" "map records of different pointer sizes (4 and 8)" \
	"$T/mixed-pointer-sizes" "$T/p-min.hits"
cover_bad "map records of both byte orders" "map records of different byte orders" \
	"$T/mixed-byte-orders" "$T/p-min.hits"
objcopy --compress-debug-sections=zlib "$T/p-min" "$T/zmap"
# map_compressed OBJ: OBJ's .debug_kplug_sancov has the C (compressed) flag
map_compressed() {
	readelf -SW "$1" | grep -E ' \.debug_kplug_sancov ' | grep -qE ' [A-Z]*C[A-Z]* +[0-9]+ +[0-9]+ +[0-9]+$'
}
check "objcopy --compress-debug-sections compresses the map (it is debug information)" map_compressed "$T/zmap"
cover_bad "a compressed map" "compressed section: decompress it first (objcopy --decompress-debug-sections)" \
	"$T/zmap" "$T/p-min.hits"

# ---- the proof on torture programs ----
mapfile -t ALL < <(ls "$G"/*.c | LC_ALL=C sort)
# proof NAME CC SO OPT MIN AWK-FILTER: every pruned run infers exactly the
# unpruned run's lines, on at least MIN programs
proof() {
	local name=$1 cc=$2 so=$3 opt=$4 min=$5 filter=$6 out rc n
	out=$("$S/prune-exec.sh" "$cc" "$so" "$opt" "$T/exec-${name// /_}" \
		$(printf '%s\n' "${ALL[@]}" | awk "$filter") 2>&1)
	rc=$?
	diag "$name: $(echo "$out" | tail -2 | tr '\n' ' ')"
	[ $rc -eq 0 ] || diag "$(echo "$out" | head -10)"
	ok $rc "$name: every pruned run infers exactly the unpruned run's lines"
	n=$(echo "$out" | sed -n 's/.* compared \([0-9]*\) .*/\1/p')
	check "$name: ${n:-0} programs compared (>= $min)" test "${n:-0}" -ge "$min"
}
# every 18th file, a different one at each level: 3 levels, ~265 programs
proof -O0 gcc "$KPLUG" -O0 80 'NR % 18 == 1'
proof -O1 gcc "$KPLUG" -O1 80 'NR % 18 == 7'
proof -O2 gcc "$KPLUG" -O2 80 'NR % 18 == 13'
# GCC 11: the same proof on a smaller sample
check "kplug.so for gcc-11 built" sancov_so11 >"$T/so11"
so11=$(cat "$T/so11")
proof "gcc-11 -O2" gcc-11 "$so11" -O2 20 'NR % 60 == 5'
# exact per block (sancov-prune-exact=blocks): the same proof, fewer programs
proof "-O2 exact=blocks" gcc "$KPLUG" "-O2 $PRUNE-exact=blocks" 20 'NR % 60 == 25'
# ---- the trace model (sancov-prune-observe=trace): the order of the hits ----
bad "trace with an inline mode" \
	"cc1: error: kplug: $PRUNE-observe=trace: sancov-prune-observe=trace needs the hits in order: sancov-trace=pc or pc-guard (the inline modes keep none)" \
	-fplugin-arg-kplug-sancov-trace=inline-8bit-counters $PRUNE=min $PRUNE-observe=trace
bad "trace with prune-cuts=indirect" \
	"cc1: error: kplug: $PRUNE-cuts=indirect: sancov-prune-observe=trace needs sancov-prune-cuts=calls: a call that recurses into a function interleaves its hits with the caller's" \
	$PRUNE=min $PRUNE-observe=trace $PRUNE-cuts=indirect
gcc -O2 -c "$S/prune-trace-rt.c" -o "$T/trt.o"
cat > "$T/d.c" <<'C'
int v[8];
__attribute__((noinline)) void g(int x) { v[x & 7]++; }
__attribute__((noinline)) int f(int a)
{
	if (a & 1)
		g(1);
	else
		g(2);
	if (a & 2)
		g(3);
	else
		g(4);
	if (a & 4)
		g(5);
	else
		g(6);
	return v[3];
}
int main(int argc, char **argv)
{
	int i, t = 0;
	for (i = 0; i < argc + 3; i++)
		t += f(i * 5 + argc);
	return t == 12345;
}
C
# built_for_traces B SOURCE OPT TRACE: SOURCE built unpruned (B-off), min
# (B-set) and min for traces (B-min); B-off run and covered, B-min run and
# covered with --trace
built_for_traces() {
	local b=$1 src=$2 opt=$3 t=$4
	gcc $opt -no-pie -fplugin="$KPLUG" $KSANCOV -fplugin-arg-kplug-sancov-trace=$t \
		-fplugin-arg-kplug-sancov-map=on "$src" "$T/rt.o" -o "$b-off" &&
		KPLUG_COV_OUT=$b-off.hits "$b-off" &&
		"$R" cover "$b-off" "$b-off.hits" >"$b-off.lines" 2>/dev/null &&
		gcc $opt -no-pie -fplugin="$KPLUG" $KSANCOV -fplugin-arg-kplug-sancov-trace=$t \
			-fplugin-arg-kplug-sancov-map=on $PRUNE=min "$src" "$T/rt.o" -o "$b-set" &&
		gcc $opt -no-pie -fplugin="$KPLUG" $KSANCOV -fplugin-arg-kplug-sancov-trace=$t \
			-fplugin-arg-kplug-sancov-map=on $PRUNE=min $PRUNE-observe=trace "$src" \
			"$T/trt.o" -o "$b-min" &&
		KPLUG_TRACE_OUT=$b-min.trace "$b-min" &&
		"$R" cover --trace "$b-min" "$b-min.trace" >"$b-min.lines" 2>"$b-min.rep"
}
# trace_case NAME SOURCE OPT TRACE: unpruned (set runtime, cover) against
# min for traces (trace runtime, cover --trace); sets NSET, NTRACE probes
trace_case() {
	local name=$1 src=$2 opt=$3 t=$4 b=$T/tc-$1
	check "$name: built unpruned and pruned for traces, ran, covered" \
		built_for_traces "$b" "$src" "$opt" "$t"
	same_nonempty "$b-off.lines" "$b-min.lines" "$name: the lines inferred from the trace are the unpruned run's"
	NSET=$(objdump -d "$b-set" | grep -cE 'call.*<__sanitizer_cov_trace_pc(_guard)?>')
	NTRACE=$(objdump -d "$b-min" | grep -cE 'call.*<__sanitizer_cov_trace_pc(_guard)?>')
}
for t in pc pc-guard; do
	for opt in -O0 -O2; do
		trace_case "diamonds-$t$opt" "$T/d.c" $opt $t
		# f: 3 diamonds, 4 probes for a trace (the entry, an arm each), 6 for a set
		check "diamonds, $t $opt: $NTRACE probes for traces, $NSET for sets (2 fewer: f's)" \
			test "$NTRACE" -eq $((NSET - 2))
		trace_case "recursion-$t$opt" "$S/recurse.c" $opt $t
	done
done
b=$T/tc-diamonds-pc-O2
# exits_2_saying PATTERN CMD...: CMD exits 2, its standard error (kept in
# $T/err) matching the extended regular expression PATTERN
exits_2_saying() {
	local pat=$1 rc
	shift
	"$@" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && grep -qE -- "$pat" "$T/err"
}
check "plain cover refuses a function pruned for traces (exit 2, named)" \
	exits_2_saying ": [a-z_]+ was pruned for ordered hits \(sancov-prune-observe=trace\): a set of hits cannot tell its lines" \
	"$R" cover "$b-min" "$b-min.trace"
tac "$b-min.trace" >"$T/reversed"
check "cover --trace on a trace in reverse: exit 2, 'no path ... gives its hits in this order'" \
	exits_2_saying ": no path of the function gives its hits in this order" "$R" cover --trace "$b-min" "$T/reversed"
check_exit 2 "--trace with another command than cover: exit 2" "$R" top --trace "$T/err" >/dev/null 2>&1
# the proof on torture programs, and that it can fail
PRUNE_OBSERVE=trace proof "trace -O2" gcc "$KPLUG" -O2 25 'NR % 54 == 31'
out=$(PRUNE_OBSERVE=trace "$S/prune-exec.sh" gcc "$KPLUG" "-O2 $PRUNE-check=off" "$T/nocheck-trace" \
	$(printf '%s\n' "${ALL[@]}" | awk 'NR % 72 == 49') 2>&1)
diag "trace, prune-check=off: $(echo "$out" | tail -2 | tr '\n' ' ')"
mm=$(echo "$out" | sed -n 's/.* mismatch-min \([0-9]*\) .*/\1/p')
check "trace: without the probes inference needs, min misses lines in ${mm:-0} programs (>= 3)" test "${mm:-0}" -ge 3

out=$("$S/prune-exec.sh" gcc "$KPLUG" "-O2 -fplugin-arg-kplug-sancov-prune-check=off" \
	"$T/nocheck" $(printf '%s\n' "${ALL[@]}" | awk 'NR % 36 == 13') 2>&1)
diag "prune-check=off: $(echo "$out" | tail -2 | tr '\n' ' ')"
mm=$(echo "$out" | sed -n 's/.* mismatch-min \([0-9]*\) .*/\1/p')
check "without the probes inference needs, min misses lines in ${mm:-0} programs (>= 3): the proof can fail" \
	test "${mm:-0}" -ge 3
check "prune-check=off: no build or run error" grep -q '^programs .* errors 0$' <<<"$out"
rm -rf "$T"
plan "$_tap_n"
