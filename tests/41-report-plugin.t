# cyc_complexity for build robots: format=jsonl and the decomposition of M,
# warn= diagnostics and their severity, exclude-instrumentation, -fcompare-debug.
# per-compiler
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/report
T=$(mktemp -d "$OUT/report-plugin.XXXXXX")
P=-fplugin-arg-kplug-cyc_complexity
cyc() { kgcc -c -o /dev/null -fplugin-arg-kplug-enable=cyc_complexity "$@"; }
# M per function from text lines on stdin: "fn M" sorted
text_m() { sed -n 's/^Cyclomatic Complexity \([0-9]*\) .*:\(.*\)$/\2 \1/p' | sort; }
# "fn M" sorted from JSON Lines on stdin
json_m() { python3 -c 'import json,sys; [print(json.loads(l)["function"], json.loads(l)["M"]) for l in sys.stdin]' | sort; }

# check_expect JSONL GCC-VERSION: the records of macros.c match macros.expect
check_expect() {
	python3 - "$1" "$FIX/macros.expect" "$2" <<'EOF'
import json, sys
recs = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    assert sum(r["parts"].values()) == r["M"], ("parts", r)
    assert sum(r["macros"].values()) == r["parts"]["macro"], ("macros", r)
    assert r["gcc"] == sys.argv[3] and r["opt"] == "O2" and r["tu"].endswith("macros.c")
    assert r["inline_header"] == r["file"].endswith("report.h")
    recs[r["function"]] = r
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    fn, m, own, macro, san, noret, macros = line.split()
    r = recs.pop(fn)
    p = r["parts"]
    got = (r["M"], p["own"], p["macro"], p["sanitizer"], p["noreturn"])
    want = tuple(map(int, (m, own, macro, san, noret)))
    assert got == want, (fn, got, want)
    want_macros = {} if macros == "-" else {k: int(v) for k, v in (x.split("=") for x in macros.split(","))}
    assert r["macros"] == want_macros, (fn, r["macros"], want_macros)
assert not recs, recs
print("ok")
EOF
}

# ---- JSON Lines records ----
check "format=jsonl compiles" cyc -O2 "$FIX/macros.c" $P-format=jsonl 2> "$T/macros.jsonl"
is "$(check_expect "$T/macros.jsonl" "$($KCC -dumpfullversion)" 2>&1)" ok \
	"records match macros.expect: own, macro (outermost macro names), noreturn"
for o in O0 O2 Os; do
	is "$(cyc -$o "$FIX/macros.c" $P-format=jsonl 2>&1 | json_m)" \
		"$(cyc -$o "$FIX/macros.c" 2>&1 | text_m)" "-$o: M of every record equals the text line's M"
done
is "$(cyc -Og "$FIX/user2.c" $P-format=jsonl 2>&1 | grep -c '"opt":"Og"')" 2 "-O level recorded (Og)"
cyc -O2 "$FIX/macros.c" $P-format=jsonl $P-min=4 2> "$T/min.jsonl"
is "$(json_m < "$T/min.jsonl" | tr '\n' ' ')" "macro_argument 4 own_only 4 with_noreturn 4 " "min= filters JSON records too"
cyc -O2 "$FIX/macros.c" $P-format=text 2> "$T/a"; cyc -O2 "$FIX/macros.c" 2> "$T/b"
same_nonempty "$T/a" "$T/b" "format=text is the default line"

# Parallel compiles append whole records to one file.
for i in $(seq 1 16); do cp "$FIX/macros.c" "$T/p$i.c"; echo "$T/p$i.c"; done |
	xargs -P 8 -I{} $KCC -fplugin="$KPLUG" -I"$FIX" -O2 -c {} -o /dev/null \
		-fplugin-arg-kplug-enable=cyc_complexity $P-format=jsonl $P-output="$T/par.jsonl"
is "$(wc -l < "$T/par.jsonl")" 96 "16 parallel compiles: 96 records"
check "every record parses" python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/par.jsonl"

