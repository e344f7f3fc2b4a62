# sancov in Clang's coverage modes: pc-guard, inline-8bit-counters,
# inline-bool-flag, the PC table and the module constructor; against
# trace-pc's points on torture files at every level, against clang-14's
# layout, and against the real consumers: GCC's libasan (.sancov files read
# by sancov-14) and libFuzzer.
# long
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/sancov/common.sh"
T=$(mktemp -d "$OUT/sancov-abi.XXXXXX")
S=$SANCOV_DIR
TRACE=-fplugin-arg-kplug-sancov-trace
PCT=-fplugin-arg-kplug-sancov-pc-table=on
MODES="pc-guard inline-8bit-counters inline-bool-flag"
FUZZER=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a

# facts OBJ MODE: tests/sancov/elffacts.pl for the mode's section
facts() {
	case $2 in
	pc-guard) perl "$S/elffacts.pl" "$1" __sancov_guards 4 ;;
	inline-8bit-counters) perl "$S/elffacts.pl" "$1" __sancov_cntrs 1 ;;
	*) perl "$S/elffacts.pl" "$1" __sancov_bools 1 ;;
	esac
}
# guard_jumps OBJ: "JUMPS CALLS" to __sanitizer_cov_trace_pc_guard (not to
# the init functions, which the constructor may tail-call)
guard_jumps() {
	objdump -dr --no-show-raw-insn "$1" | awk '
		/^ +[0-9a-f]+:\t/ { insn = $2 }
		/R_[A-Z0-9_]+\t__sanitizer_cov_trace_pc_guard-/ { if (insn ~ /^j/) j++; else c++ }
		END { print j + 0, c + 0 }'
}
# tables OBJ MODE: the functions that have a PC table, "a b c"
tables() { facts "$1" "$2" | awk '{ print $4 }' | tr , '\n' | sed 's/:.*//' | sort | xargs; }

# ---- bad combinations: one kplug line, non-zero exit ----
bad() { sancov_bad "$T" "$S/tail.c" "$@"; }	# bad DESCRIPTION EXPECTED-LINE ARGS...
bad "pc with pc-guard" \
	"cc1: error: kplug: $TRACE=pc,pc-guard: sancov-trace: pc, pc-guard, inline-8bit-counters and inline-bool-flag exclude each other; pick one" \
	$TRACE=pc,pc-guard
bad "two inline modes" \
	"cc1: error: kplug: $TRACE=inline-8bit-counters,cmp,inline-bool-flag: sancov-trace: pc, pc-guard, inline-8bit-counters and inline-bool-flag exclude each other; pick one" \
	$TRACE=inline-8bit-counters,cmp,inline-bool-flag
bad "pc-table with pc" \
	"cc1: error: kplug: $PCT: sancov-pc-table needs sancov-trace=pc-guard, inline-8bit-counters or inline-bool-flag" \
	$PCT
bad "pc-table with cmp only" \
	"cc1: error: kplug: $PCT: sancov-pc-table needs sancov-trace=pc-guard, inline-8bit-counters or inline-bool-flag" \
	$TRACE=cmp $PCT
bad "ctors=off with pc" \
	"cc1: error: kplug: -fplugin-arg-kplug-sancov-ctors=off: sancov-ctors=off needs sancov-trace=pc-guard, inline-8bit-counters or inline-bool-flag" \
	-fplugin-arg-kplug-sancov-ctors=off
bad "bss=on with pc" \
	"cc1: error: kplug: -fplugin-arg-kplug-sancov-bss=on: sancov-bss=on needs sancov-trace=pc-guard, inline-8bit-counters or inline-bool-flag" \
	-fplugin-arg-kplug-sancov-bss=on
printf '[kplug]\nenable = sancov\n[sancov]\ntrace = pc, pc-guard\n' > "$T/bad.ini"
err=$(cd "$T" && gcc -O2 -c "$S/tail.c" -o bad.o -fplugin="$KPLUG" -fplugin-arg-kplug-config=bad.ini 2>&1)
is "$err" "cc1: error: kplug: bad.ini:4: sancov-trace: pc, pc-guard, inline-8bit-counters and inline-bool-flag exclude each other; pick one" \
	"a bad combination in an ini names file:line"

