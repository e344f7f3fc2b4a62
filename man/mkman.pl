#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# mkman.pl PAGE.pod HELP-FILE: print PAGE.pod with its @...@ markers
# replaced by what the program's own help text (HELP-FILE) says, so that a
# man page cannot drift from --help:
#
#   kplug.7.pod         HELP-FILE: gcc -fplugin=kplug -fplugin-arg-kplug-help
#     @VERSION@         kplug's version
#     @PASSES@          every pass, every option with its default and help
#     the general options (enable=, config=, ...) are written in the page,
#     and every one the help line names must have its "=item" there
#   kplug-report.1.pod  HELP-FILE: kplug-report --help
#     @SYNOPSIS@ @COMMANDS@ @OPTIONS@ @EXIT@
#   kplug-kbuild.1.pod  HELP-FILE: kplug-kbuild --help
#     @SYNOPSIS@ @COMMANDS@ @DESCRIPTION@
#
# Bad input (a marker without its part of the help, an undescribed
# option) is one "mkman.pl: ..." line and exit status 1.
use strict;
use warnings;

sub fail { print STDERR "mkman.pl: @_\n"; exit 1; }

@ARGV == 2 or fail('usage: mkman.pl PAGE.pod HELP-FILE');
my ($page, $helpfile) = @ARGV;
open(my $pf, '<', $page) or fail("$page: $!");
my $pod = do { local $/; <$pf> };
open(my $hf, '<', $helpfile) or fail("$helpfile: $!");
my @help = <$hf>;
chomp @help;
@help or fail("$helpfile: empty help text");

# POD-escape text taken from a help line.
sub esc {
	my $t = shift;
	$t =~ s/([<>])/$1 eq '<' ? 'E<lt>' : 'E<gt>'/ge;
	return $t;
}

my %repl;
if ($page =~ /kplug\.7\.pod$/) {
	my ($version, $general) = $help[0] =~ /^kplug (\S+): (.*)$/
		or fail("$helpfile: first line is not 'kplug VERSION: ...' (is this kplug's help?)");
	$repl{VERSION} = $version;
	my @general;
	push @general, $1 while $general =~ /(?:^|\s)-(?:fplugin-arg-kplug-)?([A-Za-z][\w-]*)(?:=|[,;]|$)/g;
	@general or fail("$helpfile: no general option in '$help[0]'");
	for my $g (@general) {
		$pod =~ /^=item B<-fplugin-arg-kplug-\Q$g\E[=>]/m or
			fail("$page: option '$g' from the plugin's help has no '=item B<-fplugin-arg-kplug-$g>'");
	}
	my $out = '';
	my $in_pass = 0;
	for my $l (@help[1 .. $#help]) {
		if ($l =~ /^  (\w+): (.*)$/) {
			$out .= "=back\n\n" if $in_pass;
			$out .= "=head2 $1\n\n" . ucfirst(esc($2)) . ".\n\n=over 4\n\n";
			$in_pass = 1;
		} elsif ($l =~ /^    ([\w-]+) \(default (.*?)\): (.*)$/) {
			$in_pass or fail("$helpfile: option '$1' before any pass");
			my $def = $2 eq 'unset' ? 'none' : "B<$2>";
			$out .= "=item B<-fplugin-arg-kplug-$1=>I<VALUE>\n\n" .
				"Default: $def.  " . ucfirst(esc($3)) . ".\n\n";
		} elsif ($l =~ /\S/) {
			fail("$helpfile: unexpected line '$l'");
		}
	}
	$in_pass or fail("$helpfile: no pass in the help");
	$repl{PASSES} = $out . "=back\n";
} elsif ($page =~ /kplug-report\.1\.pod$/) {
	my ($syn, $cmds, $exit) = ('', '', '');
	my @opts;	# [name, text]
	my $part = 'syn';
	for my $l (@help) {
		if ($l =~ /^(?:usage: |       )kplug-report (.*)$/) {
			$syn .= 'B<kplug-report> ' . esc($1) . "\n\n";
		} elsif ($l =~ /^options:$/) {
			$part = 'opt';
		} elsif ($l =~ /^exit status: (.*)$/) {
			$exit = ucfirst(esc($1)) . ".\n";
			$part = 'exit';
		} elsif ($part ne 'opt' && $l =~ /^  (\w+)\s+(.*)$/) {
			$cmds .= "=item B<$1>\n\n" . ucfirst(esc($2)) . ".\n\n";
		} elsif ($part eq 'opt' && $l =~ /^  (-\S+(?:, -\S+| [A-Z]+(?:, -\S+)?)?)\s+(.*)$/) {
			push @opts, [$1, $2];
		} elsif ($part eq 'opt' && @opts && $l =~ /^\s{5,}(.*)$/) {
			$opts[-1][1] .= " $1";
		} elsif ($part eq 'opt') {
			fail("$helpfile: unexpected option line '$l'");
		}
	}
	$syn && $cmds && @opts && $exit or fail("$helpfile: no usage, command, option or exit status line");
	%repl = (SYNOPSIS => $syn, COMMANDS => "=over 4\n\n$cmds=back\n",
		 OPTIONS => "=over 4\n\n" . join('', map { "=item B<" . esc($_->[0]) . ">\n\n" .
							ucfirst(esc($_->[1])) . ".\n\n" } @opts) . "=back\n",
		 EXIT => $exit);
} elsif ($page =~ /kplug-kbuild\.1\.pod$/) {
	my ($syn, $cmds, $desc) = ('', '', '');
	for my $l (@help) {
		if ($l =~ /^kplug-kbuild (\S+)(?: +([A-Z_]+))?\s{2,}(.*)$/) {
			my ($c, $a, $d) = ($1, $2, $3);
			$syn .= "B<kplug-kbuild> B<$c>" . ($a ? " I<$a>" : '') . "\n\n";
			$cmds .= "=item B<$c>" . ($a ? " I<$a>" : '') . "\n\n" . ucfirst(esc($d)) . ".\n\n";
		} else {
			$desc .= esc($l) . "\n";
		}
	}
	$syn && $desc or fail("$helpfile: no command or description line");
	%repl = (SYNOPSIS => $syn, COMMANDS => "=over 4\n\n$cmds=back\n", DESCRIPTION => $desc);
} else {
	fail("$page: unknown page (kplug.7.pod, kplug-report.1.pod or kplug-kbuild.1.pod)");
}

for my $k (keys %repl) {
	$pod =~ s/\@$k\@/$repl{$k}/g or fail("$page: no \@$k\@ marker");
}
$pod =~ /\@([A-Z]+)\@/ and fail("$page: \@$1\@ has no part in the help");
print $pod;
