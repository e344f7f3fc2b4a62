#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug under ccache, one object at a time, with a private cache: a hit
# gives the object the compile would give, the embedded cyc_complexity
# records come back with it, and a changed kplug.so or a changed profile
# embedded in it misses the cache.  What ccache cannot see (a profile
# named by -fplugin-arg-kplug-config and edited in place) is shown as a
# diag: that is why kbuild embeds the profile.
. "$(dirname "$0")/lib.sh"

if ! command -v ccache >/dev/null; then
	skip "ccache not installed"
	done_testing
fi
T=$(mktemp -d "$OUT/ccache.XXXXXX")
trap 'rm -rf "$T"' EXIT
export CCACHE_DIR=$T/cache
unset CCACHE_DISABLE CCACHE_RECACHE CCACHE_NODIRECT CCACHE_PREFIX CCACHE_COMPILERCHECK
mkdir -p "$T/src/drivers/net" "$T/a" "$T/b"
cp "$TOP/tests/fixtures/branchy.c" "$T/src/drivers/net/x.c"
printf '[kplug]\nenable = sancov, cyc_complexity\n[cyc_complexity]\nembed = on\n[path:drivers/net/*]\ndisable = sancov\n' >"$T/a.ini"
printf '[kplug]\nenable = sancov, cyc_complexity\n[cyc_complexity]\nembed = on\n' >"$T/b.ini"
cd "$T/src" || exit 1

calls() { objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__sanitizer_cov_trace_pc-'; }
stat_of() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
hits() { echo $(($(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit))); }
embed() { make -s -C "$TOP" PROFILE="$1" KPLUG_SO="$2" plugin >"$T/make.log" 2>&1; }
cc() { ccache gcc -O2 -fplugin="$T/kplug/kplug.so" "$@" -c drivers/net/x.c -o "$T/x.o"; }

mkdir -p "$T/kplug"
# embeds_both: a.ini embedded into a/kplug.so and b.ini into b/kplug.so
embeds_both() { embed "$T/a.ini" "$T/a/kplug.so" && embed "$T/b.ini" "$T/b/kplug.so"; }
check "two kplug.so: a.ini ([path:drivers/net/*] disable = sancov) and b.ini embedded" embeds_both
cp -p "$T/a/kplug.so" "$T/kplug/kplug.so"

cc && cp "$T/x.o" "$T/x1.o"
is "$(hits)/$(stat_of cache_miss)" "0/1" "first compile: a miss"
cc
is "$(hits)/$(stat_of cache_miss)" "1/1" "the same compile again: a hit"
check "... the same object" cmp -s "$T/x.o" "$T/x1.o"
is "$(calls "$T/x.o")" 0 "... a.ini's [path:drivers/net/*] applied (no trace_pc call)"
is "$(kplug_collect "$T/x.o" | grep -c '"function":"f"')" 1 \
	"... the embedded cyc_complexity record came back with the hit"

# Another kplug.so at the same path (the profile changed, the kernel
# relinked it): a miss, and the new profile's object.
cp "$T/b/kplug.so" "$T/kplug/kplug.so"
cc
is "$(hits)/$(stat_of cache_miss)" "1/2" "kplug.so with another embedded profile: a miss"
ok $(($(calls "$T/x.o") > 0 ? 0 : 1)) "... and b.ini's object ($(calls "$T/x.o") trace_pc calls)"

# Same bytes, same size and mtime as a kplug.so cached before, but another
# profile: with the default compiler_check=mtime ccache keys a plugin by
# size and mtime only; compiler_check=content sees the difference.
touch -r "$T/a/kplug.so" "$T/kplug/kplug.so"
cc
diag "b.ini's plugin with a.ini's mtime (sizes $(stat -c %s "$T/a/kplug.so") and $(stat -c %s "$T/b/kplug.so")), compiler_check=mtime: hits $(hits), misses $(stat_of cache_miss), $(calls "$T/x.o") trace_pc calls"
CCACHE_COMPILERCHECK=content cc
cp "$T/x.o" "$T/content-b.o"
ok $(($(calls "$T/content-b.o") > 0 ? 0 : 1)) "compiler_check=content: b.ini's object ($(calls "$T/content-b.o") calls)"

# A profile named by config= and edited in place: ccache cannot know the
# file, the next compile is a hit with the old profile's object.
plain=$KPLUG
cp "$T/a.ini" "$T/p.ini"
ccache gcc -O2 -fplugin="$plain" -fplugin-arg-kplug-config="$T/p.ini" -c drivers/net/x.c -o "$T/p.o"
cp "$T/b.ini" "$T/p.ini"
before=$(hits)
ccache gcc -O2 -fplugin="$plain" -fplugin-arg-kplug-config="$T/p.ini" -c drivers/net/x.c -o "$T/p.o"
diag "config=FILE edited in place: $(($(hits) - before)) hit(s), $(calls "$T/p.o") trace_pc calls (b.ini wants them): ccache does not see the file"

# cyc_complexity-output=FILE and a hit: the hit writes nothing.
rm -f "$T/out.txt"
for i in 1 2; do
	ccache gcc -O2 -fplugin="$plain" -fplugin-arg-kplug-enable=cyc_complexity \
		-fplugin-arg-kplug-cyc_complexity-output="$T/out.txt" -c drivers/net/x.c -o "$T/o.o"
done
diag "output=FILE, the same compile twice: $(wc -l <"$T/out.txt") record line(s) in FILE (embed=on keeps them in the object)"
done_testing
