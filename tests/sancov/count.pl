#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Count the call sites of each __sanitizer_cov_* callback per function in
# -fdump-tree-optimized dumps.  Prints "FUNCTION CALLBACK COUNT" lines,
# sorted.  (The dump, not the assembly: RTL passes duplicate and merge
# blocks after instrumentation, see docs/sancov.md.)
use strict;
use warnings;

my ($fn, %n);
while (<>) {
	if (/^;; Function (\S+) /) {
		$fn = $1;
		$n{"$fn -"} //= 0;	# functions without callbacks count too
		next;
	}
	next unless defined $fn;
	# a call statement: "  __builtin___sanitizer_cov_trace_pc ();"
	while (/(?:__builtin_)?__sanitizer_cov_(\w+) \(/g) {
		$n{"$fn $1"}++;
	}
}
print "$_ $n{$_}\n" for sort keys %n;
