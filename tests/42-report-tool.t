# tools/kplug-report on fixed reports (tests/report/*.jsonl) and on one the
# plugin writes: subcommands, formats, de-duplication, gates, bad input.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/report
R=$TOP/tools/kplug-report
T=$(mktemp -d "$OUT/report-tool.XXXXXX")
[ -x "$R" ] || make -s -C "$TOP" tools/kplug-report
check "make builds tools/kplug-report" test -x "$R"

# run ARGS...: stdout to $T/out, stderr to $T/err, exit status in $rc
run() { "$R" "$@" > "$T/out" 2> "$T/err"; rc=$?; }
col() { awk -v c="$1" 'NR > 1 { printf "%s ", $c }' "$T/out"; }

# ---- top, de-duplication, supersession ----
run top "$FIX/base.jsonl"
is "$rc" 0 "top: exit 0 without a gate"
is "$(col 7)" "b_write probe b_read old_helper x_inline remove " "top: by M, descending"
check "header inline from 2 TUs counted once" grep -q 'x_inline \[header, 2 TUs\]' "$T/out"
check "summary on stderr: records, bad lines, functions, over threshold" grep -q '7 records read, 0 bad lines, 6 functions after de-duplication, 1 at or above 30' "$T/err"
run top -n 2 "$FIX/base.jsonl"
is "$(col 7)" "b_write probe " "top -n 2"
cat "$FIX/base.jsonl" "$FIX/new.jsonl" > "$T/appended.jsonl"
run top -n 0 "$T/appended.jsonl"
is "$(col 7)" "b_write new_big probe b_read x_inline remove new_small " \
	"appended rebuild: the last run of a TU replaces its earlier records"
check "  and header inlines still count their TUs" grep -q 'x_inline \[header, 2 TUs\]' "$T/out"
run top --format=json -n 0 "$FIX/base.jsonl"
check "top --format=json" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 6 and d[0]["function"] == "b_write" and d[0]["macros"] == {"min": 6, "WARN_ON": 4} and d[4]["tus"] == 2' "$T/out"
run top --format=csv -n 0 "$FIX/base.jsonl"
check "top --format=csv" python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); assert len(r) == 6 and r[0]["M"] == "40" and r[0]["noreturn"] == "-1" and r[1]["file"] == "drivers/net/a.c"' "$T/out"
run top --format=checkstyle --threshold 20 "$FIX/base.jsonl"
is "$rc" 1 "checkstyle --threshold 20: gate breached"
check "checkstyle XML: the functions at or above the threshold" python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); e=r.findall("file/error"); assert r.tag == "checkstyle" and len(e) == 2 and e[0].get("line") == "10" and "probe" in e[0].get("message")' "$T/out"

# ---- gate ----
run top --threshold 41 "$FIX/base.jsonl"; is "$rc" 0 "--threshold 41: fine (exit 0)"
run top --threshold 40 "$FIX/base.jsonl"; is "$rc" 1 "--threshold 40: breached (exit 1)"

# ---- sarif ----
run sarif --threshold 12 "$FIX/base.jsonl"
is "$rc" 1 "sarif --threshold 12: gate breached"
check "SARIF 2.1.0: rules, results at function locations, FNV-1a fingerprint of file:function" python3 - "$T/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0"
run, = d["runs"]
rules = run["tool"]["driver"]["rules"]
assert [r["name"] for r in rules] == ["cyclomatic-complexity", "cyclomatic-complexity-growth"]
res = run["results"]
assert [r["locations"][0]["logicalLocations"][0]["name"] for r in res] == ["b_write", "probe", "b_read"]
r = res[1]
assert r["ruleId"] == rules[r["ruleIndex"]]["id"]
assert r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "drivers/net/a.c"
assert r["locations"][0]["physicalLocation"]["region"]["startLine"] == 10
assert r["properties"] == {"M": 25, "own": 20, "macro": 4, "sanitizer": 0, "noreturn": 0}
# 64-bit FNV-1a of "file:function"
h = 1469598103934665603
for c in b"drivers/net/a.c:probe":
    h = ((h ^ c) * 1099511628211) % 2**64
