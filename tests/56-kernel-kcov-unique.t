#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KPLUG_KCOV_UNIQUE end to end: an x86_64 Linux 7.2 kernel (gcc-14, in
# Debian 13's chroot) like the shared 7.2 one (kt_build_x86_72) but built with kplug's sancov-trace=pc-guard, its
# guards in .bss, and kplug's kernel/kcov.c patch; an external module built
# M= against it.  The kernel is pruned too (KPLUG_SANCOV_PRUNE_MIN), as a
# fuzzing kernel would combine the two: 57-kernel-prune.t boots the same
# build (one kernel build less in the suite).  In qemu, /init (tests/kernel/kcov-unique.c) runs 100
# read(-1) in a KCOV_TRACE_PC session, in two KCOV_UNIQUE_ENABLE sessions
# and after KCOV_RESET_TRACE, then reads the module's debugfs file in both
# modes.  The cost figures (.text, .bss, PCs recorded) are measured
# against the shared trace-pc build.  A bad configuration (arm64) stops
# with one line naming the option.
# runs alone
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
. "$TOP/tests/kernel/lib-qemu.sh"

kt_qemu_start "KCOV_UNIQUE boot test" kcov-unique
NAME=$KT_UNIQUE
U=$KOUT/$NAME
BASE=$KOUT/$KT_X86_72

# ---- the two kernels ----
# (kt_build says whether it reused a cached build or how long it took)
check "trace-pc kernel $KT_X86_72" kt_build_x86_72
# shellcheck disable=SC2086
check "KPLUG_KCOV_UNIQUE kernel $NAME" kt_build_unique

# ---- what the build did ----
cmd=$U/fs/.read_write.o.cmd
# unique_flags CMDFILE: the object was compiled with trace=pc-guard, ctors=off, bss=on
unique_flags() {
	grep -qE -- '-fplugin-arg-kplug-default-sancov-trace=pc-guard[ ,]' "$1" &&
		grep -q -- '-fplugin-arg-kplug-sancov-ctors=off' "$1" &&
		grep -q -- '-fplugin-arg-kplug-sancov-bss=on' "$1"
}
check "fs/read_write.o: kplug's sancov with trace=pc-guard, ctors=off, bss=on" unique_flags "$cmd"
calls() {	# calls OBJ CALLBACK: call sites of CALLBACK (relocations)
	objdump -dr "$1" | grep -cE "R_X86_64_\w+\s+$2(-0x4)?\$"
}
o=$U/fs/read_write.o
n_guard=$(calls "$o" __sanitizer_cov_trace_pc_guard)
n_pc=$(calls "$o" __sanitizer_cov_trace_pc)
ok $((n_guard > 0 && n_pc == 0 ? 0 : 1)) \
	"fs/read_write.o: $n_guard guard call sites, $n_pc trace_pc call sites"
# nobits_guards OBJ: OBJ's guards are in a NOBITS __sancov_guards, and OBJ has no constructor
nobits_guards() { readelf -SW "$1" | grep -qE '__sancov_guards +NOBITS' && ! readelf -SW "$1" | grep -q init_array; }
check "fs/read_write.o: guards in a NOBITS __sancov_guards, no constructor" nobits_guards "$o"
g_obj=$(readelf -SW "$U/vmlinux.o" | perl -ne 'print hex($1) if /__sancov_guards\s+\S+\s+\S+\s+\S+\s+(\S+)/')
sym() { nm "$1" | awk -v s="$2" '$3 == s { print $1 }'; }
g_start=$(sym "$U/vmlinux" __start___sancov_guards)
g_stop=$(sym "$U/vmlinux" __stop___sancov_guards)
g_len=$((0x${g_stop:-0} - 0x${g_start:-0}))
is "$g_len" "${g_obj:-none}" "vmlinux: the guards of vmlinux.o ($g_len bytes, $((g_len / 4)) points) are in one range"
# guards_merged FILE: FILE has no __sancov_guards section, and a NOBITS .bss
guards_merged() { ! readelf -SW "$1" | grep -q __sancov_guards && readelf -SW "$1" | grep -qE ' \.bss +NOBITS'; }
check "vmlinux: no __sancov_guards section left, .bss still NOBITS" guards_merged "$U/vmlinux"
check "vmlinux: the guards lie between __bss_start and __bss_stop" perl -e 'exit !(hex($ARGV[0]) <= hex($ARGV[2]) && hex($ARGV[2]) <= hex($ARGV[1]) &&
	hex($ARGV[0]) <= hex($ARGV[3]) && hex($ARGV[3]) <= hex($ARGV[1]))' \
	"$(sym "$U/vmlinux" __bss_start)" "$(sym "$U/vmlinux" __bss_stop)" "$g_start" "$g_stop"
