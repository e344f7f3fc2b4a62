#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Short seeded libFuzzer runs (clang, ASan + UBSan, leak detection) over the
# configuration code: arguments, ini profiles, resolve, allow/ignore lists.
# The long run is "make fuzz" (docs/hardening.md has its figures).
# lock: fuzz-build
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/fuzz/smoke.sh"

F=$TOP/tests/fuzz
if ! command -v clang >/dev/null; then
	skip "clang not installed (apt-get install clang)"
	done_testing
fi
check "fuzzers build (clang -fsanitize=fuzzer,address,undefined)" make -s -C "$F" >"$OUT/fuzz-build.log" 2>&1

if quick; then runs=3000; else runs=${KPLUG_FUZZ_RUNS:-20000}; fi
for h in fuzz_config fuzz_speclist; do
	if [ ! -x "$F/$h" ]; then
		skip "$h not built (its source in config/ is missing)"
		continue
	fi
	fuzz_smoke "$h" "$runs"
done
done_testing
