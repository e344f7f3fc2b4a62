# SPDX-License-Identifier: GPL-2.0
# Helpers of the kernel tests (5*-kernel*.t); source after tests/lib.sh.
#
# Trees: kt_tree VER gives a private copy (cp -a, no hard links: a write
# into it can never reach the extracted Debian tree) of the cached tree
# (kernel_tree VER) with kplug applied.  Builds: kt_build NAME VER ARCH
# OPTION... configures tinyconfig + OPTIONs in $KOUT/NAME (an O= directory)
# and builds it with -j2 under nice.
#
# The build cache: a build is kept with its key (kt_key: kernel version,
# architecture, options, make variables, compilers, and the hash of every
# kplug source the tree gets) and reused by every later kt_build of the
# same key, in this run or the next "make check" on this machine.  One
# configuration is built once; a test that changes a build dir in a way
# later tests must not see calls kt_forget NAME.

KOUT=$OUT/kernel

# kplug with cyc_complexity and sancov (KCOV), on every architecture.
KT_KPLUG="GCC_PLUGINS=y GCC_PLUGIN_KPLUG=y KPLUG_CYC_COMPLEXITY=y KCOV=y KPLUG_SANCOV=y"
# The x86_64 kernel 52-kernel-kcov.t boots (kt_build_x86 below):
# serial console, initramfs, debugfs, KCOV; vdso32 and modules for 51.
KT_X86_BOOT="64BIT=y PRINTK=y TTY=y SERIAL_8250=y SERIAL_8250_CONSOLE=y
	BLK_DEV_INITRD=y BINFMT_ELF=y SYSFS=y DEBUG_FS=y KCOV=y
	KCOV_ENABLE_COMPARISONS=y IA32_EMULATION=y MODULES=y"
KBUILD_TOOL=$TOP/kbuild/kplug-kbuild
mkdir -p "$KOUT"

# The one x86_64 Linux 6.12 kplug kernel the kernel tests share: 51 checks
# its objects, 52 boots it, 53 checks its profile object by object, 55
# recompiles a sample of it, 56 measures the KPLUG_KCOV_UNIQUE kernel
# against it, 57 compares its coverage with the pruned one.  tinyconfig + $KT_X86_BOOT + $KT_KPLUG with
# the per-subsystem profile tests/kernel/profiles/paths.ini, which turns
# sancov off in the directories of KT_X86_SANCOV_OFF.  kt_build_x86 NAME
# builds the same configuration in $KOUT/NAME (54: through icecream and
# ccache, with KT_MAKE_VARS and KT_MAKE_WRAP).
KT_X86=x86_64-6.12-paths
KT_X86_SANCOV_OFF="lib/ mm/"
kt_build_x86() {
	# shellcheck disable=SC2086
	kt_build "${1:-$KT_X86}" 6.12 x86_64 $KT_KPLUG $KT_X86_BOOT 'KPLUG_PROFILE="kplug-test/paths.ini"'
}

# The x86_64 Linux 7.2 kernel, built in the chroot with its gcc-14: the
# same configuration and profile as the 6.12 one.  51 checks its objects,
# 52 boots it.
KT_X86_72=x86_64-7.2-paths
kt_build_x86_72() {
	# shellcheck disable=SC2086
	kt_build "${1:-$KT_X86_72}" 7.2 x86_64 $KT_KPLUG $KT_X86_BOOT 'KPLUG_PROFILE="kplug-test/paths.ini"'
}

# The KPLUG_KCOV_UNIQUE kernel, Linux 7.2 (gcc-14, in the chroot), pruned (KPLUG_SANCOV_PRUNE_MIN): 56 checks
# and boots it in its KCOV_UNIQUE sessions, 57 boots it as the pruned
# kernel against the shared one.  Its profile, unique.ini, is paths.ini
# with pc-guard for pc.
KT_UNIQUE=x86_64-7.2-unique
kt_build_unique() {
	# shellcheck disable=SC2086
	kt_build $KT_UNIQUE 7.2 x86_64 $KT_KPLUG $KT_X86_BOOT 'KPLUG_PROFILE="kplug-test/unique.ini"' \
		KPLUG_KCOV_UNIQUE=y KPLUG_SANCOV_PRUNE_MIN=y
}

