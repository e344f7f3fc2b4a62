#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Run TAP test scripts (bash), one after the other, and end with
#
#	N passed, N failed, N skipped
#
# counted per check (TAP test point), never per file: a skip is not a
# pass, and every skip prints its reason.  A file that dies, exits non-zero
# or breaks its plan without a failed check counts one failure more.
# Each file's wall time is printed as it ends and again in a table at the
# end.  With CI=true (as CI runs it) a skip counts as a failure: CI runs
# everything.  KPLUG_VERBOSE=1 prints every line of TAP.
#
# A test file with the line "# per-compiler" runs once for every compiler
# of KPLUG_COMPILERS (default "gcc gcc-11"), with KPLUG_TEST_CC set: the one
# variable through which tests/lib.sh picks the compiler and its kplug.so.
# The kplug.so of each compiler is built first (tests/lib.sh kplug_so_for).
use strict;
use warnings;
use TAP::Parser;
use Time::HiRes qw(time);
use FindBin;

# Variables that shrink the suite (quick mode, fewer kernel builds, smaller
# samples, another compiler or plugin).  A stray one in the environment
# must not turn "make check" into skips: they are cleared unless the
# caller asks for quick mode (--quick) or keeps them (--keep-env, for
# development).
my @SHRINK = qw(KPLUG_QUICK KPLUG_KERNEL_BUILDS KPLUG_FUZZ_RUNS KPLUG_VALGRIND_OBJS
		KPLUG_TORTURE_SAMPLE KPLUG_TORTURE_SAMPLE11 KPLUG_TEST_CC KPLUG_SO_PATH
		KPLUG_COMPILERS KPLUG_ABI_SAMPLE);
my $keep_env = 0;
my $quick = 0;
while (@ARGV && $ARGV[0] =~ /^--/) {
	my $opt = shift @ARGV;
	if ($opt eq '--quick') { $quick = 1 }
	elsif ($opt eq '--keep-env') { $keep_env = 1 }
	else { die "harness.pl: unknown option $opt\n" }
}
my @files = @ARGV;
die "usage: harness.pl [--quick] [--keep-env] TEST...\n" unless @files;
unless ($keep_env) {
	for my $v (@SHRINK) {
		next unless exists $ENV{$v};
		print "harness: cleared $v=$ENV{$v} (make check runs everything)\n";
		delete $ENV{$v};
	}
}
$ENV{KPLUG_QUICK} = 1 if $quick;

my @compilers = split ' ', ($ENV{KPLUG_COMPILERS} // 'gcc gcc-11');
my $top = "$FindBin::Bin/..";

sub per_compiler {
	my ($file) = @_;
	open(my $fh, '<', $file) or return 0;
	return scalar grep { /^# per-compiler$/ } <$fh>;
}

# [file, label, compiler or undef] for every run
my @runs;
for my $f (@files) {
	if (per_compiler($f)) {
		push @runs, [$f, "$f [$_]", $_] for @compilers;
	} else {
		push @runs, [$f, $f, undef];
	}
}
if (grep { defined $_->[2] } @runs) {
	for my $cc (@compilers) {
		system('bash', '-c', ". '$top/tests/lib.sh' && kplug_so_for '$cc' >/dev/null") == 0
			or warn "harness: cannot build kplug.so for $cc (its tests will fail)\n";
	}
}
my $ci = ($ENV{CI} // '') eq 'true';
my $verbose = $ENV{KPLUG_VERBOSE};
my ($passed, $failed, $skipped) = (0, 0, 0);
my (@times, @failures, @skips);
my $t_all = time;

$| = 1;
for my $run (@runs) {
	my ($path, $file, $cc) = @$run;
	my $t0 = time;
	my @exec = defined $cc ? ('env', "KPLUG_TEST_CC=$cc", 'bash', $path) : ('bash', $path);
	my $parser = TAP::Parser->new({ exec => \@exec, merge => 0 });
	my ($p, $f, $s) = (0, 0, 0);

	print "$file ..\n" if $verbose;
	while (my $r = $parser->next) {
		print '  ', $r->as_string, "\n" if $verbose;
		next unless $r->is_test;
		my $what = sprintf('%s %d %s', $file, $r->number, $r->description // '');
		if ($r->has_skip && $ci) {
			$f++;
			push @failures, sprintf('%s %d: skipped, and CI=true runs everything: %s',
						$file, $r->number, $r->explanation || 'no reason given');
		} elsif ($r->has_skip) {
			$s++;
			push @skips, sprintf('%s %d: %s', $file, $r->number, $r->explanation || 'no reason given');
		} elsif ($r->is_ok) {
			$p++;
		} else {
			$f++;
			push @failures, $what;
		}
	}
	my @problems;
	push @problems, 'exit status ' . $parser->exit if $parser->exit;
	push @problems, 'killed by signal ' . ($parser->wait & 127) if $parser->wait & 127;
	if (!$parser->plan) {
		push @problems, 'no plan';
	} elsif (!$parser->is_good_plan) {
		push @problems, sprintf('planned %d, ran %d', $parser->tests_planned,
					$parser->tests_run);
	}
	push @problems, $parser->parse_errors if $parser->parse_errors && !@problems;
	if (@problems && !$f) {
		$f = 1;
		push @failures, "$file: " . join(', ', @problems);
	}
	my $secs = time - $t0;
	push @times, [$file, $secs];
	printf "%-40s %s  %d passed, %d failed, %d skipped  (%s)\n", $file,
		$f ? 'FAIL' : 'ok  ', $p, $f, $s, fmt_time($secs);
	($passed, $failed, $skipped) = ($passed + $p, $failed + $f, $skipped + $s);
}

sub fmt_time {
	my $s = shift;
	return sprintf('%dm%02ds', int($s / 60), $s % 60) if $s >= 60;
	return sprintf('%.1fs', $s);
}

print "\nWall time per test file:\n";
printf "  %-40s %8s\n", $_->[0], fmt_time($_->[1]) for @times;
printf "  %-40s %8s\n", 'total', fmt_time(time - $t_all);
if (@skips) {
	print "\nSkipped:\n";
	print "  $_\n" for @skips;
}
if (@failures) {
	print "\nFailed:\n";
	print "  $_\n" for @failures;
}
printf "\n%d passed, %d failed, %d skipped\n", $passed, $failed, $skipped;
exit($failed ? 1 : 0);