guard_warnings='warning:.*(__sancov_guards|__sanitizer_cov_trace_pc_guard|changed to PROGBITS)'
grep -iE "$guard_warnings" "$U/build-full.log" | head -3 | diag_in
is "$(grep -ciE "$guard_warnings" "$U/build-full.log")" 0 \
	"the build logs no warning about the guards (linker, objtool)"

# ---- cost against the trace-pc kernel ----
# (the sections' sizes are rounded up: vmlinux's .text ends on a 2 MB
# boundary, and so may the end of .bss's objects; the code is measured as
# the sum of the functions' sizes between _stext and _etext)
secsize() {	# secsize ELF SECTION: its size in bytes
	readelf -SW "$1" | perl -ne 'print hex($1) if /\s\Q'"$2"'\E\s+\S+\s+\S+\s+\S+\s+(\S+)/'
}
codesize() {	# codesize VMLINUX: bytes of the functions in .text
	nm -S "$1" | perl -ne '
		$s = hex($1) if /^(\S+) [tT] _stext$/;
		$e = hex($1) if /^(\S+) [tT] _etext$/;
		push @f, [hex($1), hex($2)] if /^(\S+) (\S+) [tTwW] /;
		END { $n += $_->[1] for grep { $_->[0] >= $s && $_->[0] < $e } @f; print $n }'
}
pct() { perl -e 'printf "%+.1f%%", 100 * ($ARGV[1] - $ARGV[0]) / $ARGV[0]' "$@"; }
"$TOP/tools/kplug-report" cover "$U/vmlinux" /dev/null 2>"$W/static.txt" >/dev/null
probes=$(sed -n 's/.*functions, \([0-9]*\) probes.*/\1/p' "$W/static.txt")
# (in vmlinux.o: the final link discards a few functions, .exit.text's,
# whose guards stay in .bss)
sites=$(objdump -dr "$U/vmlinux.o" | grep -cE 'R_X86_64_PLT32\s+__sanitizer_cov_trace_pc_guard-0x4$')
is "$((g_len / 4))" "$sites" "vmlinux: one guard per call site of __sanitizer_cov_trace_pc_guard in vmlinux.o ($sites; the map has ${probes:-no} probes)"
b=$(codesize "$BASE/vmlinux") u=$(codesize "$U/vmlinux")
ok $((b > 0 && u > 0 ? 0 : 1)) "cost: code in .text: trace-pc (unpruned) $b, pc-guard (pruned) $u bytes: $((u - b)) ($(pct "$b" "$u"))"
b=$(secsize "$BASE/vmlinux" .bss) u=$(secsize "$U/vmlinux" .bss)
diag "cost: .bss: guards $g_len bytes ($((g_len / 4)) points); section trace-pc $b, pc-guard $u bytes: +$((u - b)) ($(pct "$b" "$u"))"

# ---- pruning (sancov-prune) combines with it ----
# fs/read_write.o compiled again from its .cmd line (up to the source file:
# no objtool) with pruning turned off, by the kernel's compiler.
# compile_unpruned: fs/read_write.o of $U compiled again into $W/unpruned.o, sancov-prune=off
compile_unpruned() {
	local prune_cmd
	prune_cmd=$(perl "$TOP/tests/kernel/kbuild-cmd.pl" "$U" fs/read_write.o) &&
		(cd "$U" && $(kt_runner 7.2) sh -c "$prune_cmd -fplugin-arg-kplug-sancov-prune=off -o $W/unpruned.o")
}
check "fs/read_write.o compiled again with sancov-prune=off" compile_unpruned
check "fs/read_write.o: the kernel's build pruned it (default-sancov-prune=min)" grep -q -- '-fplugin-arg-kplug-default-sancov-prune=min ' "$cmd"
p_len=$(secsize "$o" __sancov_guards)
f_len=$(secsize "$W/unpruned.o" __sancov_guards)
ok $((p_len > 0 && p_len < f_len ? 0 : 1)) "pruned fs/read_write.o: $((p_len / 4)) guards instead of $((f_len / 4))"
check "pruned fs/read_write.o: guards still NOBITS, no constructor" nobits_guards "$o"

