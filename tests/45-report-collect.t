# Reports travel with the object: cyc_complexity-embed=on writes the JSON
# Lines records into section .kplug.cyc (not allocated, SHF_EXCLUDE), and
# "kplug-report collect" (tools/report/input/objects.c, elf.c) prints them back from objects, archives (thin too), ld -r outputs (.ko)
# and directories, ELF32/ELF64 of both byte orders.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d "$OUT/collect.XXXXXX")
SRCS=("${REPORT_SRCS[@]}")
check "kplug-report builds without warnings" gcc -O2 -Wall -Wextra -Werror -pthread -I"$TOP" -o "$T/kplug-report" "${SRCS[@]}" -lm
check "kplug-report builds with ASan and UBSan" gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -pthread -I"$TOP" \
	-o "$T/kplug-report-asan" "${SRCS[@]}" -lm
C() { "$T/kplug-report" collect "$@"; }
CA() { "$T/kplug-report-asan" collect "$@"; }

mkdir -p "$T/b/drivers/net" "$T/b/lib" "$T/b/mods"
cp "$TOP/tests/fixtures/sample.c" "$TOP/tests/fixtures/sample.h" "$T/b/drivers/net/"
sed -E 's/\<(straight|one_branch|loop_sum|classify|checked|logic)\>/o_\1/g' \
	"$TOP/tests/fixtures/sample.c" > "$T/b/lib/other.c"
cp "$TOP/tests/fixtures/sample.h" "$T/b/lib/"
cp "$TOP/tests/sancov/lists.c" "$T/b/mods/m.c"
EMB="-fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-embed=on"
JSONL="-fplugin-arg-kplug-cyc_complexity-format=jsonl -fplugin-arg-kplug-cyc_complexity-output=$T/report.jsonl"
# compile_units: the three units of $T/b compile with embed=on and a jsonl report
compile_units() {
	(cd "$T/b" && for f in drivers/net/sample.c lib/other.c mods/m.c; do
		kgcc -O2 -c "$f" -o "${f%.c}.o" $EMB $JSONL || exit 1
	done)
}
check "three units compile with embed=on and a jsonl report" compile_units
is "$(cd "$T/b" && kgcc -O2 -c lib/other.c -o "$T/quiet.o" $EMB 2>&1)" "" \
	"embed=on without output=: the compile prints nothing"
n=$(wc -l < "$T/report.jsonl")
check "the jsonl report has $n records" test "$n" -ge 15

# an archive, a thin archive elsewhere, a module made with ld -r -T
printf 'SECTIONS {\n .text : { *(.text .text.*) }\n .data : { *(.data .data.*) }\n}\n' > "$T/module.lds"
# link_units: archives, a thin archive, a module (ld -r -T) and vmlinux.o of $T/b
link_units() {
	(cd "$T/b" && ar rcs lib/lib.a lib/other.o && ar rcsT drivers/built-in.a drivers/net/sample.o &&
		ld -r -T "$T/module.lds" mods/m.o -o mods/m.ko && ld -r --whole-archive drivers/built-in.a \
		lib/lib.a mods/m.o -o vmlinux.o)
}
check "archives, thin archive, ld -r -T module and vmlinux.o" link_units
# excluded_section OBJ: OBJ has .kplug.cyc, flagged SHF_EXCLUDE
excluded_section() { readelf -SW "$1" | grep -q '\.kplug\.cyc .* E '; }
check "ld -r -T (a .ko) keeps .kplug.cyc with SHF_EXCLUDE" excluded_section "$T/b/mods/m.ko"

is "$(C "$T/b" | sort | md5sum)" "$(sort "$T/report.jsonl" | md5sum)" \
	"collect DIR: the records of the jsonl report, each once"
is "$("$TOP/tools/kplug-report" collect "$T/b" | sort | md5sum)" "$(sort "$T/report.jsonl" | md5sum)" \
	"tools/kplug-report collect DIR (the binary make builds)"
is "$(C "$T/b/vmlinux.o" | sort | md5sum)" "$(sort "$T/report.jsonl" | md5sum)" \
	"collect vmlinux.o (ld -r of a thin archive and an archive)"
is "$(C "$T/b/mods/m.ko" | sort | md5sum)" "$(grep '"tu":"mods/m.c"' "$T/report.jsonl" | sort | md5sum)" \
	"collect a .ko"
is "$(cd / && C "$T/b/drivers/built-in.a" | sort | md5sum)" \
	"$(grep '"tu":"drivers/net/sample.c"' "$T/report.jsonl" | sort | md5sum)" \
	"collect a thin archive from another directory: members relative to the archive"
