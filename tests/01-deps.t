# SPDX-License-Identifier: GPL-2.0
# Every tool and system file the tests, benchmarks and examples use comes
# from a package that "make check" installs (DEPS_PKGS in the Makefile,
# with their Depends) or from a package every Debian system has (Essential
# or Priority required): a fresh machine gets all of them from the install
# step.  Recommends do not count: ensure-deps installs without them.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
SYS_PATH=/usr/sbin:/usr/bin:/sbin:/bin

# Used only through other programs (kernel builds, the fuzzer link, tests
# that build their path from a version): named here.
INDIRECT="command aarch64-linux-gnu-gcc
command arm-linux-gnueabi-gcc
command flex
command bison
command bc
command cpio
command xz
command depmod
command python3
command ar
command llvm-symbolizer-14
file /usr/src/linux-source-6.1.tar.xz
file /usr/src/linux-source-6.12.tar.xz
file /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
file /usr/lib/gcc/x86_64-linux-gnu/12/plugin/include/plugin-version.h
file /usr/lib/gcc/x86_64-linux-gnu/11/plugin/include/plugin-version.h
file /usr/lib/gcc-cross/aarch64-linux-gnu/12/plugin/include/plugin-version.h
file /usr/lib/gcc-cross/arm-linux-gnueabi/12/plugin/include/plugin-version.h"

# Files kplug's own packages install (tests/70 builds and installs them):
# no package of the list provides those.
OWN_FILES='^file /usr/(bin/kplug-|share/kplug(/|$)|share/doc/kplug-tools(/|$)|share/man/man[17]/kplug)'

# Files only the toolchain chroots have (tests that read them run there):
# "SUITE PKG" of the first chroot whose package list brings PATH.
chroot_owner() {
	local suite pkg
	for suite in trixie sid; do
		pkg=$(tools/toolchain-chroot run "$suite" dpkg -S "$1" 2>/dev/null |
			sed -n 's/^\([^:, ]*\)[^/]*: \/.*/\1/p' | head -1)
		[ -n "$pkg" ] && tools/toolchain-chroot packages "$suite" | grep -qx -- "$pkg" &&
			{ echo "$suite $pkg"; return 0; }
	done
	return 1
}

# "WHAT PATH" for every tool and file used, "WHAT @SUITE PKG" for a file
# of a toolchain chroot, or "WHAT !problem".
used() {
	local kind what path in_chroot
	{
		perl "$TOP/tests/tools-used.pl" tests/*.t tests/*.sh tests/*/*.sh \
			tests/kernel/*.pl tests/sancov/*.pl example/*.sh example/*/*.sh \
			bench/*.sh tests/fuzz/Makefile Makefile .ci/run tools/ensure-deps |
			grep -v -E "$OWN_FILES"
		echo "$INDIRECT"
	} | sort -u | while read -r kind what; do
		if [ "$kind" = file ]; then
			if [ -e "$what" ]; then
				echo "$what $what"
			elif in_chroot=$(chroot_owner "$what"); then
				echo "$what @$in_chroot"
			else
				echo "$what !no such file"
			fi
		elif path=$(PATH=$SYS_PATH type -P "$what"); then
			echo "$what $path"
		elif grep -qx "command $what" <<<"$INDIRECT"; then
			echo "$what !not installed by any package of the list"
		fi	# else a word in command position that is no command
	done
}

# "WHAT PKG..." : the packages that can provide each used path (usrmerge and
# alternatives resolved), with one dpkg -S for all of them.
owners() {
	local what path cands alt a p
	declare -A pk
	while read -r path p; do
		pk[$path]+="$p "
	done < <(
		while read -r what path; do
			case $path in !* | @*) continue ;; esac
			echo "$path"
			case $path in /usr/*bin/*) echo "${path#/usr}" ;; esac
			readlink -f "$path"
			alt=$(readlink "$path")
			case $alt in /etc/alternatives/*)
				update-alternatives --list "${alt##*/}" 2>/dev/null |
					while read -r a; do readlink -f "$a"; done ;;
			esac
		done <<<"$USED" | sort -u | xargs -r dpkg -S 2>/dev/null |
			sed -n 's#^\([^:, ]*\)[^/]*: \(/.*\)$#\2 \1#p'
	)
	while read -r what path; do
		case $path in !* | @*) echo "$what $path"; continue ;; esac
		cands="${pk[$path]:-}${pk[${path#/usr}]:-}${pk[$(readlink -f "$path")]:-}"
		alt=$(readlink "$path")
		case $alt in /etc/alternatives/*)
			for a in $(update-alternatives --list "${alt##*/}" 2>/dev/null); do
				cands+="${pk[$(readlink -f "$a")]:-}"
			done ;;
		esac
		echo "$what $path ${cands:-!owned by no Debian package}"
	done <<<"$USED"
}

