#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/kplug-report on input that used to crash it or be misread: many
# directories (use after free, under ASan), all-zero macro counts, numbers
# beyond 32 bits, values longer than any fixed buffer, extreme M in
# comparisons; and the link with -pthread.
. "$(dirname "$0")/lib.sh"
R=$TOP/tools/kplug-report
T=$(mktemp -d "$OUT/report-robust.XXXXXX")
[ -x "$R" ] || make -s -C "$TOP" tools/kplug-report

run() { "$@" > "$T/out" 2> "$T/err"; rc=$?; }
SRCS=("${REPORT_SRCS[@]}")

# ---- -pthread ----
make -s -C "$TOP" -n -B tools/kplug-report > "$T/make.log" 2>&1
check "tools/kplug-report is linked with -pthread" grep -q -- ' -pthread .*-o tools/kplug-report' "$T/make.log"
# refused_without_pthread: the reader's compile without -pthread fails, saying why
refused_without_pthread() {
	! gcc -c -I"$TOP" -o "$T/input.o" "$TOP/tools/report/input/batch.c" 2> "$T/err" &&
		grep -q 'build kplug-report with -pthread' "$T/err"
}
check "the reader (pthread_create) refuses to build without -pthread" refused_without_pthread

# ---- dirs: 3,000 directories, under ASan ----
check "an ASan build of kplug-report" gcc -O1 -g -fsanitize=address -fno-omit-frame-pointer -pthread -I"$TOP" -o "$T/asan" "${SRCS[@]}" -lm
awk 'BEGIN { for (i = 0; i < 3000; i++)
	printf "{\"file\":\"dir%d/sub/f.c\",\"line\":1,\"function\":\"f%d\",\"M\":%d}\n", i, i, 1 + i % 50 }' > "$T/dirs.jsonl"
ASAN_OPTIONS=detect_leaks=1 run "$T/asan" dirs -n 0 "$T/dirs.jsonl"
is "$rc/$(grep -c '/sub ' "$T/out")/$(grep -c 'AddressSanitizer' "$T/err")" "0/3000/0" \
	"dirs on 3,000 directories: every one listed, no ASan report"
ASAN_OPTIONS=detect_leaks=1 run "$T/asan" dirs --depth 1 -n 0 --format=csv "$T/dirs.jsonl"
is "$rc/$(grep -c '^dir[0-9]' "$T/out")" "0/3000" "  and with --depth 1"

# ---- macros: every count 0 ----
zero='{"file":"a.c","line":1,"function":"f","M":1,"parts":{"base":1,"own":0,"macro":0,"sanitizer":0,"noreturn":0},"macros":{"X":0}}'
echo "$zero" > "$T/zero.jsonl"
for fmt in text csv json; do
	run "$R" macros --format=$fmt "$T/zero.jsonl"
	is "$rc" 0 "macros --format=$fmt with every count 0: exit 0"
done
run "$R" macros "$T/zero.jsonl"
is "$(awk 'NR == 2 { print $1, $2, $3, $4, $5 }' "$T/out")" "X 0 1 0 a.c:f" "  X: 0 decisions, 1 function, max 0, worst a.c:f"
printf '%s\n' '{"file":"a.c","line":1,"function":"g","M":1,"parts":{"base":1,"own":3,"macro":-3,"sanitizer":0,"noreturn":0},"macros":{"Y":-3}}' > "$T/neg.jsonl"
run "$R" macros "$T/neg.jsonl"
is "$rc/$(awk 'NR == 2 { print $1, $2, $4 }' "$T/out")" "0/Y -3 -3" "macros: a negative count is the max, not 0"

# ---- numbers beyond 32 bits ----
j() { printf '{"file":"a.c","line":%s,"function":"%s","M":%s}\n' "$@"; }
{ j 1 big 4000000000; j 2 max 2147483647; j 4294967296 line_big 3; j 5 neg -2147483649
  j 6 huge 123456789012345678901234567890; j 7 ok 5; } > "$T/big.jsonl"