# The trace-model kernel, Linux 7.2 (gcc-14, in the chroot): the shared
# 7.2 kernel's configuration and profile (paths.ini, trace = pc), pruned
# with KPLUG_SANCOV_PRUNE_MIN for KCOV's ordered trace
# (KPLUG_SANCOV_PRUNE_TRACE).  57 boots it against the shared one.
KT_TRACE=x86_64-7.2-trace
kt_build_trace() {
	# shellcheck disable=SC2086
	kt_build $KT_TRACE 7.2 x86_64 $KT_KPLUG $KT_X86_BOOT 'KPLUG_PROFILE="kplug-test/paths.ini"' \
		KPLUG_SANCOV_PRUNE_MIN=y KPLUG_SANCOV_PRUNE_TRACE=y
}

# Linux 7.2 and its compilers come from Debian 13's chroot
# (tools/toolchain-chroot): trixie's gcc-14, native and aarch64 cross.
KT_CHROOT=trixie

# kt_chroot_root: the chroot's root, made if needed.  A chroot that cannot
# be made is a failure naming the command, never a skip.
kt_chroot_root() {
	"$TOP/tools/toolchain-chroot" path "$KT_CHROOT" 2>"$KOUT/chroot.log" ||
		{ diag "'tools/toolchain-chroot path $KT_CHROOT' failed:"; tail -3 "$KOUT/chroot.log" | diag_in; return 1; }
}

# kt_chroot_tree VER: what kernel_tree VER (tests/lib.sh) does for the
# host's /usr/src, for the chroot's linux-source-VER: extracted once into
# $CACHE/linux-VER, again when the chroot's tarball is another one.
kt_chroot_tree() {
	local ver=$1 dir=$CACHE/linux-$1 root tar id tmp
	root=$(kt_chroot_root) || return 1
	tar=$root/usr/src/linux-source-$ver.tar.xz
	id=$(stat -c '%s %Y' "$tar") || return 1
	if [ "$(cat "$dir/.extracted" 2>/dev/null)" != "$id" ]; then
		tmp=$(mktemp -d "$CACHE/.linux-$ver.XXXXXX") &&
		tar -C "$tmp" -xf "$tar" &&
		echo "$id" >"$tmp/linux-source-$ver/.extracted" &&
		rm -rf "$dir" && mv -T "$tmp/linux-source-$ver" "$dir" &&
		rm -rf "$tmp" || return 1
	fi
	echo "$dir"
}

# kt_source VER: the pristine tree of VER (the host's or the chroot's).
kt_source() {
	case $1 in
	6.*)	kernel_tree "$1" ;;
	*)	kt_chroot_tree "$1" ;;
	esac
}

# kt_chroot_ver VER: true when VER is built in the chroot (Linux 7.x).
kt_chroot_ver() { case $1 in 7.*) return 0 ;; esac; return 1; }

# The chroot's compilers (a minbase chroot has no plain gcc or g++).
KT_CHROOT_GCC=gcc-14
KT_CHROOT_GXX=g++-14

# The version of the tree $SRC (kt_tree's $KOUT/src-VER).
kt_src_ver() { echo "${SRC##*/src-}"; }

