#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages (make man: man/*.pod and man/mkman.pl) say what the
# programs say: kplug(7) lists every option of -fplugin-arg-kplug-help
# with its default, and the README's option tables list the same options;
# kplug-report(1) and kplug-kbuild(1) have the commands and options of
# their --help.  groff renders them without a warning.  Bad input to the
# generator is one line.
. "$(dirname "$0")/lib.sh"
W=$(mktemp -d "$OUT/man.XXXXXX")
M=$TOP/build/man
NL=$'\n'

check "make man" make -s -C "$TOP" man >"$W/make.log" 2>&1 || diag "$(cat "$W/make.log")"

# -fplugin-arg-kplug-help: the options on stdout, and the compile goes on.
# plugin_help: the compile with -fplugin-arg-kplug-help succeeds, silent on
# stderr, its help (kept in help) beginning "kplug VERSION: "
plugin_help() {
	help=$(kgcc -fplugin-arg-kplug-help -x c -c /dev/null -o /dev/null 2>"$W/help.err") &&
		[ ! -s "$W/help.err" ] && grep -q '^kplug [0-9.]*: ' <<<"$help"
}
check "-fplugin-arg-kplug-help prints the options on stdout, compile succeeds" plugin_help
is "$(kgcc -fplugin-arg-kplug-help=yes -x c -c /dev/null -o /dev/null 2>&1)" \
	"cc1: error: kplug: -fplugin-arg-kplug-help=yes: help takes no value" "help=VALUE: one error line"
is "$(kgcc -v --help 2>&1 | sed -n '/^Help for the loaded plugins:/,/^ *$/p' |
	sed -n 's/^    //p' | sed '/^ *$/d')" "$help" "gcc -v --help shows the same text"

# Option sets, one per line, sorted.
help_pass_opts() { sed -n 's/^    \([a-z_-]*\) (default .*/\1/p' | sort -u; }
help_general() {	# the options the first help line names
	head -n 1 | sed 's/^kplug [^:]*: //' | grep -o '\(^\|[ ]\)-\(fplugin-arg-kplug-\)\?[A-Za-z][A-Za-z_-]*' |
		sed 's/^ *-\(fplugin-arg-kplug-\)\?//' | sort -u
}
man_opts() {	# the options of the =item lines
	LC_ALL=C.UTF-8 MANWIDTH=300 man -l "$1" 2>/dev/null |
		sed -n 's/^       -fplugin-arg-kplug-\([A-Za-z_-]*[A-Za-z]\).*/\1/p' | sort -u
}
readme_opts() {	# the first cells of the tables of "## Options"
	sed -n '/^## Options/,/^## ini profiles/p' "$1" | grep '^| `' | cut -d'|' -f2 |
		grep -o '`[A-Za-z_-]*' | tr -d '`' | grep . | sort -u
}
pass_opts=$(help_pass_opts <<<"$help")
general=$(help_general <<<"$help")
# enough_options: at least 15 pass options and 9 general ones
enough_options() { [ "$(wc -l <<<"$pass_opts")" -ge 15 ] && [ "$(wc -l <<<"$general")" -ge 9 ]; }
check "help: $(wc -l <<<"$pass_opts") pass options, $(wc -l <<<"$general") general options" enough_options
is "$(man_opts "$M/kplug.7")" "$(sort -u <<<"$pass_opts${NL}$general")" \
	"kplug(7) names exactly the options of -fplugin-arg-kplug-help"
# man_default OPT DEF: kplug(7) gives DEF as OPT's default
man_default() {
	LC_ALL=C.UTF-8 MANWIDTH=300 man -l "$M/kplug.7" 2>/dev/null | grep -A1 -- "-fplugin-arg-kplug-$1=VALUE\$" |
		grep -q "Default: $2\."
}
for o in $pass_opts; do
	def=$(sed -n "s/^    $o (default \(.*\)): .*/\1/p" <<<"$help")
	[ "$def" = unset ] && def=none
	check "kplug(7): $o, default $def" man_default "$o" "$def"
done
# The README's tables: every pass option, and the general ones but the
# hard gates and defaults, which its precedence paragraph describes.
readme_cmp() {	# README -> the difference, empty when it matches
	diff <(readme_opts "$1") <(sort -u <<<"$pass_opts${NL}$(grep -v -e '^default-' \
		-e '^forbid$' -e '^permit$' -e '^limit-' <<<"$general")")
}
is "$(readme_cmp "$TOP/README.md")" "" "README's option tables: the options of -fplugin-arg-kplug-help"
for g in default- forbid= permit= limit-; do
	check "README describes $g" grep -q -- "$g" "$TOP/README.md"
done
grep -v '`sancov-float=on`' "$TOP/README.md" >"$W/README.md"
# misses_float README: readme_cmp finds README without the sancov-float row
misses_float() { readme_cmp "$1" | grep -qx '> sancov-float'; }
check "self-check: a README without the sancov-float row is caught" misses_float "$W/README.md"

# kplug-report(1) and kplug-kbuild(1) against --help.
words() { grep -o -- "$1" | sort -u; }
rhelp=$("$TOP/tools/kplug-report" --help)
rman=$(LC_ALL=C.UTF-8 MANWIDTH=300 man -l "$M/kplug-report.1" 2>/dev/null)
is "$(words '\-\-[a-z]*' <<<"$rman")" "$(words '\-\-[a-z]*' <<<"$rhelp")" "kplug-report(1): the long options of --help"
is "$(sed -n '/^COMMANDS/,/^OPTIONS/p' <<<"$rman" | sed -n 's/^       \([a-z]\+\)\( .*\)\?$/\1/p' | sort -u)" \
	"$(sed -n '/^INPUT/,/^options/s/^  \([a-z]*\) .*/\1/p' <<<"$rhelp" | sort -u)" "kplug-report(1): the commands of --help"
khelp=$("$TOP/kbuild/kplug-kbuild" --help)
kman=$(LC_ALL=C.UTF-8 MANWIDTH=300 man -l "$M/kplug-kbuild.1" 2>/dev/null)
is "$(sed -n '/^COMMANDS/,/^EXAMPLES/p' <<<"$kman" | sed -n 's/^       \([a-z-]\+\)\( .*\)\?$/\1/p' | sort -u)" \
	"$(sed -n 's/^kplug-kbuild \([a-z-]*\) .*/\1/p' <<<"$khelp" | sort -u)" "kplug-kbuild(1): the commands of --help"
for p in kplug.7 kplug-report.1 kplug-kbuild.1; do
	is "$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$M/$p" 2>&1 >/dev/null)" "" "$p: no groff warning"
done

# The generator: an undescribed general option, another program's help.
grep -v '^=item B<-fplugin-arg-kplug-forbid=' "$TOP/man/kplug.7.pod" >"$W/kplug.7.pod"
msg=$(perl "$TOP/man/mkman.pl" "$W/kplug.7.pod" "$M/kplug.7.help" 2>&1 >/dev/null)
is "$?:$msg" "1:mkman.pl: $W/kplug.7.pod: option 'forbid' from the plugin's help has no '=item B<-fplugin-arg-kplug-forbid>'" \
	"mkman.pl: a general option the page does not describe: one line, exit 1"
msg=$(perl "$TOP/man/mkman.pl" "$TOP/man/kplug.7.pod" "$M/kplug-report.1.help" 2>&1 >/dev/null)
is "$?:$msg" "1:mkman.pl: $M/kplug-report.1.help: first line is not 'kplug VERSION: ...' (is this kplug's help?)" \
	"mkman.pl: another program's help: one line, exit 1"
rm -rf "$W"
done_testing
