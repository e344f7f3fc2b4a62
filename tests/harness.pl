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
# of KPLUG_COMPILERS (default "gcc gcc-11 gcc-13 gcc-14 gcc-15 gcc-16"; the
# newer ones in chroots, see suite_of), with KPLUG_TEST_CC set: the one
# variable through which tests/lib.sh picks the compiler and its kplug.so.
# The kplug.so of each compiler is built first, two at a time (KPLUG_JOBS;
# tests/lib.sh kplug_so_for, a serial make each).
#
# The files with the line "# runs alone" (the kernel builds, which take
# both cores) run first, one after the other, in their order, with
# nothing beside them; then the others run two at a time (KPLUG_JOBS,
# default 2; 1: one after the other).  So a kernel test that only reads
# such a build (boots it, checks its objects) on one core is no
# "# runs alone" file: it runs among the others, after the builds.
# Those marked "# long" (minutes) start first among the
# others, so that the pool does not end with one long file beside
# nothing.  A file with "# lock: NAME..." never runs
# beside another file holding one of the same NAMEs (a shared directory
# or install), nor beside another compiler's run of itself.  Each file's
# line is printed as it ends, with its wall and CPU time (user + system of
# its processes): CPU / wall is how much of the cores it used.  The
# summary lists each failed check with the diagnostics its file printed
# around it (tests/lib.sh also writes them to KPLUG_DIAG_LOG): up to 3
# lines since the check before it and 10 after it, so that the end of the
# output says why.
use strict;
use warnings;
use TAP::Parser;
use Time::HiRes qw(time);
use FindBin;
use POSIX qw(_exit);
use Storable qw(store retrieve);
use File::Temp qw(tempdir tempfile);

