#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug integrated with kplug-kbuild into fresh Debian Linux trees and
# built (tinyconfig-based, O= directories) with cyc_complexity and sancov
# (KCOV) on: 6.12 for x86_64; 7.2, in Debian 13's chroot with its gcc-14
# (tools/toolchain-chroot), for x86_64, arm64 (its cross gcc-14, the compat
# vdso by the 32-bit arm gcc-14) and um; for 6.1 x86_64, 6.12 arm64
# (compat vdso, the host's cross compilers) and 6.12 arm (vdso on),
# kbuild's plugin and each kind of object (a few targets, check_units).  From the .cmd
# files: one kplug flag per vmlinux
# C object, none in any vdso object, no -fsanitize-coverage anywhere; with
# objdump: sancov call sites in instrumented objects and none in vdso or
# KCOV_INSTRUMENT := n objects.  The x86_64 6.12 build is the one the
# other kernel tests share (kt_build_x86: with the profile paths.ini, so
# lib/ and mm/ must have no call sites); on it also: trace-cmp, an
# external module (make M=), rebuilds on profile change, KPLUG=prebuilt
# and the error messages of bad settings, after which the build is put
# back as it was.
# KPLUG_KERNEL_BUILDS="arm-6.12 um-7.2" runs only the builds named (for
# development); the default is all of them.
# runs alone
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"

if quick; then
	skip "kernel builds (KPLUG_QUICK)"
	done_testing
fi

# vdso_obj_seen OBJ: the build checker saw the vdso object OBJ
vdso_obj_seen() { kt_vdso_objs | grep -qx "$1"; }
# no_kplug_flags CMD: CMD (a compile command) is there and has no kplug flag or argument
no_kplug_flags() { [ -n "$1" ] && ! grep -qE -- '-fplugin=[^ ]*kplug.so|-fplugin-arg-kplug-' <<<"$1"; }
# kplug_without_permit CMD: CMD loads kplug once, without sancov's permit
kplug_without_permit() {
	[ "$(grep -o -- '-fplugin=[^ ]*kplug.so' <<<"$1" | wc -l)" = 1 ] &&
		! grep -q -- 'kplug-permit=sancov' <<<"$1"
}

# check_build NAME ARCH VDSO_OBJ...: the assertions every build gets.
check_build() {
	local name=$1 arch=$2 o report
	shift 2
	check "$name: build checker ran" kt_check "$name" "$arch"
	ok $(($(chk kernel_c) > 100 ? 0 : 1)) "$name: $(chk kernel_c) C objects in vmlinux"
	is "$(chk kernel_one)" "$(chk kernel_c)" "$name: each has exactly one -fplugin=...kplug.so, kplug arguments after it"
	is "$(chk native_cov)" 0 "$name: no -fsanitize-coverage in any .cmd file"
	for o; do
		check "$name: vdso object $o built and checked" vdso_obj_seen "$o"
	done
	is "$(chk vdso_clean)" "$(chk vdso_c)" "$name: all $(chk vdso_c) vdso objects without kplug flag or argument"
	is "$(chk vdso_calls)" 0 "$name: no sancov call sites in vdso objects"
	ok $(($(chk inst) > 100 ? 0 : 1)) "$name: $(chk inst) objects built with kplug's sancov"
	ok $(($(chk inst_calls) * 10 >= $(chk inst) * 9 ? 0 : 1)) \
		"$name: $(chk inst_calls) of them call __sanitizer_cov_trace_pc"
	ok $(($(chk pc_calls_fs_read_write_o) > 10 ? 0 : 1)) \
		"$name: fs/read_write.o has $(chk pc_calls_fs_read_write_o) trace_pc call sites"
	is "$(chk noinst_calls)" 0 "$name: none in the $(chk noinst) objects without sancov"
	ok $(($(chk kcovn) > 5 ? 0 : 1)) "$name: $(chk kcovn) KCOV_INSTRUMENT := n objects built"
	is "$(chk kcovn_inst)/$(chk kcovn_calls)" 0/0 "$name: none of them got sancov arguments or call sites"
	report=$KOUT/$name/.kt-cyc.jsonl
	kt_cyc_records "$name" "$arch" >"$report"
	ok $(($(wc -l <"$report") > 1000 ? 0 : 1)) \
		"$name: $(wc -l <"$report") cyc_complexity records embedded in the objects"
	check "$name: every record is a JSON object with M and function" perl -MJSON::PP -ne '$r = decode_json($_); exit 1 unless $r->{M} =~ /^\d+$/ && $r->{function} ne ""' "$report"
	check "$name: records name $KT_RECORD" grep -qE '"file":"[^"]*'"${KT_RECORD%%:*}"'".*"function":"'"${KT_RECORD#*:}"'"' "$report"
	check "$name: no report file (KPLUG_CYC_COMPLEXITY_OUTPUT empty)" test ! -e "$KOUT/$name/kplug-cyc_complexity.txt"
	# kplug's sections cost no message: modpost knows .kplug.*, the map
	# is debug information to ld (arm discards .exit.text)
	grep -E 'unexpected non-allocatable section|in discarded section' "$KOUT/$name/build-full.log" |
		head -3 | diag_in
	is "$(grep -cE 'unexpected non-allocatable section|in discarded section' "$KOUT/$name/build-full.log")" 0 \
		"$name: no modpost or ld message about kplug's sections"
}