assert r["partialFingerprints"]["kplugFunction/v1"] == "%016x" % h
EOF
fps() { "$R" sarif --threshold 20 "$1" 2>/dev/null | python3 -c 'import json,sys; print(sorted((r["locations"][0]["logicalLocations"][0]["name"], r["partialFingerprints"]["kplugFunction/v1"]) for r in json.load(sys.stdin)["runs"][0]["results"] if r["locations"][0]["logicalLocations"][0]["name"] == "probe"))'; }
is "$(fps "$FIX/new.jsonl")" "$(fps "$FIX/base.jsonl")" "fingerprint survives the line shift of probe (10 -> 14)"
sed 's#"drivers/#"/home/u/linux/drivers/#' "$FIX/base.jsonl" > "$T/abs.jsonl"
run sarif --threshold 20 --root /home/u/linux/ "$T/abs.jsonl"
check "--root makes absolute paths relative" grep -q '"uri": "drivers/net/a.c"' "$T/out"

# ---- dirs ----
for i in $(seq 1 20); do
	printf '{"file":"lib/d%d.c","line":1,"function":"f%d","M":%d}\n' "$i" "$i" "$i"
done > "$T/dirs.jsonl"
printf '{"file":"fs/ext4/a.c","line":1,"function":"g","M":50}\n' >> "$T/dirs.jsonl"
run dirs --threshold 18 --format=csv "$T/dirs.jsonl"
is "$(cat "$T/out")" "directory,count,max,p95,mean,over_18
fs/ext4,1,50,50,50.00,1
lib,20,20,19,10.50,3" "dirs: count, max, p95 (nearest rank), mean, count over threshold"
run dirs --depth 1 --format=json "$T/dirs.jsonl"
check "dirs --depth 1 --format=json" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [x["directory"] for x in d] == ["fs", "lib"]' "$T/out"

# ---- macros ----
run macros "$FIX/base.jsonl"
is "$(awk 'NR > 1 && !/^#/ { print $1, $2, $3, $4 }' "$T/out" | tr '\n' ';')" \
	"WARN_ON 9 3 4;min 7 2 6;" "macros: decisions, functions, max per function (header inline once)"
run macros --format=csv "$T/dirs.jsonl"
is "$rc" 2 "macros on records without a decomposition: tool error"

# ---- hist ----
run hist --svg "$T/h.svg" "$T/dirs.jsonl"
is "$(awk '{ print $1 "=" $2 }' "$T/out" | tr '\n' ' ')" "1=1 2=1 3-4=2 5-8=4 9-16=8 17-32=4 33-64=1 " \
	"hist: log2 buckets"
check "hist --svg: an SVG with one bar per bucket" python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); n=r.findall("{http://www.w3.org/2000/svg}rect"); assert r.tag.endswith("svg") and len(n) == 7' "$T/h.svg"

# ---- diff ----
run diff "$FIX/base.jsonl" "$FIX/new.jsonl"
is "$rc" 0 "diff without a gate: exit 0"
is "$(awk '$1 == "new" || $1 == "grown" { print $1, $NF }' "$T/out" | tr '\n' ';')" \
	"new new_big;grown probe;" "diff: the new function over the threshold and the grown one"
check "diff summary" grep -q '^# 1 new at or above 30, 1 grown, 0 shrunk, 3 removed' "$T/out"
run diff --threshold 31 "$FIX/base.jsonl" "$FIX/new.jsonl"; is "$rc" 1 "diff --threshold 31: breached"
run diff --threshold 34 "$FIX/base.jsonl" "$FIX/new.jsonl"; is "$rc" 0 "diff --threshold 34: fine"
run diff --format=sarif "$FIX/base.jsonl" "$FIX/new.jsonl"
check "diff --format=sarif: a rule per metric (complexity, growth)" python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]; assert [x["ruleIndex"] for x in r] == [0, 1] and r[1]["properties"]["baselineM"] == 25' "$T/out"
run diff "$FIX/base.jsonl"; is "$rc" 2 "diff with one input: tool error"