# ---- exclude-instrumentation ----
for san in shift,integer-divide-by-zero undefined; do
	plain=$(cyc -O2 "$FIX/sanitize.c" 2>&1 | text_m)
	on=$(cyc -O2 "$FIX/sanitize.c" -fsanitize=$san $P-exclude-instrumentation=on 2>&1 | text_m)
	off=$(cyc -O2 "$FIX/sanitize.c" -fsanitize=$san 2>&1 | text_m)
	check "-fsanitize=$san changes M ($(echo $off | tr '\n' ' '))" test "$on" != "$off"
	is "$on" "$plain" "-fsanitize=$san with exclude-instrumentation=on: M of the uninstrumented build"
	cyc -O2 "$FIX/sanitize.c" -fsanitize=$san $P-format=jsonl 2> "$T/san.jsonl"
	check "  jsonl: sanitizer decisions counted where the checks are" python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    assert sum(r["parts"].values()) == r["M"]
    assert (r["parts"]["sanitizer"] > 0) == (r["function"] != "no_instrumentation"), r
' "$T/san.jsonl"
done
cyc -O2 "$FIX/sanitize.c" -fsanitize=shift $P-format=jsonl $P-exclude-instrumentation=on 2> "$T/ex.jsonl"
check "exclude-instrumentation=on: parts still sum to M, excluded_sanitizer says how many" python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert all(x["parts"]["sanitizer"] == 0 and sum(x["parts"].values()) == x["M"] for x in r)
assert [x["excluded_sanitizer"] for x in r] == [2, 1, 0], r
' "$T/ex.jsonl"

# On a GCC torture sample, excluding instrumentation gives the M of the
# uninstrumented build for (almost) every function: -fsanitize=undefined
# also changes how the front end folds a few expressions.
if quick; then
	skip "KPLUG_QUICK: torture sample skipped"
else
	tor=$(gcc_source)/gcc/testsuite/gcc.c-torture/execute
	# every other file with a shift, a division or a remainder (about 160)
	for f in $(cd "$tor" && grep -lE '<<|>>| / | % ' *.c | awk 'NR % 2 == 1'); do
		f=$tor/$f
		timeout 30 $KCC -fplugin="$KPLUG" -O2 -w -c "$f" -o /dev/null -fplugin-arg-kplug-enable=cyc_complexity \
			$P-format=jsonl $P-output="$T/tor-plain.jsonl" 2>/dev/null || continue
		timeout 30 $KCC -fplugin="$KPLUG" -O2 -w -c "$f" -o /dev/null -fplugin-arg-kplug-enable=cyc_complexity \
			-fsanitize=undefined $P-format=jsonl $P-exclude-instrumentation=on \
			$P-output="$T/tor-san.jsonl" 2>/dev/null
	done
	python3 - "$T/tor-plain.jsonl" "$T/tor-san.jsonl" > "$T/tor" <<'EOF'
import json, sys
def load(p):
    return {(r["tu"], r["function"], r["line"]): r for r in map(json.loads, open(p))}
a, b = load(sys.argv[1]), load(sys.argv[2])
inst = [k for k in b if b[k]["excluded_sanitizer"]]
same = [k for k in inst if k in a and a[k]["M"] == b[k]["M"]]
print(len(a), len(b), len(inst), len(same))
EOF
	read -r na nb ni ns < "$T/tor"
	diag "torture sample: $na functions, $ni instrumented, $ns of them with M equal to the uninstrumented build"
	ok $(( !(na == nb && ni > 30 && ns * 100 >= ni * 90) )) \
		"torture: $ns/$ni instrumented functions get the uninstrumented M (>= 90%)"
fi

# ---- warn= and severity= ----
check "warn=4 (severity note) with -Werror: compiles" cyc -O2 "$FIX/macros.c" $P-warn=4 -Werror 2> "$T/warn"
is "$(grep -c 'note: kplug: function .* has cyclomatic complexity' "$T/warn")" 3 "three notes (M >= 4)"
check "note at the function's location" grep -q "macros.c:4:5: note: kplug: function .own_only. has cyclomatic complexity 4 (>= 4)" "$T/warn"
check_exit 1 "warn= without output=: no report spam on stderr" grep -q '^Cyclomatic Complexity' "$T/warn"
cyc -O2 "$FIX/macros.c" $P-warn=4 $P-format=jsonl $P-output="$T/w.jsonl" 2> /dev/null
is "$(wc -l < "$T/w.jsonl")" 6 "warn= with output=: the report is still written"
check "severity=warning without -Werror: compiles" cyc -O2 "$FIX/macros.c" $P-warn=4 $P-severity=warning 2> "$T/warn"
is "$(grep -c 'warning: kplug: function' "$T/warn")" 3 "  three warnings"
check_exit 1 "severity=warning with -Werror: fails" cyc -O2 "$FIX/macros.c" $P-warn=4 $P-severity=warning -Werror 2> /dev/null
check_exit 1 "severity=error: fails" cyc -O2 "$FIX/macros.c" $P-warn=4 $P-severity=error 2> "$T/warn"
is "$(grep -c 'error: kplug: function' "$T/warn")" 3 "  three errors"
is "$(cyc -O2 "$FIX/macros.c" $P-warn=5 2>&1)" "" "warn=5: nothing above, silent"