# Packages a fresh machine has once PKGS are installed: their Depends and
# Pre-Depends, recursively, and the Essential and required packages.
closure() {
	{
		# shellcheck disable=SC2086
		apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
			--no-breaks --no-replaces --no-enhances $1 2>/dev/null |
			sed -n 's/^\([a-z0-9][^ :<>]*\)\(:any\)\?$/\1/p; s/^ *\(Pre\)\?Depends: \([^<>]*\)$/\2/p'
		dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' |
			awk '$2 == "yes" || $3 == "required" { print $1 }'
	} | sed 's/:any$//' | sort -u
}

# unowned_tools PKGS: one line per used tool that no package of the closure
# provides.
unowned_tools() {
	local allowed what path pkgs p ok_any
	allowed=$(closure "$1")
	while read -r what path pkgs; do
		case $path in !*) echo "$what: ${path#!}"; continue ;; @*) continue ;; esac
		case $pkgs in !*) echo "$what ($path): ${pkgs#!}"; continue ;; esac
		ok_any=
		for p in $pkgs; do grep -qx "$p" <<<"$allowed" && ok_any=$p; done
		[ -n "$ok_any" ] || echo "$what ($path): from $pkgs, which the install list does not bring"
	done <<<"$OWNERS"
}

USED=$(used)
OWNERS=$(owners)
check "$(wc -l <<<"$OWNERS") tools and files found in the scripts" test "$(wc -l <<<"$OWNERS")" -gt 40
deps=$(make -s --no-print-directory -C "$TOP" print-deps)
check "DEPS_PKGS read from the Makefile ($(wc -w <<<"$deps") packages)" test -n "$deps"
for p in libclang-rt-14-dev llvm-14 clang-14; do
	check "DEPS_PKGS names $p explicitly" grep -qw -- "$p" <<<"$deps"
done
bad=$(unowned_tools "$deps")
is "$bad" "" "every tool the tests call comes from the install list or a required package"

# Files of the chroots: found in the list of the chroot that has them.
is "$(chroot_owner /usr/src/linux-source-7.2.tar.xz)" "trixie linux-source-7.2" \
	"a file only the chroots have comes from a package of a chroot's list"
check_exit 1 "self-check: a file no chroot has is not found" chroot_owner "$TOP/no-such-file.$$" >/dev/null

# The checker can fail: without valgrind and llvm-14 in the list, both are named.
# names_valgrind_and_llvm14 REPORT: REPORT names both tools as unowned.
names_valgrind_and_llvm14() {
	grep -q '^valgrind (' <<<"$1" && grep -q '^llvm-symbolizer-14 (' <<<"$1"
}
bad=$(unowned_tools "$(tr ' ' '\n' <<<"$deps" | grep -vx -e valgrind -e llvm-14 | xargs)")
check "self-check: a list without valgrind and llvm-14 is caught" names_valgrind_and_llvm14 "$bad"
diag "$bad"
done_testing