# ---- inputs: directories, stdin, text lines ----
mkdir -p "$T/dir/sub" && cp "$FIX/base.jsonl" "$T/dir/sub/a.jsonl" && echo junk > "$T/dir/ignored.txt"
run top "$T/dir"; is "$rc/$(grep -c . "$T/out")" "0/7" "a directory: every *.jsonl below it"
run top - < "$FIX/base.jsonl"; is "$(grep -c . "$T/out")" 7 "'-' reads stdin"
printf 'Cyclomatic Complexity 7 kernel/a.c:f\nCyclomatic Complexity 9 include/x.h:h\nCyclomatic Complexity 9 include/x.h:h\n' > "$T/text.txt"
run top "$T/text.txt"
is "$(col 7)" "h f " "2016 text lines are read too (header lines de-duplicated)"

# ---- bad input ----
run top -n 0 "$FIX/bad.jsonl"
is "$rc" 0 "bad lines are skipped, not fatal"
is "$(col 7)" "text_line good_one escé\"q " "the good records of a damaged report"
is "$(grep -c '^kplug-report: .*bad.jsonl:[0-9]*: bad record: ' "$T/err")" 10 "each bad line reported as FILE:LINE"
for l in "2: bad record: parts do not sum to M" "3: bad record: truncated string" "4: bad record: empty line" \
	"5: bad record: expected an integer, got a string" "7: bad record: garbage after the record" \
	"11: bad record: expected an integer" "12: bad record: no \"M\"" "13: bad record: truncated record"; do
	check "reported: line $l" grep -q "bad.jsonl:$l\$" "$T/err"
done
run top --strict "$FIX/bad.jsonl"; is "$rc" 2 "--strict: bad lines are a tool error"
run top "$FIX/base.jsonl" "$T/missing.jsonl"
is "$rc/$(grep -c . "$T/out")" "2/7" "missing file: exit 2, the rest still processed"
check "  one line naming it" grep -q "^kplug-report: $T/missing.jsonl: No such file or directory\$" "$T/err"
: > "$T/empty.jsonl"
run top "$T/empty.jsonl"; is "$rc" 2 "empty input: tool error"
check "  reported" grep -q "^kplug-report: no records in $T/empty.jsonl" "$T/err"
head -c 300 "$FIX/base.jsonl" > "$T/torn.jsonl"
run top "$T/torn.jsonl"; is "$rc/$(grep -c 'torn.jsonl:2: bad record' "$T/err")" "0/1" "a torn last line"
for args in "bogus x" "top" "--format=xml top x" "--threshold=0 top x" "-n -1 top x" \
	"dirs --format=sarif x" "top --svg=f x"; do
	run $args
	is "$rc/$(wc -l < "$T/err")/$(grep -c '^kplug-report: ' "$T/err")" "2/1/1" "usage error '$args': one line, exit 2"
done

# Lines cross chunk boundaries everywhere with 7-byte chunks: same results.
gcc -O2 -DCHUNK=7 -U__SSE2__ -pthread -I"$TOP" -o "$T/tiny" "${REPORT_SRCS[@]}" -lm
cat "$FIX/base.jsonl" "$FIX/bad.jsonl" "$FIX/new.jsonl" > "$T/mixed.jsonl"
for cmd in top dirs macros hist; do
	"$R" $cmd -n 0 "$T/mixed.jsonl" > "$T/a.$cmd" 2>&1
	"$T/tiny" $cmd -n 0 "$T/mixed.jsonl" > "$T/b.$cmd" 2>&1
	same_nonempty "$T/a.$cmd" "$T/b.$cmd" \
		"$cmd: 7-byte read chunks (lines split across chunks), portable string scan: same output"
done

# ---- a report the plugin writes ----
rm -f "$T/plugin.jsonl"
for f in macros user2 sanitize; do
	kgcc -O2 -c "$FIX/$f.c" -o /dev/null -fplugin-arg-kplug-enable=cyc_complexity \
		-fplugin-arg-kplug-cyc_complexity-format=jsonl \
		-fplugin-arg-kplug-cyc_complexity-output="$T/plugin.jsonl"
done
run top -n 0 --root "$FIX" "$T/plugin.jsonl"
is "$rc/$(grep -c . "$T/out")" "0/11" "plugin report: 11 records, 10 functions after de-duplication"
check "clamp_hdr from two TUs once" grep -q '^ *3 *2 *0 *0 *0  report.h:13 *clamp_hdr \[header, 2 TUs\]$' "$T/out"
check "macro names shown" grep -q 'macro_only (macros: WARN_ONISH 1, PICK 1)$' "$T/out"
rm -rf "$T"
done_testing
