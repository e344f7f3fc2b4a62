#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Run TAP test scripts (bash) and end with
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
#
# Two lanes run side by side.  The files with the line "# kernel-lane"
# (kernel builds, the icecream cluster, ccache, and the files that reuse
# their results) run one after the other in the harness; all the others
# run one after the other in a second process at nice 19, so they take
# the cores the kernel lane leaves idle (links, boots, single-threaded
# checks) instead of adding their time to its own.  Each file's line is
# printed when it ends, the table at the end is in the given order, and
# each file's time is its wall time under that sharing.  --serial (or
# KPLUG_VERBOSE=1) runs everything in one lane.
use strict;
use warnings;
use TAP::Parser;
use Time::HiRes qw(time);
use FindBin;
use File::Temp qw(tempfile);
use Storable qw(store retrieve);
use POSIX qw(_exit);

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
my $serial = 0;
while (@ARGV && $ARGV[0] =~ /^--/) {
	my $opt = shift @ARGV;
	if ($opt eq '--quick') { $quick = 1 }
	elsif ($opt eq '--keep-env') { $keep_env = 1 }
	elsif ($opt eq '--serial') { $serial = 1 }
	else { die "harness.pl: unknown option $opt\n" }
}
my @files = @ARGV;
die "usage: harness.pl [--quick] [--keep-env] [--serial] TEST...\n" unless @files;
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

sub has_line {
	my ($file, $line) = @_;
	open(my $fh, '<', $file) or return 0;
	return scalar grep { $_ eq "$line\n" } <$fh>;
}

# [file, label, compiler or undef, kernel lane] for every run
my @runs;
for my $f (@files) {
	my $lane = has_line($f, '# kernel-lane');
	if (has_line($f, '# per-compiler')) {
		push @runs, [$f, "$f [$_]", $_, $lane] for @compilers;
	} else {
		push @runs, [$f, $f, undef, $lane];
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
my $t_all = time;

$| = 1;

# run_file RUN: run one file; prints its line, returns its result.
sub run_file {
	my ($path, $file, $cc) = @{$_[0]};
	my $t0 = time;
	my @exec = defined $cc ? ('env', "KPLUG_TEST_CC=$cc", 'bash', $path) : ('bash', $path);
	my $parser = TAP::Parser->new({ exec => \@exec, merge => 0 });
	my %r = (file => $file, p => 0, f => 0, s => 0, failures => [], skips => []);

	print "$file ..\n" if $verbose;
	while (my $t = $parser->next) {
		print '  ', $t->as_string, "\n" if $verbose;
		next unless $t->is_test;
		my $what = sprintf('%s %d %s', $file, $t->number, $t->description // '');
		if ($t->has_skip && $ci) {
			$r{f}++;
			push @{$r{failures}}, sprintf('%s %d: skipped, and CI=true runs everything: %s',
						      $file, $t->number, $t->explanation || 'no reason given');
		} elsif ($t->has_skip) {
			$r{s}++;
			push @{$r{skips}}, sprintf('%s %d: %s', $file, $t->number,
						   $t->explanation || 'no reason given');
		} elsif ($t->is_ok) {
			$r{p}++;
		} else {
			$r{f}++;
			push @{$r{failures}}, $what;
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
	if (@problems && !$r{f}) {
		$r{f} = 1;
		push @{$r{failures}}, "$file: " . join(', ', @problems);
	}
	$r{secs} = time - $t0;
	printf "%-40s %s  %d passed, %d failed, %d skipped  (%s)\n", $file,
		$r{f} ? 'FAIL' : 'ok  ', $r{p}, $r{f}, $r{s}, fmt_time($r{secs});
	return \%r;
}

# run_lanes: the results of every run, in @runs' order.
sub run_lanes {
	my @kernel = grep { $runs[$_][3] } 0 .. $#runs;
	my @other = grep { !$runs[$_][3] } 0 .. $#runs;
	my @res;

	if ($serial || $verbose || !@kernel || !@other) {
		return map { run_file($_) } @runs;
	}
	printf "harness: %d files in the kernel lane, %d beside it at nice 19\n",
		scalar @kernel, scalar @other;
	my ($fh, $store) = tempfile('kplug-harness.XXXXXX', TMPDIR => 1, UNLINK => 1);
	close $fh;
	my $pid = fork // die "harness.pl: fork: $!\n";
	if (!$pid) {
		setpriority(0, 0, 19);
		my %mine = map { $_ => run_file($runs[$_]) } @other;
		store(\%mine, $store);
		_exit(0);
	}
	$res[$_] = run_file($runs[$_]) for @kernel;
	waitpid($pid, 0);
	my $status = $?;
	my $theirs = eval { retrieve($store) } // {};
	for my $i (@other) {
		$res[$i] = $theirs->{$i} // {
			file => $runs[$i][1], p => 0, f => 1, s => 0, secs => 0, skips => [],
			failures => ["$runs[$i][1]: no result (the second lane ended with status $status)"],
		};
	}
	return @res;
}

my ($passed, $failed, $skipped) = (0, 0, 0);
my (@failures, @skips);
my @results = run_lanes();
for my $r (@results) {
	($passed, $failed, $skipped) = ($passed + $r->{p}, $failed + $r->{f}, $skipped + $r->{s});
	push @failures, @{$r->{failures}};
	push @skips, @{$r->{skips}};
}

sub fmt_time {
	my $s = shift;
	return sprintf('%dm%02ds', int($s / 60), $s % 60) if $s >= 60;
	return sprintf('%.1fs', $s);
}

print "\nWall time per test file:\n";
printf "  %-40s %8s\n", $_->{file}, fmt_time($_->{secs}) for @results;
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
