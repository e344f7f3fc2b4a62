#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# [path:] sections when the tree is reached through a symbolic link: the
# compiler's getcwd() is the physical directory while the root or the
# input may be spelled through the link (the README's "root = /src/linux"
# with /src/linux a link).  Each spelling must select the section.
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/real/drivers/net" "$t/real/lib"
ln -s real "$t/link"
printf 'int f(int a) { return a ? 1 : 2; }\n' >"$t/real/drivers/net/x.c"
cp "$t/real/drivers/net/x.c" "$t/real/lib/y.c"
prof() {	# prof ROOT: a profile with cyc_complexity on in drivers/ only
	printf '[kplug]\nroot = %s\n[path:drivers/*]\nenable = cyc_complexity\n' "$1" >"$t/p.ini"
}
# cyc DIR FILE: the complexity lines of one compile, run from DIR
cyc() {
	(cd "$1" && gcc -fplugin="$KPLUG" -fplugin-arg-kplug-config="$t/p.ini" \
		-c "$2" -o "$t/o.o" 2>&1 | grep -c '^Cyclomatic Complexity')
}
for root in "$t/link" "$t/real"; do
	prof "$root"
	for dir in "$t/link" "$t/real"; do
		is "$(cyc "$dir" drivers/net/x.c)" 1 "root=${root#$t/}, in ${dir#$t/}, relative input: [path:drivers/*] applies"
		is "$(cyc "$dir" lib/y.c)" 0 "root=${root#$t/}, in ${dir#$t/}, relative input: lib/ stays off"
	done
	for input in "$t/link/drivers/net/x.c" "$t/real/drivers/net/x.c"; do
		is "$(cyc / "$input")" 1 "root=${root#$t/}, input ${input#$t/}: [path:drivers/*] applies"
	done
done
prof .
is "$(cyc "$t/link" "$t/link/drivers/net/x.c")" 1 "root=., in link, input spelled through the link: applies"
is "$(cyc "$t/link" "$t/link/lib/y.c")" 0 "root=., in link, lib/ through the link stays off"
done_testing
