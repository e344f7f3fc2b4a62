#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Short seeded libFuzzer runs (clang, ASan + UBSan, leak detection) over
# tools/kplug-report: its line reader, its text reader, every command
# through report_main(), and its coverage map reader.  The long run is "make fuzz" (docs/hardening.md).
# lock: fuzz-build
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/fuzz/smoke.sh"

F=$TOP/tests/fuzz
if ! command -v clang >/dev/null; then
	skip "clang not installed (apt-get install clang)"
	done_testing
fi
check "report fuzzers build (clang -fsanitize=fuzzer,address,undefined)" make -s -C "$F" fuzz_report_json fuzz_report_text fuzz_report fuzz_covmap >"$OUT/fuzz-report-build.log" 2>&1

if quick; then runs=3000; else runs=${KPLUG_FUZZ_RUNS:-20000}; fi
for h in fuzz_report_json fuzz_report_text fuzz_report fuzz_covmap; do
	opts=() n=$runs
	[ $h = fuzz_report_json ] && opts=(-dict="$F/report.dict")
	# the whole tool writes its summary to stderr on every run, and starts
	# a reader thread per input (about 150 runs/s under ASan)
	[ $h = fuzz_report ] && opts=(-dict="$F/report.dict" -close_fd_mask=2) n=$((runs / 10))
	fuzz_smoke "$h" "$n" "${opts[@]}"
done

# The harnesses can fail: the macros crash of issue 13 (a record whose only
# macro count is 0), replayed through fuzz_report: it crashes a build without
# the fix.
crash=$OUT/fuzz-smoke/macros-zero
printf '\x02\x01{"file":"a.c","line":1,"function":"f","M":1,"parts":{"base":1,"own":0,"macro":0,"sanitizer":0,"noreturn":0},"macros":{"X":0}}\n' > "$crash"
# in_smoke CMD...: CMD run in $OUT/fuzz-smoke
in_smoke() { (cd "$OUT/fuzz-smoke" && "$@"); }
check "fuzz_report replays the all-zero macros record cleanly" in_smoke "$F/fuzz_report" "$crash" >"$crash.log" 2>&1
# and the map crash of issue 22 (records of pointer sizes 4 and 8: a heap
# write through an unchecked probe index), a seed of the covmap corpus
check "fuzz_covmap replays the map of mixed pointer sizes cleanly" \
	in_smoke "$F/fuzz_covmap" "$F/corpus/covmap/mixed-pointer-sizes" >"$OUT/fuzz-smoke/covmap-mixed.log" 2>&1
done_testing
