#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What icecream's remote compile does: the source preprocessed where it
# lives (-E -fdirectives-only, relative path), compiled from stdin
# (-fpreprocessed -) in another directory.  With an absolute root (or the
# mirror case: a relative root and an absolute source) the match depends
# on the directory the unit was compiled in: kplug takes it from the
# preprocessed input's working-directory line (-fworking-directory, on
# with -g), and where that line is missing it stops with one line instead
# of matching against the wrong directory (icecream then compiles
# locally).  Both relative (kbuild) needs no directory.
# per-compiler
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src/drivers/net" "$t/remote"
printf 'int f(int a) { return a ? 1 : 2; }\n' >"$t/src/drivers/net/x.c"
printf '[path:drivers/net/*]\nenable = cyc_complexity\n' >"$t/p.ini"
# in_src CMD...: CMD run in src/
in_src() { (cd "$t/src" && "$@"); }
# pre NAME INPUT FLAGS...: preprocess in src/, as the icecream client does
pre() {
	local name=$1 input=$2
	shift 2
	check "$name: preprocessed in the source directory" \
		in_src $KCC "$@" -E -fdirectives-only "$input" -o "$t/$name.i"
}
# remote NAME ROOT: the unit compiled from stdin in remote/; prints its
# complexity lines, its kplug errors on stderr
remote() {
	(cd "$t/remote" && $KCC -x c -fpreprocessed -fdirectives-only -fplugin="$KPLUG" \
		-fplugin-arg-kplug-config="$t/p.ini" ${2:+-fplugin-arg-kplug-root="$2"} \
		-c - -o o.o <"$t/$1.i" 2>"$t/$1.err")
	echo "$?:$(grep -c '^Cyclomatic Complexity' "$t/$1.err")"
}
pre rel-g drivers/net/x.c -g
pre rel drivers/net/x.c
pre abs-g "$t/src/drivers/net/x.c" -g
pre abs "$t/src/drivers/net/x.c"

is "$(remote rel-g "$t/src")" 0:1 "absolute root, relative source, -g: the section applies"
is "$(remote abs-g .)" 0:1 "relative root, absolute source, -g: the section applies"
is "$(remote rel .)" 0:1 "both relative, no working-directory line: the section applies"
is "$(remote abs "$t/src")" 0:1 "both absolute, no working-directory line: the section applies"
for c in "rel $t/src" "abs ."; do
	set -- $c
	got=$(remote "$1" "$2")
	is "${got%%:*}" 1 "$1 source, root $2, no working-directory line: the compile stops"
	is "$(grep -c . "$t/$1.err")" 1 "... with one line"
	check "... naming the section, the source and what to do" grep -q \
		"kplug: $t/p.ini:2: \[path:drivers/net/\*\] matches '.*drivers/net/x.c' against root= by the directory it was compiled in, which this preprocessed input on stdin does not name: preprocess with -fworking-directory (or -g)" "$t/$1.err"
	[ "${got%%:*}" = 1 ] || diag_in <"$t/$1.err"
done
done_testing