# a record every build has (the x86_64 build's profile drops fs/ functions
# under M = 15)
KT_RECORD=fs/read_write.c:ksys_read

want() { [ -z "${KPLUG_KERNEL_BUILDS:-}" ] || [[ " $KPLUG_KERNEL_BUILDS " == *" $1 "* ]]; }

# build_of NAME: kt_build of the build NAME, with its options, and with
# KT_TARGETS for those of a few objects.  (arm64 6.12: both vdsos are
# built by arm64's vdso_prepare, before any target: named as targets,
# kbuild would compile them with vmlinux's flags.)
# shellcheck disable=SC2086
build_of() {
	local KT_TARGETS=()
	case $1 in
	"$KT_X86")	kt_build_x86 ;;
	"$KT_X86_72")	kt_build_x86_72 ;;
	arm64-7.2)	kt_build arm64-7.2 7.2 arm64 $KT_KPLUG COMPAT=y COMPAT_VDSO=y ;;
	arm64-6.12)	KT_TARGETS=(fs/read_write.o kernel/fork.o kernel/kcov.o)
			kt_build arm64-6.12 6.12 arm64 $KT_KPLUG COMPAT=y COMPAT_VDSO=y ;;
	x86_64-6.1)	KT_TARGETS=(fs/read_write.o kernel/fork.o kernel/kcov.o arch/x86/entry/vdso/vclock_gettime.o)
			kt_build x86_64-6.1 6.1 x86_64 $KT_KPLUG 64BIT=y ;;
	arm-6.12)	KT_TARGETS=(fs/read_write.o kernel/fork.o kernel/kcov.o arch/arm/vdso/vgettimeofday.o)
			kt_build arm-6.12 6.12 arm $KT_KPLUG MMU=y ARCH_MULTI_V7=y ARCH_VIRT=y AEABI=y VDSO=y ;;
	um-7.2)		kt_build um-7.2 7.2 um $KT_KPLUG 64BIT=y ;;
	*)		diag "build_of: no build named $1"; return 1 ;;
	esac
}
BUILDS="$KT_X86 $KT_X86_72 arm64-7.2 arm64-6.12 x86_64-6.1 arm-6.12 um-7.2"

run_build() {	# run_build NAME VER ARCH
	check "$1: kernel built with kplug (Linux $2, $3)" build_of "$1"
}

T0=$(date +%s)

check "6.12: tree integrated (a private copy, refreshed when kplug changed)" kt_tree 6.12 >/dev/null

# Every configuration first, two at a time: kconfig is one serial process
# (about 20 s a build), where each build then takes both cores.  The trees
# and their test profiles before, one at a time.  A configuration that
# fails here is made again by its build, which says why.
AHEAD=
for name in $BUILDS; do want "$name" && AHEAD="$AHEAD $name"; done
for ver in $(grep -oE '[0-9]+\.[0-9]+' <<<"${AHEAD// /$'\n'}" | sort -u); do
	SRC=$(kt_tree "$ver") && kt_profiles || diag "$ver: cannot prepare the tree"
done
n=0
for name in $AHEAD; do
	KT_CONFIGURE_ONLY=1 KPLUG_DIAG_LOG='' build_of "$name" >/dev/null 2>&1 &
	n=$((n + 1))
	if [ $n -ge 2 ]; then
		wait -n
		n=$((n - 1))
	fi
done
wait
diag "configured ahead:$AHEAD ($(($(date +%s) - T0))s)"