run "$R" top -n 0 "$T/big.jsonl"
is "$rc/$(awk 'NR > 1 { printf "%s=%s ", $NF, $1 }' "$T/out")" "0/max=2147483647 ok=5 " \
	"JSON: M = 2147483647 carried exactly; values beyond int32 are not read as wrapped numbers"
for l in 1 3 4 5; do
	check "  big.jsonl:$l: 'integer out of range' names the line" grep -q "^kplug-report: $T/big.jsonl:$l: bad record: integer out of range\$" "$T/err"
done
run "$R" top --strict "$T/big.jsonl"; is "$rc" 2 "  --strict: a tool error"
printf 'Cyclomatic Complexity 4000000000 a.c:big\nCyclomatic Complexity 2147483648 a.c:over\nCyclomatic Complexity 2147483647 a.c:max\nCyclomatic Complexity 99999999999999999999 a.c:huge\n' > "$T/big.txt"
run "$R" top -n 0 "$T/big.txt"
is "$rc/$(awk 'NR > 1 { printf "%s=%s ", $NF, $1 }' "$T/out")" "0/max=2147483647 " "text: M = 2147483647 exact, larger ones not wrapped"
for l in 1 2 4; do
	check "  big.txt:$l: 'M out of range' names the line" grep -q "^kplug-report: $T/big.txt:$l: bad record: M out of range\$" "$T/err"
done

# ---- extreme M in comparisons (overflowing subtraction sorted them wrongly) ----
{ j 1 lo 0 | sed 's#a.c#lo/a.c#'; j 1 hi 2147483647 | sed 's#a.c#hi/a.c#'; } > "$T/ext.jsonl"
run "$R" dirs --format=csv "$T/ext.jsonl"
is "$(cut -d, -f1,3 "$T/out" | tr '\n' ' ')" "directory,max hi,2147483647 lo,0 " \
	"dirs: the directory with the larger max first, at the ends of int32"
{ j 1 f 0; } > "$T/base.jsonl"; { j 1 f 2147483647; j 2 g 40; } > "$T/new.jsonl"
run "$R" diff -n 0 "$T/base.jsonl" "$T/new.jsonl"
is "$(awk '$1 == "new" || $1 == "grown" { print $1, $2, $3, $4, $NF }' "$T/out" | tr '\n' ';')" \
	"new - 40 a.c:2 g;grown 0 2147483647 +2147483647 f;" "diff: a growth from 0 to INT32_MAX is printed exactly (M < 0 is a bad record)"

# ---- no value cut by a fixed buffer ----
long=$(printf 'd%.0s' $(seq 1 5000))
fn=$(printf 'f%.0s' $(seq 1 700))
printf '{"file":"%s/a.c","line":12345,"function":"%s","M":40}\n' "$long" "$fn" > "$T/long.jsonl"
run "$R" top "$T/long.jsonl"
check "top: a 5,000-byte location printed whole" grep -q "^   40     -     -     -     -  $long/a.c:12345 $fn\$" "$T/out"
run "$R" sarif --threshold 30 "$T/long.jsonl"
check "sarif: a message with a 700-byte function name whole" python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["runs"][0]["results"][0]["message"]["text"]; assert m == "function %r has cyclomatic complexity 40 (threshold 30)" % sys.argv[2], m' "$T/out" "$fn"
run "$R" top --format=checkstyle --threshold 30 "$T/long.jsonl"
check "checkstyle: the same message whole" grep -q "message=\"function &apos;$fn&apos; has cyclomatic complexity 40 (threshold 30)\"" "$T/out"
{ j 1 other 1; } > "$T/empty-base.jsonl"
run "$R" diff "$T/empty-base.jsonl" "$T/long.jsonl"
check "diff: a 5,000-byte location printed whole" grep -q "^new         -    40         $long/a.c:12345 $fn\$" "$T/out"
awk 'BEGIN { printf "{\"file\":\"a.c\",\"line\":1,\"function\":\"many\",\"M\":1,\"macros\":{"
	for (i = 0; i < 70000; i++) printf "%s\"M%d\":1", i ? "," : "", i; print "}}" }' > "$T/many.jsonl"
