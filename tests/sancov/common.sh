# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the sancov tests (source after tests/lib.sh).
SANCOV_DIR=$TOP/tests/sancov
KSANCOV="-fplugin-arg-kplug-enable=sancov"

# kplug.so built for gcc-11 (the one tests/lib.sh kplug_so_for builds for
# every test); prints its path, fails if gcc-11 or its plugin headers are
# missing.
sancov_so11() {
	command -v gcc-11 >/dev/null || return 1
	[ -f "$(gcc-11 -print-file-name=plugin)/include/plugin-version.h" ] || return 1
	kplug_so_for gcc-11 2>/dev/null
}

# callbacks CC SO OPT FILE [FLAGS...]: per-function callback counts of a
# kplug build (SO) or, with SO "native", of -fsanitize-coverage.
callbacks() {
	local cc=$1 so=$2 opt=$3 f=$4 d
	shift 4
	d=$(mktemp -d "$OUT/sancov-cb.XXXXXX")
	if [ "$so" = native ]; then
		$cc $opt -w -c "$f" -o "$d/x.o" -fdump-tree-optimized="$d/x.opt" \
			-fsanitize-coverage=trace-pc,trace-cmp "$@" || { rm -rf "$d"; return 1; }
	else
		$cc $opt -w -c "$f" -o "$d/x.o" -fdump-tree-optimized="$d/x.opt" \
			-fplugin="$so" $KSANCOV "$@" || { rm -rf "$d"; return 1; }
	fi
	touch "$d/x.opt"
	perl "$SANCOV_DIR/count.pl" "$d/x.opt"
	rm -rf "$d"
}

# jumps OBJ: "JUMPS CALLS" to __sanitizer_cov_* callbacks in OBJ.
jumps() {
	objdump -dr --no-show-raw-insn "$1" | awk '
		/^ +[0-9a-f]+:\t/ { insn = $2 }
		/R_[A-Z0-9_]+\t__sanitizer_cov_/ { if (insn ~ /^j/) j++; else c++ }
		END { print j + 0, c + 0 }'
}

# sancov_bad DIR SOURCE DESCRIPTION EXPECTED-LINE ARGS...: compiling SOURCE
# in DIR with kplug's sancov and ARGS prints exactly EXPECTED-LINE and
# fails (two checks).
sancov_bad() {
	local dir=$1 src=$2 what=$3 want=$4 err rc
	shift 4
	err=$(cd "$dir" && gcc -O2 -c "$src" -o bad.o -fplugin="$KPLUG" $KSANCOV "$@" 2>&1)
	rc=$?
	is "$err" "$want" "$what: one line"
	check "$what: exit status $rc" test "$rc" -ne 0
}
