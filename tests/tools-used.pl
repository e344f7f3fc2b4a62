#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# tools-used.pl FILE...: the external commands and system files the given
# test scripts use, one "command NAME" or "file PATH" per line, sorted.
#
# Commands are words in command position (start of a line or after | ; &
# ( $( ` ! && || then do else, or the argument of nice, timeout N, env,
# exec, xargs, flock LOCK, command -v, sudo, and the command of a check:
# check "WHAT" CMD, check_exit N "WHAT" CMD), minus shell keywords and
# builtins and the functions the scripts define.  Files are absolute paths
# under /usr (a tarball, a library) that a script names literally.  The
# caller resolves them to Debian packages.
use strict;
use warnings;

my %skip = map { $_ => 1 } qw(
	if then else elif fi for while until do done case esac in function
	select time coproc return local declare typeset export readonly unset
	shift set source . : true false echo printf read cd pwd test [ [[ ]]
	exit break continue eval exec wait trap kill let type command builtin
	hash getopts umask ulimit alias unalias jobs fg bg disown pushd popd
	dirs shopt caller mapfile readarray enable help logout suspend times
	compgen complete compopt history fc bind STRING
	dir notdir wildcard shell patsubst filter filter-out subst foreach
	origin info error warning abspath realpath addprefix addsuffix suffix
	word words firstword lastword strip findstring value call);

# The code of a script without comments, single-quoted text (awk, perl
# and sed programs) and the literal text of double-quoted strings: of a
# string only its command substitutions $(...) run (they may nest strings).
sub shell_code {
	my @ctx = ('sh');	# sh: code, dq: inside "...", sub: inside $(...)
	my @depth = (0);
	my $out = '';
	my @c = split //, shift;
	for (my $i = 0; $i < @c; $i++) {
		my $ch = $c[$i];
		if ($ch eq '\\') {
			$out .= $ch . ($c[$i + 1] // '') if $ctx[-1] ne 'dq';
			$i++;
		} elsif ($ch eq '$' && ($c[$i + 1] // '') eq '(') {
			push @ctx, 'sub';
			push @depth, 0;
			$out .= ' $(';
			$i++;
		} elsif ($ctx[-1] eq 'dq') {
			pop @ctx if $ch eq '"';
		} elsif ($ch eq '"') {
			push @ctx, 'dq';
			$out .= ' STRING';
		} elsif ($ch eq "'") {
			$i++ while $i + 1 < @c && $c[$i + 1] ne "'";
			$i++;
			$out .= ' STRING';
		} elsif ($ch eq '#' && ($i == 0 || $c[$i - 1] =~ /\s/)) {
			$i++ while $i + 1 < @c && $c[$i + 1] ne "\n";
		} else {
			if ($ctx[-1] eq 'sub') {
				$depth[-1]++ if $ch eq '(';
				if ($ch eq ')' && $depth[-1]-- == 0) {
					pop @ctx;
					pop @depth;
				}
			}
			$out .= $ch;
		}
	}
	return $out;
}

my (%cmd, %file, %func);
my @text;
for my $f (@ARGV) {
	open(my $in, '<', $f) or die "$f: $!\n";
	local $/;
	my $t = <$in>;
	close $in;
	# not shell: heredoc bodies and single-quoted programs (awk, perl, sed)
	$t =~ s/<<-?\s*['"]?(\w+)['"]?([^\n]*\n).*?^\s*\1\s*$/$2/msg;
	push @text, [$f, shell_code($t)];
	$func{$1} = 1 while $t =~ /^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)/mg;
	(my $nc = $t) =~ s/^\s*#.*$//mg;
	$file{$1} = 1 while $nc =~ m{(?<![\w/.\$-])(/usr/(?:src|lib|bin|share)/[\w.+/-]*[\w+])(?![\w\$\{*-])}g;
}

my $lead = qr~(?:^|[|;&`!{]|(?<![^\s\$])\((?!\()|&&|\|\||\bthen\b|\bdo\b|\belse\b)\s*~;
# a check's description: a string, with the command substitutions in it
my $what = qr~STRING(?:\s*\$\((?:[^()]|\([^()]*\))*\))*~;
my $wrap = qr~(?:(?:nice(?:\s+-n\s*-?\d+)?|timeout\s+\S+|env(?:\s+-u\s+\S+|\s+\w+=\S*)*|exec|xargs(?:\s+-\S+(?:\s+\S+)?)*|flock\s+\S+|command\s+-v|sudo|shell)\s+)~;
for my $ft (@text) {
	my ($f, $t) = @$ft;
	for my $line (split /\n/, $t) {
		$line =~ s/^\s*[@-]+//;	# a make recipe line
		$line =~ s/\bcheck(?:_exit\s+\S+)?\s+($what)\s/$1; /g;
		$cmd{$1} = 1 while $line =~ /$lead(?:\w+=\S*\s+)*(nice|timeout|env|xargs|flock|sudo)\s/g;
		while ($line =~ /$lead(?:\w+=\S*\s+)*(?:$wrap)*([A-Za-z][\w.+-]*)(?=\s|$|;|(\))|\|)/g) {
			my $w = $1;
			next if defined $2 && $-[0] == 0;	# a case label: "x86_64)"
			next if $skip{$w} || $func{$w};
			$cmd{$w} = 1;
		}
	}
}
print "command $_\n" for sort keys %cmd;
print "file $_\n" for sort keys %file;