# ---- the points: trace-pc's, per object, on torture files at every level ----
check "GCC 12 testsuite extracted" gcc_source >"$T/gcc-source"
G=$(cat "$T/gcc-source")/gcc/testsuite
mapfile -t ALLT < <(ls "$G"/gcc.c-torture/compile/*.c "$G"/gcc.c-torture/execute/*.c | LC_ALL=C sort)
N=${KPLUG_ABI_SAMPLE:-10}
quick && N=4
A=$S/abicount.sh
# The checker itself: modes that instrument less than pc must be caught.
# reports_missing_sites RC OUT: abicount.sh failed (exit status RC), its
# output OUT naming main among inline-bool-flag's missing sites and the
# pass's pc_guard count 0
reports_missing_sites() {
	[ "$1" -ne 0 ] && grep -q 'inline-bool-flag: functions with sites .*, with trace_pc calls .*main' <<<"$2" &&
		grep -q 'pass inserted trace_pc [1-9][0-9]*, pc_guard 0' <<<"$2"
}
out=$(ABICOUNT_KFLAGS=-fplugin-arg-kplug-sancov-ignore-fun=main "$A" gcc "$KPLUG" -O2 \
	"$T/self" "$S/abi.c" "$S/tail.c" 2>&1); rc=$?
check "checker reports sites missing against trace_pc (modes with ignore-fun=main)" \
	reports_missing_sites "$rc" "$out" || diag "$out"
lvl=0
for opt in -O0 -O1 -O2 -Os -O3 -Og; do
	# level i: N files from i*N*37 on, every 37th (wrapping): 6*N distinct files
	mapfile -t F < <(printf '%s\n' "${ALLT[@]}" |
		awk -v n="$N" -v i=$lvl -v t=${#ALLT[@]} '{ f[NR - 1] = $0 }
			END { for (k = 0; k < n; k++) print f[(i * n * 37 + k * 37) % t] }')
	lvl=$((lvl + 1))
	out=$("$A" gcc "$KPLUG" $opt "$T/count" "$S/abi.c" "$S/tail.c" "${F[@]}" 2>&1); rc=$?
	diag "gcc 12 $opt: $(echo "$out" | tail -1)"
	[ $rc -eq 0 ] || diag "$(echo "$out" | head -10)"
	ok $rc "gcc 12 $opt: guards, counters, flags, PC tables = trace_pc's points, per object and function"
	files=$(echo "$out" | sed -n 's/^files \([0-9]*\) .*/\1/p')
	check "gcc 12 $opt: ${files:-0} files compared" test "${files:-0}" -ge $((N + 1))
done
check "kplug.so for gcc-11" sancov_so11 >"$T/so11"
SO11=$(cat "$T/so11")
for opt in -O0 -O2; do
	if [ -z "$SO11" ]; then
		skip "gcc 11 $opt: no gcc-11 plugin"
		continue
	fi
	out=$("$A" gcc-11 "$SO11" $opt "$T/count11" "$S/abi.c" "$S/tail.c" \
		"${F[@]:0:$N}" 2>&1); rc=$?
	diag "gcc 11 $opt: $(echo "$out" | tail -1)"
	[ $rc -eq 0 ] || diag "$(echo "$out" | head -10)"
	ok $rc "gcc 11 $opt: guards, counters, flags, PC tables = trace_pc's points"
done

# ---- the late code on every target and code model ----
# Each point's code is given in the RTL (passes/sancov-late.c): after
# register allocation where the target moves the guard's address in one
# plain instruction, before it where that needs a temporary or the PIC
# register, in GIMPLE where the pointer goes on the stack.  On each: the
# placeholder is gone, there are guard calls, and the inline modes reach
# their arrays.  Where the load comes after allocation (EXACT = exact),
# the object is trace-pc's with a load before each call: as many guard
# calls as trace_pc calls, each with a guard address relocation of its
# own (before allocation or in GIMPLE, the optimisers copy blocks
# differently, and loads may be shared).
# no_placeholder_in DIR: no object in DIR has a placeholder left
no_placeholder_in() { ! cat "$1"/*.o | grep -q __kplug_sancov_point; }
# guard_calls_match EXACT P G A: G guard calls and A guard address
# relocations for P (>= 4) trace_pc calls: as many of each where EXACT is
# exact, else at least 4 guard calls and one relocation
guard_calls_match() {
	if [ "$1" = exact ]; then
		[ "$2" -ge 4 ] && [ "$3" = "$2" ] && [ "$4" = "$3" ]
	else
		[ "$2" -ge 4 ] && [ "$3" -ge 4 ] && [ "$4" -ge 1 ]
	fi
}
# inline_modes_reach_arrays OBJDUMP DIR: the inline modes' objects in DIR
# refer to their arrays
inline_modes_reach_arrays() {
	$1 -dr "$2/inline-8bit-counters.o" | grep -q '__sancov_cntrs' &&
		$1 -dr "$2/inline-bool-flag.o" | grep -q '__sancov_bools'
}
# late_target EXACT CC OBJDUMP FLAGS...
late_target() {
	local exact=$1 cc=$2 od=$3 so d name p g a
	shift 3
	name="$cc $*"
	d=$T/late-$(printf '%s' "$name" | cksum | cut -d' ' -f1)
	mkdir -p "$d"
	case $cc in gcc) so=$KPLUG ;; *) so=$(kplug_so_for "$cc") ;; esac
	for m in pc pc-guard inline-8bit-counters inline-bool-flag; do
		$cc -O2 "$@" -c "$S/cross.c" -o "$d/$m.o" -fplugin="$so" \
			-fplugin-arg-kplug-enable=sancov $TRACE=$m 2>"$d/$m.err" ||
			{ diag "$name $m: $(head -3 "$d/$m.err")"; ok 1 "$name: every mode compiles"; return; }
	done
	ok 0 "$name: every mode compiles"
	p=$($od -dr "$d/pc.o" | grep -c 'R_[A-Z0-9_]*[[:space:]]*__sanitizer_cov_trace_pc\([-+].*\)\{0,1\}$')
	g=$($od -dr "$d/pc-guard.o" | grep -c 'R_[A-Z0-9_]*[[:space:]]*__sanitizer_cov_trace_pc_guard\([-+].*\)\{0,1\}$')
	a=$($od -dr "$d/pc-guard.o" | grep -c 'R_[A-Z0-9_]*[[:space:]]*__sancov_guards')
	check "$name: no placeholder left in any object" no_placeholder_in "$d"
	check "$name: $g guard calls for $p trace_pc calls, $a guard address relocations ($exact)" \
		guard_calls_match "$exact" "$p" "$g" "$a"
	check "$name: the inline modes' code reaches their arrays" inline_modes_reach_arrays "$od" "$d"
}
late_target exact gcc objdump				# x86-64 PIE: after allocation
late_target exact gcc objdump -fno-PIE -mcmodel=kernel	# the kernel's
late_target exact gcc objdump -m32 -mregparm=3 -fno-PIE	# i386 kernel's
late_target exact gcc-11 objdump
late_target before gcc objdump -m32 -mregparm=3		# i386 PIC: before allocation
late_target gimple gcc objdump -m32			# stack argument: in GIMPLE
late_target before aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump	# adrp, add
late_target before arm-linux-gnueabi-gcc arm-linux-gnueabi-objdump -mthumb -march=armv7-a -fno-PIE
late_target before arm-linux-gnueabi-gcc arm-linux-gnueabi-objdump -marm

# ---- the layout against clang-14 ----
# sections: "NAME TYPE FLAGS ALIGN" without the group flag, sorted, unique
layout() {
	readelf -SW "$1" | perl -ne '
		next unless /^\s*\[\s*\d+\]\s+(__sancov_\w+|\.init_array\.\d+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+([A-Z]*)\s+\d+\s+\d+\s+(\d+)/;
		my ($n, $t, $f, $a) = ($1, $2, $3, $4);
		$n =~ s/^\.init_array\.0*/.init_array./;	# .init_array.00002 = .init_array.2
		$f =~ s/G//;
		print "$n $t $f $a\n"' | sort -u | xargs
}
# built_by_clang_and_kplug MODE: abi-cov.c into clang.o by clang-14 and
# into gcc.o by gcc with kplug, in MODE with the PC table
built_by_clang_and_kplug() {
	clang-14 -O1 -c "$S/abi-cov.c" -o "$T/clang.o" -fsanitize-coverage=${1/pc-guard/trace-pc-guard},pc-table &&
		gcc -O1 -c "$S/abi-cov.c" -o "$T/gcc.o" -fplugin="$KPLUG" $KSANCOV $TRACE=$1 $PCT
}
for m in $MODES; do
	check "$m: abi-cov.c built by clang-14 and by gcc with kplug" built_by_clang_and_kplug $m
	want=$(layout "$T/clang.o")
	check "$m: clang-14's sections: $want" test -n "$want"
	is "$(layout "$T/gcc.o")" "$want" "$m: the same section names, types, flags, alignments and constructor priority as clang-14"
done
rm -f "$T/gcc.o"
# ctors_off_guards_only: pc-guard with ctors=off builds gcc.o with guards,
# no .init_array and no symbol of an init function
ctors_off_guards_only() {
	gcc -O1 -c "$S/abi-cov.c" -o "$T/gcc.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard \
		-fplugin-arg-kplug-sancov-ctors=off && ! readelf -SW "$T/gcc.o" | grep -q 'init_array' &&
		! nm "$T/gcc.o" | grep -q '_init$' && readelf -SW "$T/gcc.o" | grep -q __sancov_guards
}
check "ctors=off: guards, no constructor, no reference to an init function" ctors_off_guards_only
# bss=on (the kernel's KPLUG_KCOV_UNIQUE): the zero arrays @nobits, the PC table not
for m in $MODES; do
	gcc -O1 -c "$S/abi-cov.c" -o "$T/gcc.o" -fplugin="$KPLUG" $KSANCOV $TRACE=$m $PCT \
		-fplugin-arg-kplug-sancov-bss=on
	is "$(layout "$T/gcc.o" | grep -o '__sancov_[a-z]* [A-Z]*' | xargs)" \
		"$(layout "$T/gcc.o" | grep -o '__sancov_[a-z]*' | sed 's/__sancov_pcs$/& PROGBITS/; /PROGBITS/!s/$/ NOBITS/' | xargs)" \
		"$m, bss=on: the mode's array NOBITS, the PC table PROGBITS"
done
# COMDAT: an inline C++ function's arrays are in its group, as clang++-14 has them
group() {	# group OBJ SIGNATURE: the sections of that group
	readelf -gW "$1" | awk -v s="[$2]" '/group section/ { on = index($0, s) > 0; next }
		on && /^ +\[ *[0-9]+\]/ { print $NF }' | sort | xargs
}
# comdat_built_by_both: abi-comdat.cc into clang.o by clang++-14 and into
# gcc.o by g++ with kplug
comdat_built_by_both() {
	clang++-14 -O0 -c "$S/abi-comdat.cc" -o "$T/clang.o" -fsanitize-coverage=trace-pc-guard,pc-table &&
		g++ -O0 -c "$S/abi-comdat.cc" -o "$T/gcc.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard $PCT
}
check "abi-comdat.cc built by clang++-14 and by g++ with kplug" comdat_built_by_both
want=$(group "$T/clang.o" _Z8in_groupi)
check "clang++-14's group: $want" grep -q __sancov_guards <<<"$want"
is "$(group "$T/gcc.o" _Z8in_groupi)" "$want" "an inline function's guards and PC table are in its COMDAT group"
is "$(group "$T/gcc.o" _Z5plaini)" "" "a plain function has no group"
# plain_guards_section OBJ: OBJ has a plain (WA, no group) __sancov_guards
plain_guards_section() { readelf -SW "$1" | grep -q '__sancov_guards .* WA '; }
check "a plain function's guards are in the plain __sancov_guards" plain_guards_section "$T/gcc.o"

# ---- what kplug guarantees, in every mode ----
for m in $MODES; do
	check "$m: attrs.c compiled" gcc -O2 -c "$S/attrs.c" -DHAVE_NSC -o "$T/attrs.o" -fplugin="$KPLUG" \
		$KSANCOV $TRACE=$m $PCT -fplugin-arg-kplug-sancov-ignore-fun=skip_by_list
	got=$(tables "$T/attrs.o" $m)
	check "$m: a plain function has a table ($got)" grep -q ' cov_plain ' <<<" $got "
	check_exit 1 "$m: no_sanitize_coverage, .noinstr.text and ignored functions have none" \
		grep -qE ' (skip_attr|skip_noinstr|skip_by_list) ' <<<" $got "
	for opt in -O0 -O2; do
		check "$m,cmp $opt: -fcompare-debug clean" gcc $opt -g -fcompare-debug -w -c "$S/abi.c" \
			-o "$T/cd.o" -fplugin="$KPLUG" $KSANCOV $TRACE=$m,cmp $PCT
	done
done
printf 'src:*\nfun:cov_plain\n' > "$T/allow.list"
gcc -O2 -c "$S/attrs.c" -o "$T/allow.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard $PCT \
	-fplugin-arg-kplug-sancov-allow="$T/allow.list"
is "$(tables "$T/allow.o" pc-guard)" "cov_plain" "allow list: only the allowed function has guards"
printf 'src:*attrs.c\n' > "$T/ignore.list"
# ignored_unit_bare: attrs.c, ignored by a src: list, compiles into
# ign.o without __sancov sections or .init_array
ignored_unit_bare() {
	gcc -O2 -c "$S/attrs.c" -o "$T/ign.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard $PCT \
		-fplugin-arg-kplug-sancov-ignore="$T/ignore.list" &&
		! readelf -SW "$T/ign.o" | grep -qE '__sancov|init_array'
}
check "ignored unit: no guards, no table, no constructor" ignored_unit_bare
# never a tail-called guard callback (the check sees them with tailcall=on)
# tail_built_pc_guard OPT: tail.c into k.o with pc-guard and into t.o
# with pc-guard and tailcall=on
tail_built_pc_guard() {
	gcc $1 -c "$S/tail.c" -o "$T/k.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard &&
		gcc $1 -c "$S/tail.c" -o "$T/t.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard \
			-fplugin-arg-kplug-sancov-tailcall=on
}
for opt in -O2 -Os -O3; do
	check "$opt: tail.c built with pc-guard, and with tailcall=on" tail_built_pc_guard $opt
	read -r kj kc <<< "$(guard_jumps "$T/k.o")"
	read -r tj tc <<< "$(guard_jumps "$T/t.o")"
	check "$opt: tailcall=on lets GCC tail-call the guard callback ($tj jmp)" test "$tj" -gt 0
	is "$kj" 0 "$opt: by default no jmp to the guard callback ($kc calls)"
done
# built_with_and_without_gc: abi.c into gc.o, collecting at every
# opportunity, and into nogc.o
built_with_and_without_gc() {
	gcc -O2 -c "$S/abi.c" -o "$T/gc.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard,cmp $PCT \
		--param ggc-min-expand=0 --param ggc-min-heapsize=0 &&
		gcc -O2 -c "$S/abi.c" -o "$T/nogc.o" -fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard,cmp $PCT
}
check "collection at every opportunity: no crash" built_with_and_without_gc
is "$(facts "$T/gc.o" pc-guard)" "$(facts "$T/nogc.o" pc-guard)" "collection at every opportunity: same guards and table"
for r in "" -fno-toplevel-reorder; do
	gcc -O2 $r -c "$S/abi.c" -o "$T/r$r.o" -fplugin="$KPLUG" $KSANCOV $TRACE=inline-8bit-counters $PCT
done
read -r n pcs rel tab ctors bad <<< "$(facts "$T/r-fno-toplevel-reorder.o" inline-8bit-counters)"
# (it keeps unused static functions: more counters than without it)
# one_pc_per_counter N PCS REL CTORS BAD: N (> 0) counters, as many PCs
# and relocations, one constructor, nothing BAD
one_pc_per_counter() {
	[ "$1" -gt 0 ] && [ "$2" = "$1" ] && [ "$3" = "$1" ] && [ "$4" = 1 ] && [ -z "$5" ]
}
check "-fno-toplevel-reorder: $n counters, as many PCs, one constructor ($tab)" \
	one_pc_per_counter "$n" "$pcs" "$rel" "$ctors" "$bad"

# ---- .sancov files: GCC's libasan, read by sancov-14 ----
if need_cmd sancov-14 clang-tools-14; then
	for opt in -O0 -O2; do
		rm -f "$T/cov"
		check "$opt: abi-cov.c built by GCC 12 with pc-guard and -fsanitize=address -static-libasan" \
			gcc $opt -g -fsanitize=address -static-libasan "$S/abi-cov.c" -o "$T/cov" \
			-fplugin="$KPLUG" $KSANCOV $TRACE=pc-guard
		for run in ":main" "a:cov_one main" "ab:cov_one cov_two main" \
			"abc:cov_four cov_one cov_three cov_two main"; do
			arg=${run%%:*} want=${run#*:}
			rm -rf "$T/sc" && mkdir "$T/sc"
			(cd "$T/sc" && ASAN_OPTIONS=coverage=1:coverage_dir=. ../cov $arg >/dev/null 2>&1)
			files=$(ls "$T/sc"/cov.*.sancov 2>/dev/null | wc -l)
			is "$files" 1 "$opt '$arg': one .sancov file written"
			got=$(sancov-14 -covered-functions "$T/cov" "$T/sc"/cov.*.sancov 2>/dev/null |
				awk '{ print $NF }' | sort | xargs)
			is "$got" "$(echo "$want" | tr ' ' '\n' | sort | xargs)" \
				"$opt '$arg': sancov-14 -covered-functions lists exactly the functions that ran"
		done
	done
fi

# ---- libFuzzer: GCC-built harness, inline-8bit-counters,cmp and the PC table ----
if [ -f "$FUZZER" ]; then
	# fuzz_harness_built: abi-fuzz.c with inline-8bit-counters,cmp and the
	# PC table, linked with libFuzzer into fz
	fuzz_harness_built() {
		gcc -O2 -g -c "$S/abi-fuzz.c" -o "$T/fz.o" -fplugin="$KPLUG" $KSANCOV \
			$TRACE=inline-8bit-counters,cmp $PCT &&
			g++ "$T/fz.o" "$FUZZER" -lpthread -lm -ldl -o "$T/fz"
	}
	# found_planted_bug RC OUT: the fuzzer failed (exit status RC) on a
	# deadly signal (its output OUT), and its crash file holds the input
	found_planted_bug() {
		[ "$1" -ne 0 ] && grep -q 'deadly signal' <<<"$2" &&
			grep -q 'GLPKcov!' "$T"/fzw/crash-* 2>/dev/null
	}
	# control_run_clean: fzn (no cmp) runs 1,000,000 inputs without a crash
	control_run_clean() { (cd "$T/fzw" && ../fzn -seed=1 -runs=1000000 >/dev/null 2>&1); }
	check "harness built by GCC 12 with kplug, linked with libclang_rt.fuzzer" fuzz_harness_built
	read -r n pcs _ <<< "$(facts "$T/fz.o" inline-8bit-counters)"
	rm -rf "$T/fzw" && mkdir "$T/fzw"
	out=$(cd "$T/fzw" && ../fz -seed=1 -runs=20000000 2>&1); rc=$?
	check "libFuzzer loads the $n counters of __sancov_cntrs" \
		grep -q "INFO: Loaded 1 modules *($n inline 8-bit counters)" <<<"$out"
	check "libFuzzer loads the PC table ($pcs PCs)" grep -q "INFO: Loaded 1 PC tables ($pcs PCs)" <<<"$out"
	check_exit 1 "libFuzzer finds the table and the counters consistent" \
		grep -q 'size of coverage PC tables does not match' <<<"$out"
	check "libFuzzer finds the planted bug ($(echo "$out" | grep -oE '^#[0-9]+' | tail -1) executions)" \
		found_planted_bug "$rc" "$out"
	# the control: without cmp, the same budget does not reach it
	gcc -O2 -g -c "$S/abi-fuzz.c" -o "$T/fzn.o" -fplugin="$KPLUG" $KSANCOV \
		$TRACE=inline-8bit-counters $PCT && g++ "$T/fzn.o" "$FUZZER" -lpthread -lm -ldl -o "$T/fzn"
	rm -rf "$T/fzw" && mkdir "$T/fzw"
	check "control: without cmp, 1,000,000 executions do not find it" control_run_clean
else
	skip "libclang_rt.fuzzer-x86_64.a missing (apt-get install libclang-rt-14-dev)"
fi

rm -rf "$T"
done_testing