# --- x86_64, Linux 6.12, with the profile kplug-test/paths.ini: the
# kernel 52-kernel-kcov.t boots and 53/55 check (kt_build_x86) ---
if want $KT_X86; then
check "$KT_X86: kernel built with kplug (Linux 6.12, x86_64, profile paths.ini)" kt_build_x86
KT_SANCOV_OFF=$KT_X86_SANCOV_OFF KT_RECORD=kernel/fork.c:copy_process \
	check_build $KT_X86 x86_64 arch/x86/entry/vdso/vclock_gettime.o \
	arch/x86/entry/vdso/vdso32/vclock_gettime.o
ok $(($(chk off) > 20 ? 0 : 1)) "$KT_X86: $(chk off) objects in $KT_X86_SANCOV_OFF, where the profile disables sancov"
is "$(chk off_calls)" 0 "$KT_X86: none of them has trace_pc call sites"
ok $(($(chk cmp_calls) > 100 ? 0 : 1)) "$KT_X86: $(chk cmp_calls) trace-cmp/switch call sites (KCOV_ENABLE_COMPARISONS)"
B=$KOUT/$KT_X86
SRC=$(kt_tree 6.12)
PROFILE0=$(sed -n 's/^CONFIG_KPLUG_PROFILE=//p' "$B/.config")
is "$PROFILE0" '"kplug-test/paths.ini"' "$KT_X86: CONFIG_KPLUG_PROFILE names the test profile"

check "$KT_X86: kplug objects depend on CONFIG_CC_VERSION_TEXT (rebuilt when the compiler changes)" grep -q 'include/config/CC_VERSION_TEXT' "$B/scripts/gcc-plugins/kplug/.kplug.o.cmd"

# External module, make M= against the O= build.
MOD=$KOUT/extmod
rm -rf "$MOD" && mkdir -p "$MOD"
cat >"$MOD/kplug_hello.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int n;
module_param(n, int, 0);
static int __init kplug_hello_init(void)
{
	return n > 3 ? -EINVAL : 0;
}
module_init(kplug_hello_init);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := kplug_hello.o' >"$MOD/Kbuild"
check "external module built with make M=" make -C "$SRC" O="$B" ARCH=x86_64 M="$MOD" modules >"$MOD/build.log" 2>&1
MCMD=$(head -n 1 "$MOD/.kplug_hello.o.cmd" 2>/dev/null)
is "$(grep -o -- '-fplugin=[^ ]*kplug.so' <<<"$MCMD" | wc -l)" 1 "module object: one kplug flag"
check "module object: built with kplug's sancov" grep -q -- '-fplugin-arg-kplug-default-enable=sancov' <<<"$MCMD"
ok $(($(objdump -dr "$MOD/kplug_hello.o" 2>/dev/null | grep -c 'R_X86_64_PLT32.*__sanitizer_cov_trace_pc') > 0 ? 0 : 1)) \
	"module object: trace_pc call sites"
check "kplug_hello.ko linked" test -f "$MOD/kplug_hello.ko"

# Rebuilds: nothing changed -> nothing rebuilt; profile set or changed ->
# objects rebuilt.
obj_time() { stat -c %y "$B/fs/read_write.o" 2>/dev/null; }
obj_id() { grep -o 'KPLUG_ID=[0-9a-f]*' "$B/fs/.read_write.o.cmd"; }
mk1() { kt_make $KT_X86 x86_64 "$@" fs/read_write.o; }
# rebuilt_since TIME ID: fs/read_write.o has another time and another KPLUG_ID
rebuilt_since() { [ "$(obj_time)" != "$1" ] && [ "$(obj_id)" != "$2" ]; }
# profile_embeds PATTERN: the kernel's kplug.so embeds a profile with PATTERN
profile_embeds() { readelf -p .kplug.profile "$KSO" | grep -q -- "$1"; }
t1=$(obj_time); id1=$(obj_id)
sleep 1
check "single-object rebuild runs" mk1
is "$(obj_time)" "$t1" "unchanged plugin and profile: fs/read_write.o not rebuilt"
printf '[kplug]\nenable = cyc_complexity\n[path:fs/*]\ncyc_complexity-min = 5\n' >"$SRC/kplug-test.ini"
"$SRC/scripts/config" --file "$B/.config" --set-str KPLUG_PROFILE kplug-test.ini
sleep 1
check "build with CONFIG_KPLUG_PROFILE=kplug-test.ini" mk1
KSO=$B/scripts/gcc-plugins/kplug/kplug.so
check "profile embedded in the kernel's kplug.so (section .kplug.profile)" profile_embeds 'cyc_complexity-min = 5'
check_exit 1 "... and not named on the command line (a file icecream would not ship)" grep -q -- "-fplugin-arg-kplug-config=" "$B/fs/.read_write.o.cmd"
check "profile set: fs/read_write.o rebuilt ($id1 -> $(obj_id))" rebuilt_since "$t1" "$id1"
t2=$(obj_time); id2=$(obj_id)
sed -i 's/^cyc_complexity-min = 5$/cyc_complexity-min = 6/' "$SRC/kplug-test.ini"
check "profile edited: min 5 -> 6 (a repeated key would be refused)" grep -qx 'cyc_complexity-min = 6' "$SRC/kplug-test.ini"
sleep 1
mk1
check "profile content changed: fs/read_write.o rebuilt ($id2 -> $(obj_id))" rebuilt_since "$t2" "$id2"
check "... and kplug.so re-embedded the new content" profile_embeds 'cyc_complexity-min = 6'