# ---- a module built M= ----
cp -r "$TOP/tests/kernel/kcovmod" "$W/kcovmod"
# build_kcovmod: kcovmod.ko built with M= in $W/kcovmod against the kernel $NAME (sets SRC)
build_kcovmod() { SRC=$(kt_tree 7.2) && kt_make "$NAME" x86_64 M="$W/kcovmod" modules; }
check "kcovmod.ko built with M= against $NAME" build_kcovmod
KO=$W/kcovmod/kcovmod.ko
m_guard=$(calls "$KO" __sanitizer_cov_trace_pc_guard)
ok $((m_guard > 0 ? 0 : 1)) "kcovmod.ko: $m_guard guard call sites"
# guards_in_bss KO: KO has neither __sancov_guards nor a constructor, and a NOBITS .bss
guards_in_bss() {
	! readelf -SW "$1" | grep -qE '__sancov_guards|init_array' &&
		readelf -SW "$1" | grep -qE ' \.bss +NOBITS'
}
check "kcovmod.ko: the guards merged into a NOBITS .bss, no constructor" guards_in_bss "$KO"
m_obj=$(secsize "$W/kcovmod/kcovmod.o" __sancov_guards)
m_bss=$(secsize "$KO" .bss)
ok $((m_obj > 0 && m_bss >= m_obj ? 0 : 1)) "kcovmod.ko: .bss ($m_bss bytes) holds the $m_obj bytes of guards"

# ---- the boot ----
check "static /init built from tests/kernel/kcov-unique.c" gcc -static -O2 -Wall -I"$TOP/tests/kernel" -o "$W/init" "$TOP/tests/kernel/kcov-unique.c"
check "initramfs with /init and kcovmod.ko" kt_initramfs "$U" "$W/initramfs.cpio" "$W/init" "$KO"
t=$(date +%s)
kt_boot "$U" "$W/initramfs.cpio" "$W/serial.log" nokaslr
check "booted, /init ran every session ($(($(date +%s) - t))s)" grep -q '^KCOV-DONE' "$W/serial.log"
kt_retries "$W/serial.log"
grep -E '^KCOV-ERROR|BUG|WARNING|Oops' "$W/serial.log" | head -5 | diag_in
is "$(grep -cE '^KCOV-ERROR|BUG:|WARNING:|Oops' "$W/serial.log")" 0 "no KCOV-ERROR, BUG, WARNING or Oops on the console"

pcs() {	# pcs SESSION: "PC count" lines
	sed -n "s/^KCOV-$1-PC //p" "$W/serial.log"
}
count() { sed -n "s/^KCOV-$1-COUNT //p" "$W/serial.log"; }
maxn() { pcs "$1" | awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }'; }
minn() { pcs "$1" | awk 'BEGIN { m = -1 } m < 0 || $2 < m { m = $2 } END { print m }'; }
funcs() { pcs "$1" | awk '{ print $1 }' | kt_symbolize "$U/vmlinux" | sed 's/+0x.*//' | sort -u | xargs; }
set_of() { pcs "$1" | awk '{ print $1 }' | sort | xargs; }

# trace: the unchanged client
N_TRACE=$(count trace)
N_DIST=$(pcs trace | wc -l)
ok $((N_DIST > 0 ? 0 : 1)) "trace: $N_TRACE PCs, $N_DIST distinct, in: $(funcs trace)"
pcs trace | awk '{ print $1 }' | kt_symbolize "$U/vmlinux" | grep -vE "$KT_READ_PATH" >"$W/off-path.txt"
ok "$(wc -l <"$W/off-path.txt")" "trace: every PC lies in the read path"
diag_in <"$W/off-path.txt"
is "$(pcs trace | awk '$2 % 100 { print }' | wc -l)/$((N_TRACE % 100))" "0/0" \
	"trace: every PC recorded a multiple of 100 times (the path, 100 times)"

# unique1: each point once, the same points
is "$(maxn unique1)" 1 "unique1: every PC recorded once ($(count unique1) PCs)"
is "$(set_of unique1)" "$(set_of trace)" "unique1: the same PCs as the trace-pc session"
is "$(funcs unique1)" "$(funcs trace)" "unique1: the same functions as the trace-pc session"
# unique2: a new session sees the path again
is "$(maxn unique2)/$(set_of unique2)" "1/$(set_of trace)" \
	"unique2: a second session records the path again, each PC once (the kernel cleared the bitmap)"
