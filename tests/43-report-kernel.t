# Complexity reporting on a real kernel: a Linux 6.1 x86_64 tinyconfig built
# with make -j2 into ONE JSON Lines report, then kplug-report on it.
#
# Integrity of the parallel report: nothing is lost or torn when the -j2
# report has exactly the multiset of (file, function, M) of a reference text
# report of the same tree and config, and every line of it parses.  The
# reference is the one 40-kernel-cyc.t verified against the 2016 plugin;
# run alone, this test makes its own with a serial (-j1) text-format build.
. "$(dirname "$0")/lib.sh"
if quick; then plan 1; skip "KPLUG_QUICK: kernel build skipped"; exit 0; fi
src=$(kernel_tree 6.1) || { plan 1; echo "not ok 1 - extract linux-source-6.1"; exit 1; }
T=$OUT/report-kernel
R=$TOP/tools/kplug-report
rm -rf "$T" && mkdir -p "$T"
[ -x "$R" ] || make -s -C "$TOP" tools/kplug-report
# private copies: a rebuild of kplug.so during the run changes nothing, and
# the edited kernel file must not touch the shared source cache
cp "$KPLUG" "$T/kplug.so" && cp -al "$src" "$T/src"
ok $? "private plugin and hard-linked source tree"

kflags() {	# kflags FORMAT OUTPUT
	echo "-fplugin=$T/kplug.so -fplugin-arg-kplug-enable=cyc_complexity" \
		"-fplugin-arg-kplug-cyc_complexity-format=$1" \
		"-fplugin-arg-kplug-cyc_complexity-output=$2"
}
kmake() { nice -n 10 make -s -C "$T/src" O="$T/obj" ARCH=x86_64 "$@"; }

kmake tinyconfig >/dev/null 2>&1
ok $? "6.1 x86_64 tinyconfig"
start=$(date +%s)
kmake -j2 KCFLAGS="$(kflags jsonl "$T/report.jsonl")" >"$T/build1.log" 2>&1
ok $? "make -j2 with format=jsonl into one report ($(( $(date +%s) - start )) s)"
# The reference: the text report of 40-kernel-cyc.t, which that test found
# equal line for line to the 2016 plugin's, for this same tree and config;
# without it (test run alone), a serial text-format build of our own.
ref=$OUT/kernel-cyc-6.1
if [ -s "$ref/verified-src-root" ] && [ -s "$ref/kplug.txt" ]; then
	sed -e "s#^\(Cyclomatic Complexity [0-9]* \)$(cat "$ref/verified-src-root")/#\1$T/src/#" \
		-e "s#^\(Cyclomatic Complexity [0-9]* \)$ref/obj/#\1$T/obj/#" \
		"$ref/kplug.txt" > "$T/report.txt"
	ok $? "reference: the text report verified by 40-kernel-cyc.t"
else
	start=$(date +%s)
	kmake -j1 KCFLAGS="$(kflags text "$T/report.txt")" >"$T/build2.log" 2>&1
	ok $? "reference: a second run, -j1, text format ($(( $(date +%s) - start )) s)"
fi

# Every line parses, has the fields, and its parts sum to M.
python3 - "$T/report.jsonl" "$T/report.txt" > "$T/check.out" 2>&1 <<'EOF'
import collections, json, sys
bad = 0
recs = collections.Counter()
need = {"file", "line", "function", "M", "parts", "macros", "inline_header", "tu", "run", "gcc", "opt"}
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    try:
        r = json.loads(line)
        assert line.endswith("\n") and need <= set(r), "fields"
        assert sum(r["parts"].values()) == r["M"], "parts"
        assert sum(r["macros"].values()) == r["parts"]["macro"], "macros"
        recs[(r["file"], r["function"], r["M"])] += 1
    except Exception as e:
        bad += 1
        print("bad line %d: %s" % (n, e))
text = collections.Counter()
for line in open(sys.argv[2], encoding="utf-8"):
    _, _, m, loc = line.rstrip("\n").split(" ", 3)
    f, fn = loc.rsplit(":", 1)
    text[(f, fn, int(m))] += 1
print("records", sum(recs.values()), "bad", bad, "text", sum(text.values()),
      "missing", sum((text - recs).values()), "extra", sum((recs - text).values()))
EOF
read -r _ nrec _ nbad _ ntext _ nmiss _ nextra < <(tail -1 "$T/check.out")
diag "$(tail -1 "$T/check.out")"
ok $((nrec < 10000)) "the -j2 report has $nrec records"
is "$nbad" 0 "every line of the -j2 report parses, with parts summing to M"
is "$nrec" "$ntext" "records equal the text lines of the reference run"
is "$nmiss/$nextra" "0/0" "same (file, function, M) multiset as the reference run"
is "$(grep -c '"inline_header":true' "$T/report.jsonl" | awk '{print ($1 > 0)}')" 1 \
	"header inlines are flagged"