# Prebuilt plugin, the one-artifact distribution; with the profile still
# set, objects load a copy of it with the profile embedded.
text_of() {	# (objcopy cannot write to a pipe)
	objcopy -O binary --only-section=.text "$1" "$B/.text.bin" && [ -s "$B/.text.bin" ] &&
		sha1sum <"$B/.text.bin" && rm -f "$B/.text.bin"
}
check "make KPLUG=$TOP/kplug.so, with a profile" mk1 KPLUG="$TOP/kplug.so"
is "$(grep -o -- '-fplugin=[^ ]*kplug.so' "$B/fs/.read_write.o.cmd")" "-fplugin=./scripts/gcc-plugins/kplug/kplug.so" \
	"KPLUG= and a profile: objects load the build's copy"
is "$(text_of "$KSO")" "$(text_of "$TOP/kplug.so")" "... of the prebuilt plugin"
check "... with the profile embedded" profile_embeds 'cyc_complexity-min = 6'

# Bad settings: one clear line, non-zero exit.
check_exit 2 "KPLUG=relative path refused" mk1 KPLUG=kplug.so 2>/dev/null
check "... with 'kplug: KPLUG=kplug.so: give an absolute path'" grep -q 'kplug: KPLUG=kplug.so: give an absolute path' "$B/build.log"
mk1 KPLUG=/nonexistent/kplug.so 2>/dev/null
check "KPLUG=missing file refused with 'kplug: KPLUG=...: no such file'" grep -q 'kplug: KPLUG=/nonexistent/kplug.so: no such file' "$B/build.log"
mk1 KPLUG="$TOP/kplug.so.build" 2>/dev/null
check "KPLUG=wrongly named file refused" grep -q 'must be named kplug.so' "$B/build.log"
"$SRC/scripts/config" --file "$B/.config" --set-str KPLUG_PROFILE no-such.ini
check_exit 2 "missing profile fails the build" mk1 2>/dev/null
check "... with 'kplug: CONFIG_KPLUG_PROFILE=\"no-such.ini\": no such file ...'" grep -q 'kplug: CONFIG_KPLUG_PROFILE="no-such.ini": no such file' "$B/build.log"
"$SRC/scripts/config" --file "$B/.config" --set-str KPLUG_PROFILE ""
rm -f "$SRC/kplug-test.ini"
mk1 KPLUG="$TOP/kplug.so"
is "$(grep -o -- '-fplugin=[^ ]*kplug.so' "$B/fs/.read_write.o.cmd")" "-fplugin=$TOP/kplug.so" \
	"KPLUG= without a profile: the one kplug flag names the prebuilt plugin"
# Back to the build's own profile: the objects and kplug.so the later
# tests read are those of the cached build again.
"$SRC/scripts/config" --file "$B/.config" --set-str KPLUG_PROFILE "${PROFILE0//\"/}"
# the whole build, so that vmlinux.o and vmlinux hold the object rebuilt
# last (its records' "run" ids too)
# relinked: the whole build ran and vmlinux.o is newer than fs/read_write.o
relinked() { kt_make $KT_X86 x86_64 >/dev/null && [ "$B/vmlinux.o" -nt "$B/fs/read_write.o" ]; }
check "back to the built configuration: make relinked vmlinux.o after fs/read_write.o" relinked
is "$(obj_id)" "$id1" "... fs/read_write.o has its first KPLUG_ID again ($id1)"
check "... and kplug.so embeds paths.ini again" profile_embeds '^.*\[path:mm/\*\]'
fi

