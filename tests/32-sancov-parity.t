# sancov parity with native -fsanitize-coverage=trace-pc,trace-cmp, per
# function and callback, on GCC's sancov tests and 318 gcc.c-torture files
# (every 11th of compile/ and execute/, sorted), at -O0 and -O2 with the
# host's GCC 12, plus -Og, -Os and sancov-float=on on a sixth of them.
# Native's tail-called callbacks are counted beside kplug's (always 0).
# 49-sancov-parity-cc.t runs a smaller sample on every compiler (GCC 11
# to 16), 58-kernel-parity.t kernel units.
# long
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/sancov/common.sh"
W=$OUT/sancov-parity
mkdir -p "$W"
P=$SANCOV_DIR/parity.sh

check "GCC 12 testsuite extracted" gcc_source >"$W/gcc-source"
G=$(cat "$W/gcc-source")/gcc/testsuite
SANCOV_TESTS=("$G"/gcc.dg/sancov/*.c)
check "${#SANCOV_TESTS[@]} gcc.dg/sancov tests" test ${#SANCOV_TESTS[@]} -ge 10
mapfile -t TORTURE < <(ls "$G"/gcc.c-torture/compile/*.c "$G"/gcc.c-torture/execute/*.c |
	LC_ALL=C sort | awk 'NR % 11 == 1')
mapfile -t SIXTH < <(printf '%s\n' "${TORTURE[@]}" | awk 'NR % 6 == 1')

parity() {	# parity DESCRIPTION CC SO OPT MINFILES FILE...
	local what=$1 cc=$2 so=$3 opt=$4 min=$5 out rc files
	shift 5
	out=$("$P" "$cc" "$so" "$opt" "$W/$cc$opt" "$@" 2>&1); rc=$?
	diag "$cc $opt: $(echo "$out" | tail -1)"
	[ $rc -eq 0 ] || diag "$(echo "$out" | head -20)"
	ok $rc "$what"
	files=$(echo "$out" | sed -n 's/^files \([0-9]*\) .*/\1/p' | tail -1)
	check "$cc $opt: ${files:-0} files compared (>= $min)" test "${files:-0}" -ge "$min"
}

# The checker itself: a kplug build that traces less must be caught.
# checker_reports KFLAGS PATTERN: parity.sh on gcc.dg/sancov with
# PARITY_KFLAGS=KFLAGS fails and prints PATTERN
checker_reports() {
	! PARITY_KFLAGS=$1 "$P" gcc "$KPLUG" -O2 "$W/self" "${SANCOV_TESTS[@]}" >"$W/self.out" 2>&1 &&
		grep -q "$2" "$W/self.out"
}
check "checker reports functions that differ (kplug with trace=pc only)" \
	checker_reports -fplugin-arg-kplug-sancov-trace=pc 'differing [1-9]'
check "checker reports float callbacks kplug must not emit by default" \
	checker_reports -fplugin-arg-kplug-sancov-float=on 'float callbacks without sancov-float'

if quick; then
	parity "gcc.dg/sancov at -O2: every function equal" gcc "$KPLUG" -O2 10 "${SANCOV_TESTS[@]}"
	skip "torture corpus (KPLUG_QUICK)"
	done_testing
fi

for opt in -O0 -O2; do
	parity "gcc 12 $opt: every function equal, no jmp" gcc "$KPLUG" $opt 313 \
		"${SANCOV_TESTS[@]}" "${TORTURE[@]}"
done
for opt in -Og -Os; do
	parity "gcc 12 $opt: every function equal, no jmp" gcc "$KPLUG" $opt 60 \
		"${SANCOV_TESTS[@]}" "${SIXTH[@]}"
done
PARITY_FLOAT=1 parity "gcc 12 -O2 with sancov-float=on: cmpf/cmpd equal too" gcc "$KPLUG" -O2 60 \
	"${SANCOV_TESTS[@]}" "${SIXTH[@]}"
rm -rf "$W"
done_testing