# Make variables per architecture (and version: the chroot's compilers).
kt_arch_args() {
	if kt_chroot_ver "${2:-$(kt_src_ver)}"; then
		local cc="HOSTCC=$KT_CHROOT_GCC HOSTCXX=$KT_CHROOT_GXX"
		case $1 in
		x86_64)	echo "ARCH=x86_64 CC=$KT_CHROOT_GCC $cc" ;;
		arm64)	echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC=aarch64-linux-gnu-$KT_CHROOT_GCC $cc" \
				"CROSS_COMPILE_COMPAT=arm-linux-gnueabi- CC_COMPAT=arm-linux-gnueabi-$KT_CHROOT_GCC" ;;
		um)	echo "ARCH=um SUBARCH=x86_64 CC=$KT_CHROOT_GCC $cc" ;;
		esac
		return
	fi
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

# kt_runner VER: the command that runs VER's makes and built tools: the
# chroot's "run" for a chroot version, else nothing.
kt_runner() {
	if kt_chroot_ver "$1"; then
		echo "$TOP/tools/toolchain-chroot run $KT_CHROOT"
	fi
}

# kt_tree VER [fresh]: path of an integrated tree, recreated when it is
# missing or stale (kplug's sources changed since apply: those builds get
# a new cache key anyway), or when "fresh" is given.
kt_tree() {
	local ver=$1 dst=$KOUT/src-$1 pristine

	if [ "${2:-}" = fresh ] ||
	   ! "$KBUILD_TOOL" status "$dst" 2>/dev/null | grep -qE '^integrated:'; then
		pristine=$(kt_source "$ver") || return 1
		rm -rf "$dst" && cp -a "$pristine" "$dst" || return 1
		"$KBUILD_TOOL" apply "$dst" >"$KOUT/apply-$ver.log" 2>&1 || return 1
	fi
	echo "$dst"
}

# Make variables every kt_make adds (part of the cache key), e.g.
# KT_MAKE_VARS=(CC="ccache gcc").  An array: values may contain spaces.
KT_MAKE_VARS=()
# Targets kt_build builds (part of the key); empty: the whole kernel.
KT_TARGETS=()
# A command kt_make runs make under (not part of the key: it must not
# change what is built), e.g. KT_MAKE_WRAP=(tests/kernel/icecc-net.sh run DIR).
KT_MAKE_WRAP=()