# --- x86_64, Linux 7.2, in the trixie chroot with gcc-14: the kernel
# 52 boots beside the 6.12 one, 56 and 57 measure against (kt_build_x86_72) ---
if want $KT_X86_72; then
	check "$KT_X86_72: kernel built with kplug (Linux 7.2, x86_64, $KT_CHROOT_GCC in the $KT_CHROOT chroot, profile paths.ini)" kt_build_x86_72
	B72=$KOUT/$KT_X86_72
	check "$KT_X86_72: built by GCC 14 ($(sed -n 's/^CONFIG_CC_VERSION_TEXT=//p' "$B72/.config"))" \
		grep -qx 'CONFIG_GCC_VERSION=14[0-9]*' "$B72/.config"
	KT_SANCOV_OFF=$KT_X86_SANCOV_OFF KT_RECORD=kernel/fork.c:copy_process \
		check_build $KT_X86_72 x86_64 arch/x86/entry/vdso/vdso64/vclock_gettime.o \
		arch/x86/entry/vdso/vdso32/vclock_gettime.o
	ok $(($(chk off) > 20 ? 0 : 1)) "$KT_X86_72: $(chk off) objects in $KT_X86_SANCOV_OFF, where the profile disables sancov"
	is "$(chk off_calls)" 0 "$KT_X86_72: none of them has trace_pc call sites"
	ok $(($(chk cmp_calls) > 100 ? 0 : 1)) "$KT_X86_72: $(chk cmp_calls) trace-cmp/switch call sites (KCOV_ENABLE_COMPARISONS)"
	# kplug.so's C++ standard follows $(CC)'s GCC: gnu++11 up to 15,
	# gnu++17 from 16 on (GCC 16's headers need C++14)
	check "$KT_X86_72: kplug.so compiled with -std=gnu++11 for GCC 14" grep -q -- ' -std=gnu++11 ' "$B72/scripts/gcc-plugins/kplug/.kplug.o.cmd"
	# 7.2 includes generated/gcc-plugins.h in every object built with
	# GCC_PLUGINS_CFLAGS (its -DGCC_PLUGINS): kplug's flags come with it
	# gcc_plugins_h CMDFILE: the object has -DGCC_PLUGINS and depends on generated/gcc-plugins.h
	gcc_plugins_h() { grep -q -- '-DGCC_PLUGINS ' "$1" && grep -q 'include/generated/gcc-plugins.h' "$1"; }
	check "$KT_X86_72: objects get 7.2's -DGCC_PLUGINS and depend on generated/gcc-plugins.h" \
		gcc_plugins_h "$B72/fs/.read_write.o.cmd"
fi

# --- arm64, Linux 7.2, in the chroot: aarch64-linux-gnu-gcc-14, and
# arm-linux-gnueabi-gcc-14 for the compat vdso (CC_COMPAT) ---
if want arm64-7.2; then
	run_build arm64-7.2 7.2 arm64
	check "arm64-7.2: built by GCC 14 ($(sed -n 's/^CONFIG_CC_VERSION_TEXT=//p' "$KOUT/arm64-7.2/.config"))" \
		grep -qx 'CONFIG_GCC_VERSION=14[0-9]*' "$KOUT/arm64-7.2/.config"
	check_build arm64-7.2 arm64 arch/arm64/kernel/vdso/vgettimeofday.o \
		arch/arm64/kernel/vdso32/vgettimeofday.o
	check "arm64-7.2: the compat vdso compiled by arm-linux-gnueabi-gcc-14" grep -q 'arm-linux-gnueabi-gcc-14 ' "$KOUT/arm64-7.2/arch/arm64/kernel/vdso32/.vgettimeofday.o.cmd"
fi