# kplug-report on the real report
"$R" top -n 10 "$T/report.jsonl" > "$T/top10" 2>"$T/top10.err"
ok $? "kplug-report top -n 10"
is "$(wc -l < "$T/top10")" 11 "top-10: a header and ten rows"
diag "$(cat "$T/top10")" "$(cat "$T/top10.err")"
nfun=$(sed -n 's/.* \([0-9]*\) functions after de-duplication.*/\1/p' "$T/top10.err")
ok $((nfun >= nrec || nfun == 0)) "de-duplication: $nfun functions from $nrec records"
"$R" sarif --threshold 20 --root "$T/src" "$T/report.jsonl" > "$T/report.sarif" 2>/dev/null
is $? 1 "sarif --threshold 20: gate breached (exit 1)"
python3 - "$T/report.sarif" > "$T/sarif.out" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0" and d["$schema"].endswith("/sarif-schema-2.1.0.json")
run, = d["runs"]
drv = run["tool"]["driver"]
assert drv["name"] and drv["version"]
ids = [r["id"] for r in drv["rules"]]
assert len(ids) == len(set(ids)) and all(r["shortDescription"]["text"] for r in drv["rules"])
fps = set()
for res in run["results"]:
    assert res["ruleId"] in ids and ids[res["ruleIndex"]] == res["ruleId"]
    assert res["level"] in ("none", "note", "warning", "error") and res["message"]["text"]
    loc, = res["locations"]
    pl = loc["physicalLocation"]
    assert pl["artifactLocation"]["uri"] and not pl["artifactLocation"]["uri"].startswith("/")
    assert pl["region"]["startLine"] >= 1
    assert loc["logicalLocations"][0]["kind"] == "function"
    fp = res["partialFingerprints"]["kplugFunction/v1"]
    assert len(fp) == 16
    fps.add(fp)
    assert res["properties"]["M"] >= 20
print("results", len(run["results"]), "fingerprints", len(fps))
EOF
ok $? "SARIF 2.1.0: required properties, rules, locations, fingerprints"
diag "$(tail -3 "$T/sarif.out")"

# Baseline diff after changing one kernel function: lib/cmdline.c's
# get_option() gains two decisions; a comment shifts every line of the file.
f=$T/src/lib/cmdline.c
sed -i -e '1i /* kplug-report test: every line moves down */' \
	-e "s/^\tif (\*\*str == '-')$/\tif (**str == ';')\n\t\treturn 4;\n\tif (**str == ':')\n\t\treturn 5;\n&/" "$f"
ok $(( $(stat -c %i "$f") == $(stat -c %i "$src/lib/cmdline.c") )) "the edit left the shared source alone"
kmake KCFLAGS="$(kflags jsonl "$T/rebuild.jsonl")" lib/cmdline.o >"$T/build3.log" 2>&1
ok $? "rebuild lib/cmdline.o only"
# (kbuild's prepare step may recompile bounds.c and asm-offsets.c too)
tu="\"tu\":\"($T/src/)?lib/cmdline.c\""	# not arch/x86/lib/cmdline.c
is "$(grep -Ec "$tu" "$T/rebuild.jsonl")" "$(grep -Ec "$tu" "$T/report.jsonl")" \
	"the rebuild reported as many functions for lib/cmdline.c"
cat "$T/report.jsonl" "$T/rebuild.jsonl" > "$T/new.jsonl"
"$R" diff "$T/report.jsonl" "$T/new.jsonl" > "$T/diff" 2>&1
ok $? "diff BASE NEW without a gate: exit 0"
diag "$(cat "$T/diff")"
is "$(grep -c '^grown' "$T/diff")" 1 "one grown function"
is "$(awk '$1 == "grown" { print $NF, $4 }' "$T/diff")" "get_option +2" "get_option grew by 2"
is "$(grep -c '^new' "$T/diff")" 0 "no new function"
newm=$(awk '$1 == "grown" { print $3 }' "$T/diff")
"$R" diff --threshold "$newm" "$T/report.jsonl" "$T/new.jsonl" >/dev/null 2>&1
is $? 1 "diff --threshold $newm: gate breached"
"$R" diff --threshold 1000 "$T/report.jsonl" "$T/new.jsonl" >/dev/null 2>&1
is $? 0 "diff --threshold 1000: fine"
fp() { "$R" top -n 0 --format=sarif --threshold 1 --root "$T/src" "$1" 2>/dev/null |
	python3 -c 'import json,sys; [print(r["partialFingerprints"]["kplugFunction/v1"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in json.load(sys.stdin)["runs"][0]["results"] if r["locations"][0]["logicalLocations"][0]["name"] == "get_option"]'; }
read -r fp1 l1 < <(fp "$T/report.jsonl")
read -r fp2 l2 < <(fp "$T/new.jsonl")
ok $(( l2 != l1 + 1 )) "get_option moved from line $l1 to $l2"
ok $([ -n "$fp1" ] && [ "$fp2" = "$fp1" ]; echo $?) "its SARIF fingerprint did not change ($fp1)"
rm -rf "$T/obj" "$T/src"
done_testing
