# SPDX-License-Identifier: GPL-2.0
# Helpers of the kernel tests (5*-kernel*.t); source after tests/lib.sh.
#
# Trees: kt_tree VER gives a hard-linked copy of the cached Debian tree
# (kernel_tree VER) with kplug applied; patch and apply write new files, so
# the cache is never modified.  Builds: kt_build NAME VER ARCH OPTION...
# configures tinyconfig + OPTIONs in $KOUT/NAME (an O= directory) and
# builds it with -j2 under nice.  Every config is built once per test
# file; 52-kernel-kcov.t reuses 51's x86_64 build when it is there.

KOUT=$OUT/kernel

# kplug with cyc_complexity and sancov (KCOV), on every architecture.
KT_KPLUG="GCC_PLUGINS=y GCC_PLUGIN_KPLUG=y KPLUG_CYC_COMPLEXITY=y KCOV=y KPLUG_SANCOV=y"
# The x86_64 kernel 52-kernel-kcov.t boots (51 builds it with $KT_KPLUG):
# serial console, initramfs, debugfs, KCOV; vdso32 and modules for 51.
KT_X86_BOOT="64BIT=y PRINTK=y TTY=y SERIAL_8250=y SERIAL_8250_CONSOLE=y
	BLK_DEV_INITRD=y BINFMT_ELF=y SYSFS=y DEBUG_FS=y KCOV=y
	KCOV_ENABLE_COMPARISONS=y IA32_EMULATION=y MODULES=y"
KBUILD_TOOL=$TOP/kbuild/kplug-kbuild
mkdir -p "$KOUT"

# Make variables per architecture.
kt_arch_args() {
	case $1 in
	x86_64)	echo "ARCH=x86_64" ;;
	arm64)	echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabi-" ;;
	arm)	echo "ARCH=arm CROSS_COMPILE=arm-linux-gnueabi-" ;;
	um)	echo "ARCH=um SUBARCH=x86_64" ;;
	esac
}

kt_objdump() {
	case $1 in
	arm64)	echo aarch64-linux-gnu-objdump ;;
	arm)	echo arm-linux-gnueabi-objdump ;;
	*)	echo objdump ;;
	esac
}

# kt_tree VER [fresh]: path of an integrated tree; "fresh" recreates it.
# Without "fresh" an integrated tree is used as it is, even when kplug's
# sources have changed since (status "stale"): builds sharing the tree
# keep one plugin, and a running build never sees its tree replaced.
kt_tree() {
	local ver=$1 dst=$KOUT/src-$1 pristine

	if [ "${2:-}" = fresh ] ||
	   ! "$KBUILD_TOOL" status "$dst" 2>/dev/null | grep -qE '^(integrated|stale):'; then
		pristine=$(kernel_tree "$ver") || return 1
		rm -rf "$dst" && cp -al "$pristine" "$dst" || return 1
		"$KBUILD_TOOL" apply "$dst" >"$KOUT/apply-$ver.log" 2>&1 || return 1
	fi
	echo "$dst"
}

# One option for scripts/config: FOO=y, FOO=n, FOO="string", FOO=123.
kt_config_opt() {
	local cfg=$1 opt=$2 key=${2%%=*} val=${2#*=}

	case $val in
	y)	"$SRC/scripts/config" --file "$cfg" -e "$key" ;;
	n)	"$SRC/scripts/config" --file "$cfg" -d "$key" ;;
	\"*)	val=${val#\"}; "$SRC/scripts/config" --file "$cfg" --set-str "$key" "${val%\"}" ;;
	*)	"$SRC/scripts/config" --file "$cfg" --set-val "$key" "$val" ;;
	esac
}

# kt_configure NAME VER ARCH OPTION...: tinyconfig + options in $KOUT/NAME.
# Fails (with a diag) when an option does not survive olddefconfig.
kt_configure() {
	local name=$1 ver=$2 arch=$3 b opt
	shift 3
	SRC=$(kt_tree "$ver") || { diag "$ver: cannot prepare the tree"; return 1; }
	b=$KOUT/$name
	mkdir -p "$b"
	# shellcheck disable=SC2046
	make -C "$SRC" O="$b" $(kt_arch_args "$arch") tinyconfig >"$b/config.log" 2>&1 ||
		{ diag "$name: tinyconfig failed"; tail -5 "$b/config.log" | diag_in; return 1; }
	for opt; do
		kt_config_opt "$b/.config" "$opt"
	done
	make -C "$SRC" O="$b" $(kt_arch_args "$arch") olddefconfig >>"$b/config.log" 2>&1 ||
		{ diag "$name: olddefconfig failed"; return 1; }
	for opt; do
		case $opt in
		*=n)	! grep -q "^CONFIG_${opt%%=*}=" "$b/.config" ;;
		*)	grep -qx "CONFIG_$opt" "$b/.config" ;;
		esac || { diag "$name: CONFIG_$opt did not survive olddefconfig"; return 1; }
	done
}

# kt_make NAME ARCH [TARGET...]: build in $KOUT/NAME, log to build.log.
kt_make() {
	local name=$1 arch=$2 b=$KOUT/$1 t0 rc
	shift 2
	t0=$(date +%s)
	# shellcheck disable=SC2046
	nice make -C "$SRC" O="$b" $(kt_arch_args "$arch") -j2 "$@" >"$b/build.log" 2>&1
	rc=$?
	KT_SECONDS=$(($(date +%s) - t0))
	if [ $rc -ne 0 ]; then
		diag "$name: make $* failed (see $b/build.log):"
		grep -m5 -E 'error|Error|\*\*\*' "$b/build.log" | diag_in
	fi
	return $rc
}

# kt_build NAME VER ARCH OPTION...: configure from scratch and build.
kt_build() {
	local name=$1 ver=$2 arch=$3
	rm -rf "${KOUT:?}/$name"
	kt_configure "$@" || return 1
	kt_make "$name" "$arch" || return 1
	diag "$name: built in ${KT_SECONDS}s wall ($(nproc) cores, -j2, shared machine)"
}

# kt_check NAME ARCH: run check-build.pl; sets CHK_key variables.
kt_check() {
	local name=$1 arch=$2 line v
	for v in ${!CHK_@}; do unset "$v"; done
	KT_CHECK=$(perl "$TOP/tests/kernel/check-build.pl" "$KOUT/$name" "$SRC" \
		"$(kt_objdump "$arch")") || return 1
	while IFS= read -r line; do
		case $line in
		bad:*)		diag "$name: $line" ;;
		vdso_obj=*)	;;
		*=*)		line=${line//\//_}; line=${line//./_}
				printf -v "CHK_${line%%=*}" '%s' "${line#*=}" ;;
		esac
	done <<<"$KT_CHECK"
}

# chk KEY: value of CHK_KEY (0 when the checker did not print it).
chk() { local v="CHK_$1"; echo "${!v:-0}"; }

# vdso objects the checker saw, one per line.
kt_vdso_objs() { sed -n 's/^vdso_obj=//p' <<<"$KT_CHECK"; }

# diag for piped text.
diag_in() { sed 's/^/# /' >&2; }
