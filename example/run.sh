#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug's bundled example: complexity of a small driver-like file, then a
# program built with kplug's sancov whose covered lines are printed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
KPLUG=${KPLUG:-$here/../kplug.so}
cd "$here"

echo "== cyc_complexity: the 2016 plugin's lines, for every function"
gcc -O2 -c driver.c -o /dev/null -fplugin="$KPLUG" \
	-fplugin-arg-kplug-enable=cyc_complexity 2>&1
echo
echo "== the same through an ini profile (example/profile.ini: only M >= 4)"
gcc -O2 -c driver.c -o /dev/null -fplugin="$KPLUG" \
	-fplugin-arg-kplug-config=profile.ini 2>&1
echo
echo "== JSON Lines for build robots (cyc_complexity-format=jsonl)"
gcc -O2 -c driver.c -o /dev/null -fplugin="$KPLUG" \
	-fplugin-arg-kplug-enable=cyc_complexity \
	-fplugin-arg-kplug-cyc_complexity-format=jsonl 2>&1
if [ -x coverage/run.sh ]; then
	echo
	echo "== sancov: coverage of a small program built with kplug"
	KPLUG="$KPLUG" coverage/run.sh
fi