is "$(C "$T/b/lib/lib.a" | sort | md5sum)" "$(grep '"tu":"lib/other.c"' "$T/report.jsonl" | sort | md5sum)" \
	"collect a regular archive"

# ELF32/ELF64, little and big endian; real arm and arm64 objects
for t in elf32-little elf32-big elf64-little elf64-big; do
	objcopy -I binary -O $t --rename-section .data=.kplug.cyc,contents,exclude \
		"$T/report.jsonl" "$T/$t.o"
	is "$(C "$T/$t.o" | md5sum)" "$(md5sum < "$T/report.jsonl")" "$t object"
done
printf '.section .kplug.cyc,"e"\n.incbin "%s"\n' "$T/report.jsonl" > "$T/inc.s"
for cc in arm-linux-gnueabi-gcc aarch64-linux-gnu-gcc; do
	if command -v $cc >/dev/null; then
		$cc -c "$T/inc.s" -o "$T/$cc.o"
		is "$(C "$T/$cc.o" | md5sum)" "$(md5sum < "$T/report.jsonl")" "$cc object"
	else
		skip "$cc not installed"
	fi
done

# the allocated sections and the code are those of a compile without embed
(cd "$T/b" && kgcc -O2 -c drivers/net/sample.c -o "$T/plain.o" -fplugin-arg-kplug-enable=cyc_complexity \
	-fplugin-arg-kplug-cyc_complexity-output=/dev/null)
alloc() {	# alloc OBJ: name and bytes of every allocated section
	local s
	for s in $(readelf -SW "$1" | awk '/^ *\[ *[0-9]+\]/ { sub(/^ *\[ *[0-9]+\] */, ""); if ($7 ~ /A/) print $1 }'); do
		if readelf -SW "$1" | grep -q " $s  *NOBITS "; then
			echo "$s nobits $(readelf -SW "$1" | awk -v s="$s" '$2 == s { print $6 }')"
		else
			objcopy --dump-section "$s=$T/sec.bin" "$1" "$T/dump.o" && echo "$s $(md5sum < "$T/sec.bin")"
		fi
	done
}
a1=$(alloc "$T/plain.o"); a2=$(alloc "$T/b/drivers/net/sample.o")
# equal_nonempty A B: A is not empty and B the same
equal_nonempty() { [ -n "$1" ] && [ "$2" = "$1" ]; }
check "allocated sections byte-identical with and without embed ($(echo "$a1" | wc -l) sections)" \
	equal_nonempty "$a1" "$a2"
objdump -dr "$T/plain.o" 2>/dev/null | tail -n +3 > "$T/plain.dis"
objdump -dr "$T/b/drivers/net/sample.o" 2>/dev/null | tail -n +3 > "$T/embed.dis"
same_nonempty "$T/plain.dis" "$T/embed.dis" "same code and relocations with and without embed"

# a final link drops the section, without an orphan warning
printf 'void panic(const char *s) { for (;;); }\nint main(void) { return 0; }\n' > "$T/main.c"
(cd "$T/b" && kgcc -O2 -c "$T/main.c" -o main.o $EMB)
# silent_link_drops EXE CMD...: CMD links EXE without a word (what it
# said is left in out), and EXE has no kplug section
silent_link_drops() {
	local exe=$1
	shift
	out=$("$@" 2>&1) && [ -z "$out" ] && ! readelf -SW "$exe" | grep -q kplug
}
check "gcc links an executable: no .kplug.cyc, no message" \
	silent_link_drops "$T/exe" gcc -o "$T/exe" "$T/b/main.o" "$T/b/drivers/net/sample.o"
cat > "$T/final.lds" <<'EOF'
ENTRY(main)
SECTIONS {
  .text : { *(.text .text.*) }
  .rodata : { *(.rodata .rodata.*) }
  .data : { *(.data .data.*) }
  .bss : { *(.bss .bss.* COMMON) }
  .got : { *(.got) *(.igot) }
  .got.plt : { *(.got.plt) *(.igot.plt) }
  .iplt : { *(.iplt) }
  .rela.dyn : { *(.rela.*) }
  /DISCARD/ : { *(.comment) *(.note.GNU-stack) *(.note.gnu.property) *(.eh_frame) }
}
EOF
final() { ld --orphan-handling=warn --no-warn-rwx-segments -T "$T/final.lds" -o "$T/final" "$@" 2>&1; }
check "ld -T --orphan-handling=warn: section dropped, no warning" \
	silent_link_drops "$T/final" final "$T/b/main.o" "$T/b/vmlinux.o"