# kt_key VER ARCH OPTION...: the cache key of a build, one line.
kt_key() {
	local ver=$1 arch=$2 cc tarball=/usr/src/linux-source-$1.tar.xz run=
	shift 2
	case $arch in
	arm64)	cc="aarch64-linux-gnu-gcc arm-linux-gnueabi-gcc" ;;
	arm)	cc=arm-linux-gnueabi-gcc ;;
	*)	cc=gcc ;;
	esac
	if kt_chroot_ver "$ver"; then
		# the chroot's compilers, its tarball, and the chroot itself
		case $arch in
		arm64)	cc="aarch64-linux-gnu-$KT_CHROOT_GCC arm-linux-gnueabi-$KT_CHROOT_GCC $KT_CHROOT_GCC $KT_CHROOT_GXX" ;;
		*)	cc="$KT_CHROOT_GCC $KT_CHROOT_GXX" ;;
		esac
		run=$(kt_runner "$ver")
		tarball=$(kt_chroot_root)$tarball
	fi
	{
		echo "linux $ver $arch $*"
		printf 'make %s\n' "${KT_MAKE_VARS[@]}"
		printf 'target %s\n' "${KT_TARGETS[@]}"
		stat -c 'tarball %n %s %Y' "$tarball"
		for c in $cc; do $run $c --version | head -n 1; done
		# kplug's sources matter only to a build that loads kplug
		case " $* " in
		*" GCC_PLUGIN_KPLUG=y "*)
			(cd "$TOP" && cat kplug.c kplug.h kplug-link.sh passes/*.[ch] compat/*.[ch] config/*.[ch] \
				$(find kbuild -type f | LC_ALL=C sort) tests/kernel/profiles/*.ini) | sha1sum ;;
		esac
	} 2>&1 | sha1sum | cut -c1-16
}

# kt_cached NAME VER ARCH OPTION...: true when $KOUT/NAME holds a complete
# build of exactly this key.
kt_cached() {
	local name=$1
	shift
	[ -f "$KOUT/$name/.kt-done" ] &&
		[ "$(cat "$KOUT/$name/.kt-done")" = "$(kt_key "$@")" ]
}

# The test profiles, as $SRC/kplug-test/*.ini (KPLUG_PROFILE="kplug-test/X.ini").
kt_profiles() {
	mkdir -p "$SRC/kplug-test" &&
		rsync -a --checksum --delete "$TOP/tests/kernel/profiles/" "$SRC/kplug-test/"
}

# kt_forget NAME: the next kt_build NAME builds again.
kt_forget() { rm -f "$KOUT/$1/.kt-done"; }

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
	echo "$ver" >"$b/.kt-ver"
	$(kt_runner "$ver") make -C "$SRC" O="$b" $(kt_arch_args "$arch" "$ver") tinyconfig >"$b/config.log" 2>&1 ||
		{ diag "$name: tinyconfig failed"; tail -5 "$b/config.log" | diag_in; return 1; }
	for opt; do
		kt_config_opt "$b/.config" "$opt"
	done
	$(kt_runner "$ver") make -C "$SRC" O="$b" $(kt_arch_args "$arch" "$ver") olddefconfig >>"$b/config.log" 2>&1 ||
		{ diag "$name: olddefconfig failed"; return 1; }
	for opt; do
		case $opt in
		*=n)	! grep -q "^CONFIG_${opt%%=*}=" "$b/.config" ;;
		*)	grep -qx "CONFIG_$opt" "$b/.config" ;;
		esac || { diag "$name: CONFIG_$opt did not survive olddefconfig"; return 1; }
	done
}

# kt_make NAME ARCH [TARGET...]: build in $KOUT/NAME, log to build.log
# (kt_build keeps the log of the whole build as build-full.log).
kt_make() {
	local name=$1 arch=$2 b=$KOUT/$1 t0 rc
	shift 2
	t0=$(date +%s)
	# shellcheck disable=SC2046
	"${KT_MAKE_WRAP[@]}" $(kt_runner "$(kt_src_ver)") nice make -C "$SRC" O="$b" $(kt_arch_args "$arch") \
		"${KT_MAKE_VARS[@]}" -j2 "$@" >"$b/build.log" 2>&1
	rc=$?
	KT_SECONDS=$(($(date +%s) - t0))
	if [ $rc -ne 0 ]; then
		diag "$name: make $* failed (see $b/build.log):"
		grep -m5 -E 'error|Error|\*\*\*' "$b/build.log" | diag_in
	fi
	return $rc
}

# kt_build NAME VER ARCH OPTION...: configure from scratch and build, or
# reuse the cached build of the same key.  KT_REUSED is 1 when reused.
# With KT_CONFIGURE_ONLY=1 it stops after the configuration, which the
# next kt_build of the same key then builds (51 configures its builds
# ahead, two at a time: kconfig is one serial process).
kt_build() {
	local name=$1 ver=$2 arch=$3 key
	KT_REUSED=0
	SRC=$(kt_tree "$ver") || { diag "$ver: cannot prepare the tree"; return 1; }
	kt_profiles || return 1
	if kt_cached "$@"; then
		KT_REUSED=1
		diag "$name: reused the cached build (key $(cat "$KOUT/$name/.kt-done"))"
		return 0
	fi
	# the key of what is built now (kplug's sources may change meanwhile)
	key=$(kt_key "${@:2}")
	# a configuration made ahead for this key (KT_CONFIGURE_ONLY) is used
	# by the one build after it; anything else starts from nothing
	if [ "$(cat "$KOUT/$name/.kt-configured" 2>/dev/null)" != "$key" ]; then
		rm -rf "${KOUT:?}/$name"
		kt_configure "$@" || return 1
	fi
	if [ -n "${KT_CONFIGURE_ONLY:-}" ]; then
		echo "$key" >"$KOUT/$name/.kt-configured"
		return 0
	fi
	rm -f "$KOUT/$name/.kt-configured"
	kt_make "$name" "$arch" "${KT_TARGETS[@]}" || return 1
	# the whole build's log (later kt_make calls write build.log again)
	cp "$KOUT/$name/build.log" "$KOUT/$name/build-full.log" || return 1
	echo "$key" >"$KOUT/$name/.kt-done"
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

# kt_seed_build: Linux 6.1 x86_64 tinyconfig, built -j2 from the cached
# Debian tree (O=$SEED_B/obj) with the 2016 cyc_complexity plugin (its
# lines on stderr: $SEED_B/stderr) and kplug (format=jsonl, one report:
# $SEED_B/report.jsonl) loaded into the same cc1 processes.  Shared by
# 40-kernel-cyc.t and 43-report-kernel.t; cached by the hash of both
# plugins, the compiler and the tree.  Sets SEED_B, SEED_SRC, KT_REUSED.
kt_seed_build() {
	local seed key t0 b=$KOUT/x86_64-6.1-seed
	SEED_B=$b
	SEED_SRC=$(kernel_tree 6.1) || { diag "cannot extract linux-source-6.1"; return 1; }
	seed=$(seed_cyc_plugin gcc) || { diag "cannot build the 2016 plugin from $SEEDS"; return 1; }
	key=$({ echo "6.1 x86_64 tinyconfig seed+kplug jsonl -j2"; sha1sum <"$seed"; sha1sum <"$KPLUG"
		gcc --version | head -n 1; stat -c '%s %Y' /usr/src/linux-source-6.1.tar.xz; } |
		sha1sum | cut -c1-16)
	KT_REUSED=0
	if [ "$(cat "$b/.kt-done" 2>/dev/null)" = "$key" ]; then
		KT_REUSED=1
		diag "x86_64-6.1-seed: reused the cached build (key $key)"
		return 0
	fi
	rm -rf "$b" && mkdir -p "$b/obj" || return 1
	# a private plugin: rebuilding kplug.so meanwhile changes nothing here
	cp "$KPLUG" "$b/kplug.so" || return 1
	make -s -C "$SEED_SRC" O="$b/obj" ARCH=x86_64 tinyconfig >"$b/config.log" 2>&1 ||
		{ diag "6.1 tinyconfig failed"; return 1; }
	t0=$(date +%s)
	nice make -s -C "$SEED_SRC" O="$b/obj" ARCH=x86_64 -j2 \
		KCFLAGS="-fplugin=$seed -fplugin=$b/kplug.so -fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-format=jsonl -fplugin-arg-kplug-cyc_complexity-output=$b/report.jsonl" \
		>"$b/stdout" 2>"$b/stderr" || { diag "6.1 build with both plugins failed (see $b/stderr)"; return 1; }
	KT_SECONDS=$(($(date +%s) - t0))
	diag "x86_64-6.1-seed: built in ${KT_SECONDS}s wall"
	echo "$key" >"$b/.kt-done"
}

# kt_cyc_records NAME [ARCH]: the cyc_complexity records embedded in the build's C
# objects (section .kplug.cyc), as JSON Lines, in object order, each record
# once ("kplug-report collect": one process for the ~700 objects, where an
# objcopy per object took 20 s; it reads ELF32/64 of both byte orders, so
# ARCH no longer matters).  Reads only objects compiled with kplug (their
# .cmd names kplug.so), so vmlinux.o and built-in archives, which keep the
# sections of what they contain, do not count twice.
kt_cyc_records() {
	grep -l -r --include='.*.o.cmd' -e '-fplugin=[^ ]*kplug\.so' "$KOUT/$1" | LC_ALL=C sort |
		sed 's|/\.\([^/]*\)\.cmd$|/\1|' | xargs -r "$TOP/tools/kplug-report" collect
}
