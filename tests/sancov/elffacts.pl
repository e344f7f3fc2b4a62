#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# What an object holds of Clang's coverage ABI.
#
#   elffacts.pl OBJ SECTION ELTSIZE
#
# Prints one line "ENTRIES PCS RELOCS TABLES CTORS [BAD ...]": the size of
# SECTION (__sancov_guards, __sancov_cntrs, __sancov_bools; all sections of
# that name, COMDAT groups too) divided by ELTSIZE, the size of __sancov_pcs
# divided by 16, the number of its relocations (one per PC), the PC table
# per function as NAME:ENTRIES,... (a function's table runs from its entry,
# flag 1, whose PC relocation names the function, to the next entry with
# flag 1; "-" when empty), and the number of constructors in
# .init_array.00002.  BAD lists what breaks the layout: a size that is not a
# multiple of ELTSIZE, data in a PC slot, a flag other than 0 or 1, a table
# that does not start with a function entry, more than one __sancov_pcs
# section (COMDAT groups: the table is read from C objects only).
use strict;
use warnings;
my ($o, $sec, $esz) = @ARGV;
my (%size, %nsec, %secname, %fnat, $ctors);
for (`readelf -SW $o`) {
	next unless /^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)/;
	$secname{$1} = $2;
	$size{$2} += hex $3;
	$nsec{$2}++;
}
# functions by "SECTION OFFSET": a PC relocation against a local symbol
# becomes SECTION + OFFSET in the object
for (`readelf -sW $o`) {
	next unless /^\s*\d+:\s+([0-9a-f]+)\s+\d+\s+FUNC\s+\S+\s+\S+\s+(\d+)\s+(\S+)/;
	$fnat{"$secname{$2} " . hex $1} = $3;
}
my $bad = "";
$bad .= " $nsec{__sancov_pcs} __sancov_pcs sections" if ($nsec{__sancov_pcs} // 0) > 1;
$bad .= " $sec size $size{$sec} not a multiple of $esz" if ($size{$sec} // 0) % $esz;
# __sancov_pcs: flag words from the data, PC relocations from .rela
my $hex = "";
for (`readelf -x __sancov_pcs $o 2>/dev/null`) {
	$hex .= join "", ($1 =~ /([0-9a-f]{2,8})/g) if /^\s+0x[0-9a-f]+ ((?:[0-9a-f]{2,8} ){1,4})/;
}
my @words = unpack "Q<*", pack("H*", $hex);
my (%reloc, @flag1);
my $cur = "";
for (`readelf -rW $o`) {
	$cur = $1 if /^Relocation section '([^']+)'/;
	next unless $cur eq ".rela__sancov_pcs";
	next unless /^([0-9a-f]+)\s+[0-9a-f]+\s+\S+\s+[0-9a-f]+\s+(\S+)(?: \+ ([0-9a-f]+))?/;
	my ($sym, $add) = ($2, hex($3 // 0));
	$reloc{hex $1} = $fnat{"$sym $add"} // ($add ? "$sym+$add" : $sym);
}
# per function (from its flag-1 entry to the next): "NAME:ENTRIES"
for (my $i = 0; $i + 1 < @words; $i += 2) {
	$bad .= " pc slot $i has data $words[$i]" if $words[$i];	# addend is in .rela
	if (!$words[$i + 1]) {
		$bad .= " entry 0 has no flag" unless @flag1;
		$flag1[-1][1]++ if @flag1;
		next;
	}
	$bad .= " flag $words[$i+1] at entry " . $i / 2 if $words[$i + 1] != 1;
	push @flag1, [$reloc{8 * $i} // "?", 1];
}
@flag1 = map { "$_->[0]:$_->[1]" } sort { $a->[0] cmp $b->[0] } @flag1;
$ctors = ($size{".init_array.00002"} // 0) / 8;
printf "%d %d %d %s %d%s\n", ($size{$sec} // 0) / $esz, ($size{__sancov_pcs} // 0) / 16,
	scalar(keys %reloc), join(",", @flag1) || "-", $ctors, $bad ? " BAD$bad" : "";
