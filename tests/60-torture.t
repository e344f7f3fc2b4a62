#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A seeded sample of GCC's C torture suite through tests/torture.sh, with
# every kplug pass enabled, on GCC 12 and GCC 11, and smaller samples on
# GCC 13 to 16 in their chroots (make torture runs more on 11 and 12).
# First checks that the script's verdicts can fail, with a fake compiler.
# long
. "$(dirname "$0")/lib.sh"

# ---- the classifier, against a fake compiler ----
d=$OUT/torture-selftest
rm -rf "$d"
mkdir -p "$d"
cat >"$d/fakecc" <<'EOF'
#!/bin/bash
f=${!#}
case " $* " in *" -fplugin="*) plug=1 ;; *) plug=0 ;; esac
case $(basename "$f") in
ice.c)	[ $plug = 0 ] || { echo "$f:1:1: internal compiler error: in foo, at bar.cc:1" >&2; exit 4; } ;;
sig.c)	[ $plug = 0 ] || kill -SEGV $$ ;;
plugins.c) [ $plug = 0 ] || { echo "Please submit a full bug report, there are active plugins, do not report this as a bug" >&2; exit 1; } ;;
cmp.c)	[ $plug = 0 ] || { echo "gcc: error: $f: -fcompare-debug failure" >&2; exit 1; } ;;
ncmp.c)	echo "gcc: error: $f: -fcompare-debug failure (length)" >&2; exit 1 ;;
only.c)	[ $plug = 0 ] || { echo "cc1: error: kplug: boom" >&2; exit 1; } ;;
both.c)	echo "$f:1:1: error: nope" >&2; exit 1 ;;
slow.c)	[ $plug = 0 ] || sleep 5 ;;
slower.c) sleep 5 ;;
edge.c)	[ $plug = 0 ] && sleep 0.6 || sleep 5 ;;
half.c)	[ $plug = 0 ] && sleep 1.3 || sleep 5 ;;
gccbug.c) echo "$f:1:1: internal compiler error: in fold_convert_loc" >&2; exit 1 ;;
esac
exit 0
EOF
chmod +x "$d/fakecc"
touch "$d/plugin.so"
got=$(bash "$TOP/tests/torture.sh" --worker "$d/fakecc" "$d/plugin.so" 2 "" \
	0:"$d/fine.c" 1:"$d/ice.c" 2:"$d/sig.c" s:"$d/plugins.c" g:"$d/cmp.c" \
	g:"$d/ncmp.c" 3:"$d/only.c" 0:"$d/both.c" 1:"$d/slow.c" 2:"$d/slower.c" 3:"$d/gccbug.c" \
	s:"$d/edge.c" g:"$d/half.c" | cut -d' ' -f1-2 | tr '\n' ' ')
is "$got" "OK 0 ICE 1 ICE 2 ICE s CMPDBG g NATIVE-CMPDBG g FAIL 3 NATIVE-FAIL 0 FAIL 1 SLOW 2 NATIVE-ICE 3 FAIL s SLOW g " \
	"torture verdicts: ICE (message, exit 4, signal, active plugins), compare-debug, kplug-only, native, timeout, slow or ICE natively too, a timeout against a native 0.6 s or 1.3 s (budget 2 s)"

msg=$(bash "$TOP/tests/torture.sh" --timeout 1.5 2>&1)
is "$?:$msg" "2:torture: --timeout '1.5': a whole number of seconds, at least 1" \
	"torture.sh --timeout 1.5: exit 2, the value named"

# ---- the real thing ----
run_sample() {	# NAME CC PLUGIN SAMPLE [SUITE: run in that chroot]
	local log=$OUT/torture-$1.log start secs in=()
	[ -z "${5:-}" ] || in=("$TOP/tools/toolchain-chroot" run "$5")
	start=$(date +%s)
	check "$1: torture sample of $4 files per level, zero ICE, zero compare-debug and kplug-only failures" "${in[@]}" bash "$TOP/tests/torture.sh" --cc "$2" --plugin "$3" --sample "$4" --seed 1 >"$log" 2>&1
	secs=$(($(date +%s) - start))
	diag "$1 (${secs}s): $(tail -1 "$log")"
	grep -E '^torture: (ICE|CMPDBG|FAIL) |cannot|refuses' "$log" | head -10 | while read -r l; do diag "$l"; done
}

if quick; then
	skip "torture sample on GCC 12 (KPLUG_QUICK)"
	skip "torture sample on GCC 11 (KPLUG_QUICK)"
	done_testing
fi

run_sample gcc-12 "${KPLUG_TEST_CC:-gcc}" "$KPLUG" "${KPLUG_TORTURE_SAMPLE:-120}"

if command -v gcc-11 >/dev/null &&
   [ -f "$(gcc-11 -print-file-name=plugin)/include/plugin-version.h" ]; then
	# a private output: nobody else relinks it while the sample runs
	check "kplug.so builds for GCC 11 (make CC=gcc-11 KPLUG_SO=...)" make -s -C "$TOP" CC=gcc-11 KPLUG_SO="$OUT/gcc11/kplug.so" >"$OUT/torture-build-gcc11.log" 2>&1
	run_sample gcc-11 gcc-11 "$OUT/gcc11/kplug.so" "${KPLUG_TORTURE_SAMPLE11:-60}"
else
	skip "GCC 11 with plugin headers not installed (apt-get install gcc-11-plugin-dev)"
fi

# GCC 13 to 16 in their chroots (tools/toolchain-chroot), smaller samples.
# GCC 14 made implicit declarations errors: files that fail without kplug
# too are native failures, never counted against kplug.
# chroot_plugin CC SUITE: so is the kplug.so built for CC in SUITE's chroot
chroot_plugin() {
	so=$("$TOP/tools/toolchain-chroot" run "$2" bash -c \
		". '$TOP/tests/lib.sh' && kplug_so_for $1" 2>"$OUT/torture-build-$1.log")
}
for cc in gcc-13 gcc-14 gcc-15 gcc-16; do
	suite=$("$TOP/tools/toolchain-chroot" suite "$cc")
	check "kplug.so builds for $cc in the $suite chroot" chroot_plugin "$cc" "$suite"
	run_sample "$cc" "$cc" "$so" "${KPLUG_TORTURE_SAMPLE_NEW:-30}" "$suite"
done
done_testing