# Variables that shrink the suite (quick mode, fewer kernel builds, smaller
# samples, another compiler or plugin).  A stray one in the environment
# must not turn "make check" into skips: they are cleared unless the
# caller asks for quick mode (--quick) or keeps them (--keep-env, for
# development).
my @SHRINK = qw(KPLUG_QUICK KPLUG_KERNEL_BUILDS KPLUG_FUZZ_RUNS KPLUG_VALGRIND_OBJS
		KPLUG_TORTURE_SAMPLE KPLUG_TORTURE_SAMPLE11 KPLUG_TORTURE_SAMPLE_NEW KPLUG_TEST_CC KPLUG_SO_PATH
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

my @compilers = split ' ', ($ENV{KPLUG_COMPILERS} // 'gcc gcc-11 gcc-13 gcc-14 gcc-15 gcc-16');
my $top = "$FindBin::Bin/..";

# Where each compiler lives: on the host, or in a Debian chroot of a newer
# suite (tools/toolchain-chroot: gcc-13 and gcc-14 in trixie, gcc-15 and
# gcc-16 in sid).  A per-compiler file runs wholly inside its compiler's
# chroot, with the checkout at the same path.
my %suite;
sub suite_of {
	my ($cc) = @_;
	return $suite{$cc} //= do {
		my $s = `'$top/tools/toolchain-chroot' suite '$cc' 2>/dev/null`;
		chomp $s;
		$s || 'host';
	};
}
sub in_toolchain {
	my ($cc, @cmd) = @_;
	my $s = suite_of($cc);
	return $s eq 'host' ? @cmd : ("$top/tools/toolchain-chroot", 'run', $s, @cmd);
}

# The marker lines of FILE: per-compiler, runs alone, its locks.
sub markers {
	my ($file) = @_;
	my %m = (per_compiler => 0, alone => 0, locks => ["file:$file"]);
	open(my $fh, '<', $file) or return \%m;
	while (<$fh>) {
		$m{per_compiler} = 1 if /^# per-compiler$/;
		$m{alone} = 1 if /^# runs alone$/;
		$m{long} = 1 if /^# long$/;
		push @{$m{locks}}, split(' ', $1) if /^# lock: (.+)$/;
	}
	return \%m;
}

my $jobs = $ENV{KPLUG_JOBS} // 2;
unless ($jobs =~ /^[1-9][0-9]*$/) {
	print STDERR "harness.pl: KPLUG_JOBS=$jobs: give a whole number >= 1\n";
	exit 2;
}

# [file, label, compiler or undef, markers] for every run
my @runs;
for my $f (@files) {
	my $m = markers($f);
	if ($m->{per_compiler}) {
		push @runs, [$f, "$f [$_]", $_, $m] for @compilers;
	} else {
		push @runs, [$f, $f, undef, $m];
	}
}
# run_each [WARNING, COMMAND...]...: run the commands, $jobs at a time
# (each one core: a serial make, a tar), and warn for each that fails.
sub run_each {
	my @todo = @_;
	my %running;	# pid => warning
	while (@todo || %running) {
		if (@todo && keys %running < $jobs) {
			my ($warning, @cmd) = @{shift @todo};
			my $pid = fork // die "harness.pl: fork: $!\n";
			if (!$pid) {
				exec(@cmd) or _exit(127);
			}
			$running{$pid} = $warning;
			next;
		}
		my $pid = waitpid(-1, 0);
		last if $pid < 0;
		my $warning = delete $running{$pid};
		warn $warning if defined $warning && $?;
	}
}

if (grep { defined $_->[2] } @runs) {
	my @prepare;
	# GCC 12's torture suite (tests/lib.sh gcc_source) comes from the
	# host's gcc-12-source; the chroots use the extracted copy.
	push @prepare, ["harness: cannot extract GCC's sources (apt-get install gcc-12-source)\n",
			'bash', '-c', ". '$top/tests/lib.sh' && gcc_source >/dev/null"]
		if grep { suite_of($_) ne 'host' } @compilers;
	for my $cc (@compilers) {
		my $where = suite_of($cc) eq 'host' ? '' : ' (in the ' . suite_of($cc) . ' chroot)';
		push @prepare, ["harness: cannot build kplug.so for $cc$where (its tests will fail)\n",
				in_toolchain($cc, 'bash', '-c', ". '$top/tests/lib.sh' && kplug_so_for '$cc' >/dev/null")];
	}
	run_each(@prepare);
}
my $ci = ($ENV{CI} // '') eq 'true';
my $verbose = $ENV{KPLUG_VERBOSE};
my $t_all = time;

$| = 1;

# The diagnostics of DIAG_LOG (see tests/lib.sh) around check N, as
# lines to print under a failure.
sub diag_around {
	my ($log, $n) = @_;
	my (@before, @after, $cur);
	open(my $fh, '<', $log) or return ();
	while (my $l = <$fh>) {
		chomp $l;
		if ($l =~ /^\@(\d+)$/) {
			$cur = $1;
			last if $cur > $n;
			@before = () if $cur < $n;
			next;
		}
		$l = substr($l, 0, 197) . '...' if length $l > 200;
		if (defined $cur && $cur == $n) {
			push @after, $l if @after < 10;
		} else {
			push @before, $l;
		}
	}
	splice(@before, 0, @before - 3) if @before > 3;
	return map { "      $_" } @before, @after;
}

# run_file RUN: run one file; prints its line, returns its result.
sub run_file {
	my ($path, $file, $cc) = @{$_[0]};
	my $t0 = time;
	my @c0 = times;
	my @exec = defined $cc ? in_toolchain($cc, 'env', "KPLUG_TEST_CC=$cc", 'bash', $path) : ('bash', $path);
	my (undef, $diag_log) = tempfile('kplug-diag.XXXXXX', TMPDIR => 1, UNLINK => 1);
	local $ENV{KPLUG_DIAG_LOG} = $diag_log;
	my $parser = TAP::Parser->new({ exec => \@exec, merge => 0 });
	my %r = (file => $file, p => 0, f => 0, s => 0, failures => [], skips => []);
	my @failed;	# [index in failures, check number] of the failed checks

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
			push @failed, [$#{$r{failures}}, $t->number];
		}
	}
	for (@failed) {
		my ($i, $n) = @$_;
		$r{failures}[$i] = join("\n", $r{failures}[$i], diag_around($diag_log, $n));
	}
	unlink $diag_log;
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
	my @c1 = times;
	$r{secs} = time - $t0;
	$r{cpu} = $c1[2] + $c1[3] - $c0[2] - $c0[3];
	printf "%-40s %s  %d passed, %d failed, %d skipped  (%s, %s CPU)\n", $file,
		$r{f} ? 'FAIL' : 'ok  ', $r{p}, $r{f}, $r{s}, fmt_time($r{secs}), fmt_time($r{cpu});
	return \%r;
}

# A result for a run whose process was lost.
sub lost {
	my ($i, $why) = @_;
	my $file = $runs[$i][1];
	printf "%-40s FAIL  no result: %s\n", $file, $why;
	return { file => $file, p => 0, f => 1, s => 0, secs => 0, cpu => 0, skips => [],
		 failures => ["$file: no result ($why)"] };
}

# run_pool INDEX...: run those runs, $jobs at a time, never two with a
# lock in common; results into @res.
my @res;
sub run_pool {
	my @queue = @_;
	my $dir = tempdir('kplug-harness.XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my (%running, %held);	# pid => index; lock => 1

	while (@queue || %running) {
		my $k;
		if (keys %running < $jobs) {
			($k) = grep { my $q = $queue[$_];
				      !grep { $held{$_} } @{$runs[$q][3]{locks}} } 0 .. $#queue;
		}
		if (defined $k) {
			my $i = splice(@queue, $k, 1);
			my $pid = fork // die "harness.pl: fork: $!\n";
			if (!$pid) {
				store(run_file($runs[$i]), "$dir/$i");
				_exit(0);
			}
			$running{$pid} = $i;
			$held{$_} = 1 for @{$runs[$i][3]{locks}};
			next;
		}
		my $pid = waitpid(-1, 0);
		my $status = $?;
		next unless exists $running{$pid};
		my $i = delete $running{$pid};
		delete $held{$_} for @{$runs[$i][3]{locks}};
		$res[$i] = eval { retrieve("$dir/$i") } //
			lost($i, "its harness process ended with status $status");
	}
}

my @alone = grep { $runs[$_][3]{alone} } 0 .. $#runs;
# the files marked "# long" first: two at a time, the pool ends on short ones
my @together = grep { !$runs[$_][3]{alone} } 0 .. $#runs;
@together = ((grep { $runs[$_][3]{long} } @together), (grep { !$runs[$_][3]{long} } @together));
my $pool = $jobs > 1 && !$verbose && @together > 1;
printf "harness: %d files that run alone, then %d files %d at a time\n",
	scalar @alone, scalar @together, $jobs if $pool;
# The files that run alone first: what they build, the others may read.
$res[$_] = run_file($runs[$_]) for @alone;
if ($pool) {
	run_pool(@together);
} else {
	$res[$_] = run_file($runs[$_]) for @together;
}

my ($passed, $failed, $skipped) = (0, 0, 0);
my (@failures, @skips);
for my $r (@res) {
	($passed, $failed, $skipped) = ($passed + $r->{p}, $failed + $r->{f}, $skipped + $r->{s});
	push @failures, @{$r->{failures}};
	push @skips, @{$r->{skips}};
}

sub fmt_time {
	my $s = shift;
	return sprintf('%dm%02ds', int($s / 60), $s % 60) if $s >= 60;
	return sprintf('%.1fs', $s);
}

print "\nWall and CPU time (user + system, children included) per test file:\n";
printf "  %-40s %8s %8s\n", $_->{file}, fmt_time($_->{secs}), fmt_time($_->{cpu}) for @res;
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
