#!/usr/bin/perl
# Run TAP test scripts (bash) and end with "N passed, N failed".
# A test counts as passed when its whole script passed.
use strict;
use warnings;
use TAP::Harness;

my @files = @ARGV;
die "usage: harness.pl TEST...\n" unless @files;
my $harness = TAP::Harness->new({
	verbosity => $ENV{KPLUG_VERBOSE} ? 1 : 0,
	exec      => ['bash'],
	merge     => 0,
	color     => 0,
});
my $agg = $harness->runtests(@files);
my $passed = scalar($agg->passed);
my $failed = scalar($agg->failed);
my @bad = grep { my ($p) = $agg->parsers($_); $p->has_problems } $agg->descriptions;
printf "%d passed, %d failed\n", $passed, $failed + (@bad && !$failed ? scalar(@bad) : 0);
exit($agg->all_passed ? 0 : 1);
