# SPDX-License-Identifier: GPL-2.0
# check_plugin_link NAME SO REBUILD [CC [OTHER]]: the assertions on how a
# kplug.so built for CC (default gcc) is linked, shared by 21-link.t (the
# standalone build, on every compiler) and 53-kernel-profiles.t (the
# kernel-built one).  They read the ELF file themselves rather than
# trusting kplug-link.sh's own checks.  OTHER (default gcc-11) is another
# GCC where CC lives; SO loaded into it must fail with kplug's one line,
# ending with REBUILD.

# no_libstdcxx_needed SO: SO is an ELF object that needs no libstdc++
no_libstdcxx_needed() {
	local dyn
	dyn=$(readelf -d "$1") && ! grep -q 'NEEDED.*libstdc++' <<<"$dyn"
}
# names_both_gccs ERR CC-VERSION OTHER-VERSION REBUILD: ERR is kplug's
# wrong-GCC line for a plugin built for CC-VERSION loaded into
# OTHER-VERSION, ending with REBUILD
names_both_gccs() {
	[[ $1 == "cc1: error: kplug: kplug.so was built for GCC $2 ("*") but loaded into GCC $3 ("*"); rebuild it for this compiler: $4" ]]
}

check_plugin_link() {
	local name=$1 so=$2 rebuild=$3 cc=${4:-gcc} other=${5:-gcc-11} cc1 strong weak err t

	check "$name: $so is an ELF shared object" readelf -d "$so" >/dev/null 2>&1
	check "$name: no libstdc++ among its NEEDED libraries" no_libstdcxx_needed "$so"
	is "$(nm -D --defined-only "$so" | awk '{ print $3 }' | sort | tr '\n' ' ')" \
		"plugin_init plugin_is_GPL_compatible " \
		"$name: exports only plugin_init and plugin_is_GPL_compatible"
	# GCC's symbols: unversioned undefined ones (libc's carry @GLIBC_).
	strong=$(nm -D "$so" | awk '$1 == "U" && $2 !~ /@/ { print $2 }' | sort | tr '\n' ' ')
	weak=$(nm -D "$so" | awk '$1 == "w" && $2 !~ /@|^_ITM_|^__gmon_start__$/ { print $2 }' | wc -l)
	is "$strong" "_Z5errorPKcz plugin_default_version_check " \
		"$name: strong GCC references: only error() and plugin_default_version_check() (the version check)"
	ok $((weak > 50 ? 0 : 1)) "$name: the other $weak GCC symbols are weak references"
	cc1=$($cc -print-prog-name=cc1)
	is "$(nm -D "$so" | awk '$1 ~ /^[Uw]$/ && $2 !~ /@|^_ITM_|^__gmon_start__$/ { print $2 }' |
		sort -u | comm -23 - <(nm -D --defined-only "$cc1" | awk '{ print $3 }' | sort -u) | head -3)" "" \
		"$name: $cc's cc1 exports every GCC symbol it uses"
	t=$(mktemp -d)
	echo 'int f(int a) { return a > 2 ? a : -a; }' >"$t/t.c"
	check "$name: loads into $cc and compiles with sancov" \
		$cc -O2 -fplugin="$so" -fplugin-arg-kplug-enable=sancov -c "$t/t.c" -o "$t/t.o" 2>"$t/err"
	ok $(($(objdump -dr "$t/t.o" | grep -c '__sanitizer_cov_trace_pc') > 0 ? 0 : 1)) \
		"$name: ... and instruments"
	if command -v "$other" >/dev/null; then
		check_exit 1 "$name: loaded into $other, the compile fails" \
			$other -fplugin="$so" -c "$t/t.c" -o "$t/t11.o" 2>"$t/err"
		err=$(cat "$t/err")
		is "$(wc -l <"$t/err")" 1 "$name: ... with one line"
		check "$name: ... naming both GCCs and '$rebuild'" names_both_gccs "$err" \
			"$($cc -dumpfullversion)" "$($other -dumpfullversion)" "$rebuild" ||
			diag "got: $err"
	else
		skip "$other not installed: no wrong-GCC check"
	fi
	rm -rf "$t"
}