# check_units NAME ARCH VDSO_OBJ: the objects of a build of a few targets
# (KT_TARGETS: fs/read_write.o kernel/fork.o kernel/kcov.o and the vdso
# object) got the flags of their kind.
check_units() {
	local name=$1 arch=$2 vdso=$3 b=$KOUT/$1 o c
	cmdof() { head -n 1 "$b/$(dirname "$1")/.$(basename "$1").cmd" 2>/dev/null; }
	pcsof() { $(kt_objdump "$arch") -dr "$b/$1" 2>/dev/null |
		grep -cE 'R_(X86_64_PLT32|AARCH64_(CALL|JUMP)26|ARM_(CALL|JUMP24|THM_CALL|THM_JUMP24))[[:space:]]+__sanitizer_cov_'; }
	check "$name: kbuild built its kplug.so" test -s "$b/scripts/gcc-plugins/kplug/kplug.so"
	for o in fs/read_write.o kernel/fork.o; do
		c=$(cmdof $o)
		is "$(grep -o -- '-fplugin=[^ ]*kplug.so' <<<"$c" | wc -l)" 1 "$name: $o has one kplug flag"
		check "$name: ... and kplug's sancov (CFLAGS_KCOV)" grep -q -- '-fplugin-arg-kplug-default-enable=sancov' <<<"$c"
		ok $(($(pcsof $o) > 10 ? 0 : 1)) "$name: ... $(pcsof $o) sancov call sites"
	done
	# records_ksys_read: the build's embedded records name fs/read_write.c:ksys_read
	records_ksys_read() {
		kt_cyc_records "$name" "$arch" | grep -E '"file":"[^"]*fs/read_write.c".*"function":"ksys_read"' >/dev/null
	}
	check "$name: embedded cyc_complexity records name fs/read_write.c:ksys_read" records_ksys_read
	c=$(cmdof kernel/kcov.o)
	check "$name: kernel/kcov.o (KCOV_INSTRUMENT := n): kplug without sancov's permit" \
		kplug_without_permit "$c"
	is "$(pcsof kernel/kcov.o)" 0 "$name: ... and no sancov call site"
	c=$(cmdof "$vdso")
	check "$name: vdso $vdso built without kplug flag or argument" no_kplug_flags "$c"
	is "$(pcsof "$vdso")" 0 "$name: ... and no sancov call site"
	is "$(grep -rl --include='*.cmd' -e '-fsanitize-coverage' "$b" | wc -l)" 0 \
		"$name: no -fsanitize-coverage in any .cmd file"
}

# --- arm64, Linux 6.12, with the compat vdso (host cross compilers): the
# integration on a few objects (the whole arm64 kernel is 7.2's above) ---
if want arm64-6.12; then
	V=arch/arm64/kernel/vdso32/vgettimeofday.o
	run_build arm64-6.12 6.12 arm64
	check_units arm64-6.12 arm64 $V
	c=$(head -n 1 "$KOUT/arm64-6.12/arch/arm64/kernel/vdso/.vgettimeofday.o.cmd" 2>/dev/null)
	check "arm64-6.12: the 64-bit vdso built without kplug flag or argument too" no_kplug_flags "$c"
fi

# --- x86_64, Linux 6.1: kbuild's own kplug.so and a few objects ---
# (6.1's full build with kplug is 40-kernel-cyc.t's: here the 6.1
# integration builds its plugin and gives each kind of object its flags.)
if want x86_64-6.1; then
	V=arch/x86/entry/vdso/vclock_gettime.o
	run_build x86_64-6.1 6.1 x86_64
	check_units x86_64-6.1 x86_64 $V
fi

# --- arm, Linux 6.12, a config with the vdso on: the integration on a few
# objects (arm's link with kplug's sections, which discards .exit.text, is
# 35-sancov-prune.t's, with the map) ---
if want arm-6.12; then
	V=arch/arm/vdso/vgettimeofday.o
	run_build arm-6.12 6.12 arm
	check_units arm-6.12 arm $V
fi

# --- um, Linux 7.2, in the chroot, SUBARCH=x86_64 ---
if want um-7.2; then
	run_build um-7.2 7.2 um
	check_build um-7.2 um arch/x86/um/vdso/um_vdso.o
	# UML's user-space objects: built with USER_CFLAGS ("-include user.h"),
	# each with exactly one kplug flag.
	n=0 one=0
	for o in $(cd "$KOUT/um-7.2" && ar t vmlinux.a); do
		cmd=$(head -n 1 "$KOUT/um-7.2/$(dirname "$o")/.$(basename "$o").cmd" 2>/dev/null)
		grep -q -- '-include user.h' <<<"$cmd" || continue
		n=$((n + 1))
		[ "$(grep -o -- '-fplugin=[^ ]*kplug.so' <<<"$cmd" | wc -l)" = 1 ] && one=$((one + 1))
	done
	ok $((n > 10 ? 0 : 1)) "um-7.2: $n UML user-space objects built and linked"
	is "$one" "$n" "um-7.2: each UML user-space object has exactly one kplug flag"
fi

diag "kernel builds and checks: $(($(date +%s) - T0))s"
done_testing