run "$R" top --format=json "$T/many.jsonl"
check "a record with 70,000 macros keeps every one (no 65,535 cap)" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d[0]["macros"]) == 70000, len(d[0]["macros"])' "$T/out"
# ---- the JSON escaper shared with the plugin (config/kplug-json.c) ----
printf '%s\n' '{"file":"d\u0001\u001f/\"q\\.c","line":1,"function":"f\t\u00e9\ud83d\ude00\u007f","M":3}' > "$T/esc.jsonl"
run "$R" top --format=json "$T/esc.jsonl"
check "top --format=json: control characters, quotes, backslashes and UTF-8 round-trip" python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[0]; assert d["file"] == "d\x01\x1f/\"q\\.c" and d["function"] == "f\t\u00e9\U0001F600\x7f", d' "$T/out"
check "  written as \\u0001, \\u001f, \\\", \\\\" grep -q '"file":"d\\u0001\\u001f/\\"q\\\\.c"' "$T/out"
# ---- duplicate keys and negative M are bad records (issue 22, item 6) ----
{ echo '{"file":"a.c","line":1,"function":"dupm","M":40,"M":2}'
  echo '{"file":"a.c","line":2,"function":"neg","M":-5}'
  echo '{"file":"a.c","line":3,"function":"dupf","file":"b.c","M":3}'
  echo '{"file":"a.c","line":4,"function":"dupp","M":3,"parts":{"base":1,"own":2,"own":0,"macro":0,"sanitizer":0,"noreturn":0}}'
  echo '{"file":"a.c","line":5,"function":"dupmac","M":3,"parts":{"base":1,"own":0,"macro":2,"sanitizer":0,"noreturn":0},"macros":{"X":1,"X":1}}'
  echo '{"file":"a.c","line":6,"function":"good","M":0}'; } > "$T/dup.jsonl"
run "$R" top -n 0 "$T/dup.jsonl"
is "$rc/$(awk 'NR > 1 { printf "%s=%s ", $NF, $1 }' "$T/out")" "0/good=0 " \
	"duplicate keys and negative M: only the good record is listed"
for l in "1: bad record: duplicate key" "2: bad record: negative M" "3: bad record: duplicate key" \
	"4: bad record: duplicate key" "5: bad record: duplicate key"; do
	check "  dup.jsonl:$l" grep -qF "kplug-report: $T/dup.jsonl:$l" "$T/err"
done
run "$R" hist "$T/dup.jsonl"
ok $(( $(grep -c -- '-5\|-1' "$T/out") != 0 )) "  hist counts no negative M"
run "$R" top --strict "$T/dup.jsonl"; is "$rc" 2 "  --strict: a tool error"
# ---- output is valid UTF-8 JSON whatever the bytes (issue 22, item 5) ----
utf8_json() { python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))' "$1" 2>/dev/null; }
printf '{"file":"caf\xe9.c","line":1,"function":"f\xc3\xa9\xed\xa0\x80\xf8","M":40}\n' > "$T/latin1.jsonl"
run "$R" sarif "$T/latin1.jsonl"; cp "$T/out" "$T/l.sarif"
check "sarif of a record with bytes that are not UTF-8: valid UTF-8 JSON" utf8_json "$T/l.sarif"
check "  each such byte is U+FFFD, valid UTF-8 (é) is kept" grep -qF "$(printf 'caf\xef\xbf\xbd.c')" "$T/l.sarif"
run "$R" top --format=json "$T/latin1.jsonl"; cp "$T/out" "$T/l.json"
check "top --format=json of the same: valid UTF-8 JSON" utf8_json "$T/l.json"
rm -rf "$T"
done_testing