# ---- -fcompare-debug: the second compilation reports nothing ----
check "-fcompare-debug compiles" cyc -O2 "$FIX/macros.c" -fcompare-debug 2> "$T/cd.err"
is "$(text_m < "$T/cd.err")" "$(cyc -O2 "$FIX/macros.c" 2>&1 | text_m)" \
	"-fcompare-debug: each function once in the stderr report"
cyc -O2 "$FIX/macros.c" -fcompare-debug $P-format=jsonl $P-output="$T/cd.jsonl" 2> "$T/cd.err"
is "$(json_m < "$T/cd.jsonl")" "$(cyc -O2 "$FIX/macros.c" 2>&1 | text_m)" \
	"-fcompare-debug: each record once in the output= file"
is "$(cat "$T/cd.err")" "" "  and nothing on stderr"
# (GCC itself inhibits notes and warnings in the second run; these guard
# against any other channel.)
cyc -O2 "$FIX/macros.c" -fcompare-debug $P-warn=4 2> "$T/cd.err"
is "$(grep -c 'note: kplug: function' "$T/cd.err")" 3 "-fcompare-debug: each warn= note once"
cyc -O2 "$FIX/macros.c" -fcompare-debug $P-warn=4 $P-severity=warning 2> "$T/cd.err"
is "$(grep -c 'warning: kplug: function' "$T/cd.err")" 3 "-fcompare-debug: each warn= warning once"

# ---- bad option values: one "kplug: ..." line, non-zero exit ----
for bad in format=xml severity=fatal warn=-1 warn=abc exclude-instrumentation=maybe; do
	out=$(cyc -O2 "$FIX/user2.c" $P-$bad 2>&1); rc=$?
	ok $(( !(rc != 0 && $(echo "$out" | wc -l) == 1) )) "bad $bad: fails with one line"
	check "  the line names the option: $out" grep -q "kplug: .*${bad%%=*}" <<<"$out"
done

# ---- limit-PASS-KEY applies to a pass that ends up enabled ----
L=-fplugin-arg-kplug-limit-cyc_complexity-format=jsonl
out=$(kgcc -c -o /dev/null "$FIX/user2.c" $L 2>&1); rc=$?
is "$rc:$out" "0:" "a limit alone, no pass enabled: the compile succeeds, silently"
out=$(kgcc -c -o /dev/null "$FIX/user2.c" -fplugin-arg-kplug-enable=cyc_complexity \
	-fplugin-arg-kplug-disable=cyc_complexity $L 2>&1); rc=$?
is "$rc:$out" "0:" "a limit on a pass enabled, then disabled: the compile succeeds"
out=$(cyc -O2 "$FIX/user2.c" $L 2>&1); rc=$?
ok $(( !(rc != 0 && $(echo "$out" | wc -l) == 1) )) "a limit on the enabled pass, default outside it: fails with one line"
check "  the line names the value: $out" grep -q "kplug: default: 'text' for 'cyc_complexity-format' is not allowed" <<<"$out"
out=$(cyc -O2 "$FIX/user2.c" $L $P-format=jsonl $P-output="$T/limit.jsonl" 2>&1); rc=$?
is "$rc:$out" "0:" "a limit on the enabled pass, value inside it: the compile succeeds"
# ---- a source named caf\xe9.c: the JSON Lines are UTF-8 ----
cp "$FIX/user2.c" "$T/$(printf 'caf\xe9.c')"
cyc -O2 -I"$FIX" "$T/$(printf 'caf\xe9.c')" $P-format=jsonl $P-output="$T/latin1.jsonl"
# utf8_jsonl_nonempty FILE: FILE has lines, each strict UTF-8 JSON
utf8_jsonl_nonempty() {
	python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1], "rb").read().decode("utf-8", "strict").splitlines()]' \
		"$1" 2>/dev/null && [ -s "$1" ]
}
check "a source named caf\\xe9.c: the JSON Lines are valid UTF-8 JSON" utf8_jsonl_nonempty "$T/latin1.jsonl"
rm -rf "$T"
done_testing
