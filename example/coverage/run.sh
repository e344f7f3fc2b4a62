#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build prog.c with kplug's sancov (trace-pc), link it with the tiny PC
# recording runtime, run it, and print the functions and lines it covered
# (addr2line).  Also counts the callbacks native GCC would tail-call.
#   KPLUG=path/to/kplug.so CC=gcc example/coverage/run.sh [ARGS for prog]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
KPLUG=${KPLUG:-$here/../../kplug.so}
CC=${CC:-gcc}
[ -f "$KPLUG" ] || { echo "kplug: $KPLUG not found: run make first" >&2; exit 1; }
case $KPLUG in /*) ;; *) KPLUG=$PWD/$KPLUG ;; esac
w=$(mktemp -d "${TMPDIR:-/tmp}/kplug-coverage.XXXXXX")
trap 'rm -rf "$w"' EXIT
[ $# -gt 0 ] || set -- 42 -7 0 kernel Linux

cd "$here"
# -no-pie: the recorded return addresses are then the link-time addresses
$CC -O2 -g -c prog.c -o "$w/prog.o" -fplugin="$KPLUG" -fplugin-arg-kplug-enable=sancov
$CC -O2 -c runtime.c -o "$w/runtime.o"
$CC -no-pie "$w/prog.o" "$w/runtime.o" -o "$w/prog"

echo "\$ prog $*"
COVERAGE_OUT=$w/pcs "$w/prog" "$@"

# "function: line line..." for a list of addresses (one per line)
lines() {
	addr2line -f -e "$w/prog" | paste - - |
		awk '{ sub(".*/", "", $2); sub(" .*", "", $2); print $1 "\t" $2 }' |
		sort -t: -k1,1 -k2,2n | uniq |
		awk -F'\t' '{ if ($1 != last) { printf "%s  %s:", (NR > 1 ? "\n" : ""), $1; last = $1 }
			     split($2, a, ":"); printf " %s", a[2] } END { if (NR) print "" }'
}

# The return address recorded follows the call: PC-1 is in the call itself.
while read -r pc; do printf '0x%x\n' $((pc - 1)); done < "$w/pcs" > "$w/hit"
# Every call site in prog, and those whose return address was never seen.
objdump -d --no-show-raw-insn "$w/prog" |
	awk '/call.*<__sanitizer_cov_trace_pc>/ { sub(":", "", $1); print "0x" $1 }' > "$w/sites"
while read -r a; do
	grep -qx "$(printf '0x%x' $((a + 5)))" "$w/pcs" || printf '0x%x\n' "$a"
done < "$w/sites" > "$w/missed"
echo
echo "covered $(wc -l < "$w/pcs") of $(wc -l < "$w/sites") instrumented blocks; functions and lines:"
lines < "$w/hit"
echo "not covered:"
lines < "$w/missed"

# Why "never tail-called" matters: native GCC 12 jumps to some callbacks,
# so the runtime records the caller's caller as PC.  Build natively, run,
# and count the recorded PCs that do not follow a call to the callback.
jmps() {
	objdump -dr --no-show-raw-insn "$1" | awk '/^ +[0-9a-f]+:\t/ { insn = $2 }
		/R_[A-Z0-9_]+\t__sanitizer_cov_/ { if (insn ~ /^j/) j++ } END { print j + 0 }'
}
if $CC -O2 -g -c prog.c -o "$w/native.o" -fsanitize-coverage=trace-pc 2>/dev/null &&
	$CC -no-pie "$w/native.o" "$w/runtime.o" -o "$w/native" &&
	COVERAGE_OUT=$w/npcs "$w/native" "$@" >/dev/null; then
	objdump -d --no-show-raw-insn "$w/native" |
		awk '/call.*<__sanitizer_cov_trace_pc>/ { sub(":", "", $1); print "0x" $1 }' > "$w/nsites"
	while read -r pc; do
		grep -qx "$(printf '0x%x' $((pc - 5)))" "$w/nsites" ||
			printf '0x%x\n' $((pc - 1))
	done < "$w/npcs" > "$w/wrong"
	echo "tail-called callbacks (jmp): native -fsanitize-coverage $(jmps "$w/native.o"), kplug $(jmps "$w/prog.o")"
	if [ -s "$w/wrong" ]; then
		echo "native build: $(wc -l < "$w/wrong") recorded PC(s) in the caller instead of the block:"
		addr2line -f -e "$w/native" < "$w/wrong" | paste - - |
			awk '{ sub(".*/", "", $2); sub(" .*", "", $2); print "  " $1 " " $2 }'
	fi
fi