[ -z "$out" ] || diag "$out"
# the check sees an orphan: the same records in an allocated section warn
printf '.section .kplug.cyc,"a"\n.ascii "{}\\n"\n' | as -o "$T/alloc.o"
# warns_orphan OBJ...: the final link of OBJ... warns that .kplug.cyc is an orphan
warns_orphan() { final "$@" | grep -q "orphan section \`.kplug.cyc'"; }
check "(an allocated .kplug.cyc would be an orphan: the check can fail)" warns_orphan "$T/b/main.o" "$T/alloc.o"

# bad input: one error naming the file, never a crash
C "$T/b/main.o" > /dev/null 2> "$T/err"; rc=$?
is "$rc:$(cat "$T/err")" "0:" "object with records: exit 0, silent"
echo 'int x;' > "$T/none.c" && gcc -c "$T/none.c" -o "$T/none.o"
C "$T/none.o" > /dev/null 2> "$T/err"; rc=$?
# says_no_records RC: RC is 2, and $T/err says there was no record
says_no_records() { [ "$1" -eq 2 ] && grep -q 'no .kplug.cyc records' "$T/err"; }
check "no record at all: exit 2 and says why" says_no_records "$rc"
echo junk > "$T/junk.o"
out=$(C "$T/junk.o" "$T/b" 2>&1 >/dev/null); rc=$?
# one_error_naming RC OUT PATTERN: RC is 2 and OUT one line, matching PATTERN
one_error_naming() { [ "$1" -eq 2 ] && [ "$(echo "$2" | wc -l)" = 1 ] && echo "$2" | grep -q -- "$3"; }
check "a junk .o: one error naming it, exit 2" one_error_naming "$rc" "$out" "junk.o: neither an ELF"
crash=0 lines=0 named=0 tries=0
obj=$T/b/drivers/net/sample.o size=$(stat -c %s "$obj")
for cut in $(seq 0 97 "$size") $((size - 1)); do
	head -c "$cut" "$obj" > "$T/cut.o"
	CA "$T/cut.o" > /dev/null 2> "$T/err"; rc=$?
	tries=$((tries + 1))
	[ $rc -ge 3 ] && crash=$((crash + 1)) && diag "cut $cut: exit $rc $(head -3 "$T/err")"
	[ "$(wc -l < "$T/err")" -le 1 ] && lines=$((lines + 1))
	[ $rc -eq 0 ] || grep -q 'cut.o' "$T/err" && named=$((named + 1))
done
is "$crash:$lines:$named" "0:$tries:$tries" "$tries truncations: no crash (ASan), at most one line, naming the file"
perl -e 'srand(7); my $d = do { local $/; open my $f, "<", $ARGV[0] or die; binmode $f; <$f> };
	for my $i (1 .. 300) { my $m = $d; for (1 .. 1 + int(rand(8))) {
		substr($m, int(rand(length $m)), 1) = chr(int(rand(256))) }
		open my $o, ">", "$ARGV[1]/mut$i.o" or die; binmode $o; print $o $m; close $o }' \
	"$T/b/vmlinux.o" "$T" && mkdir -p "$T/mut" && mv "$T"/mut*.o "$T/mut/"
CA "$T/mut" > /dev/null 2> "$T/err"; rc=$?
# survived_mutants RC: the 300 mutants were read, RC is at most 2 and $T/err has no sanitizer report
survived_mutants() { [ "$(ls "$T/mut" | wc -l)" = 300 ] && [ "$1" -le 2 ] && ! grep -q 'Sanitizer' "$T/err"; }
check "300 mutated objects under ASan: no crash (exit $rc, $(wc -l < "$T/err") error lines)" survived_mutants "$rc"
printf '!<arch>\n' > "$T/empty.a"; printf '!<arch>\nshort' > "$T/short.a"
ln -s "$T/self.a" "$T/self.a" 2>/dev/null
printf '!<thin>\n' > "$T/loop.a"
printf '%-16s%-12s%-6s%-6s%-8s%-10s`\n' "loop.a/" 0 0 0 644 8 >> "$T/loop.a"
for f in short.a loop.a; do
	out=$(CA "$T/$f" 2>&1 >/dev/null); rc=$?
	check "$f: one error naming it ($out)" one_error_naming "$rc" "$out" "$f"
done
rm -rf "$T"
done_testing
