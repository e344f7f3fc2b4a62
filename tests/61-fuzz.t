#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Short seeded libFuzzer runs (clang, ASan + UBSan, leak detection) over the
# configuration code: arguments, ini profiles, resolve, allow/ignore lists.
# The long run is "make fuzz" (docs/hardening.md has its figures).
. "$(dirname "$0")/lib.sh"

F=$TOP/tests/fuzz
if ! command -v clang >/dev/null; then
	skip "clang not installed (apt-get install clang)"
	done_testing
fi
make -s -C "$F" >"$OUT/fuzz-build.log" 2>&1
ok $? "fuzzers build (clang -fsanitize=fuzzer,address,undefined)"

if quick; then runs=3000; else runs=${KPLUG_FUZZ_RUNS:-20000}; fi
for h in fuzz_config fuzz_speclist; do
	if [ ! -x "$F/$h" ]; then
		skip "$h not built (its source in config/ is missing)"
		continue
	fi
	corpus=$F/corpus/${h#fuzz_}
	scratch=$OUT/fuzz-smoke/$h
	rm -rf "$scratch"
	mkdir -p "$scratch"
	start=$(date +%s)
	(cd "$scratch" && nice "$F/$h" -runs="$runs" -seed=1 -max_total_time=120 \
		-detect_leaks=1 -print_final_stats=1 -artifact_prefix="$scratch/" \
		"$scratch" "$corpus" >"$scratch.log" 2>&1)
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch.log")
	cov=$(grep -o 'cov: [0-9]*' "$scratch.log" | tail -1)
	[ $rc -eq 0 ] && [ -n "$execs" ] && ! ls "$scratch"/crash-* "$scratch"/leak-* >/dev/null 2>&1
	ok $? "$h: $execs runs (seed 1, $(ls "$corpus" | wc -l) seeds), $cov, no crash, no leak (${secs}s)"
	[ $rc -eq 0 ] || grep -E 'ERROR|SUMMARY|==[0-9]+==' "$scratch.log" | head -10 |
		while read -r l; do diag "$l"; done
done
done_testing