is "$(maxn reset)/$(set_of reset)" "1/$(set_of trace)" \
	"reset: after KCOV_RESET_TRACE the path again, each PC once"

# the module: its PCs mapped to its functions with its own symbols
fn=$(sed -n 's/^KCOV-MOD-FN //p' "$W/serial.log")
objdump -t "$KO" | awk '$4 == ".text" && $3 == "F" { print $1, $5, $6 }' >"$W/mod-syms.txt"
modpcs() {	# modpcs SESSION: "function count" of the module's PCs
	pcs "$1" | perl -e '
		my ($fn, $syms) = (hex(shift), shift);
		my %s;
		open(my $f, "<", $syms) or die;
		while (<$f>) { my ($o, $n, $name) = split; $s{$name} = [hex($o), hex($n)] }
		my $base = $fn - $s{kcovmod_read}[0];
		while (<STDIN>) {
			my ($pc, $n) = split;
			$pc = hex($pc) - $base;
			for my $name (sort keys %s) {
				my ($o, $len) = @{$s{$name}};
				printf "%s+0x%x %d\n", $name, $pc - $o, $n if $pc >= $o && $pc < $o + $len;
			}
		}' "$fn" "$W/mod-syms.txt"
}
modpcs modtrace >"$W/mod-trace.txt"
modpcs modunique >"$W/mod-unique.txt"
diag "modtrace: $(paste -sd' ' "$W/mod-trace.txt")"
# work_and_read PCS: the symbolized PCS hit kcovmod_work and kcovmod_read
work_and_read() { grep -qE '^kcovmod_work[.+]' "$1" && grep -q '^kcovmod_read+' "$1"; }
check "modtrace: PCs in kcovmod_work and kcovmod_read" work_and_read "$W/mod-trace.txt"
ok "$(awk '$2 < 10 { n++ } END { print n + 0 }' "$W/mod-trace.txt")" \
	"modtrace: every module PC at least 10 times (10 reads)"
is "$(awk '{ print $2 }' "$W/mod-unique.txt" | sort -u | xargs)/$(awk '{ print $1 }' "$W/mod-unique.txt" | xargs)" \
	"1/$(awk '{ print $1 }' "$W/mod-trace.txt" | xargs)" \
	"modunique: the module's PCs of modtrace, each once"

# ---- the figures ----
N_UNIQ=$(count unique1)
diag "PCs recorded for 100 read(-1): trace-pc $N_TRACE, unique $N_UNIQ: ratio $(perl -e 'printf "%.1f", $ARGV[0] / ($ARGV[1] || 1)' "$N_TRACE" "$N_UNIQ")"
diag "PCs recorded for 10 reads of the module's file: trace-pc $(count modtrace), unique $(count modunique)"

# ---- bad configuration: one line naming the option ----
# arm64 Linux 6.12 (kplug's kernel patches are for x86_64): the build
# stops when kbuild reaches kplug's directory, before compiling anything.
BAD=$KOUT/arm64-6.12-unique-bad
rm -rf "$BAD"
# unique_stops_arm64: configured for arm64 with KPLUG_KCOV_UNIQUE=y, the build fails
unique_stops_arm64() {
	# shellcheck disable=SC2086
	kt_configure arm64-6.12-unique-bad 6.12 arm64 $KT_KPLUG KPLUG_KCOV_UNIQUE=y &&
		! kt_make arm64-6.12-unique-bad arm64 scripts 2>/dev/null
}
check "arm64 with KPLUG_KCOV_UNIQUE=y: the build stops" unique_stops_arm64
is "$(grep -o 'kplug: CONFIG_KPLUG_KCOV_UNIQUE.*' "$BAD/build.log")" \
	"kplug: CONFIG_KPLUG_KCOV_UNIQUE needs x86_64 and Linux 6.12 or 7.2 (this is arm64, Linux 6.12): turn it off.  Stop." \
	"arm64: one line naming the option"
is "$(find "$BAD" -name '*.o' ! -path "$BAD/scripts/*" | wc -l)" 0 "arm64: no kernel object compiled"
rm -rf "$BAD"
diag "kcov-unique test: $(($(date +%s) - T0))s"
done_testing
