#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# check-build.pl BUILD_DIR SRC_TREE OBJDUMP
#
# Reads every .cmd file of a kernel build (O= directory) and prints
# "key=value" lines the kernel tests assert on, plus "bad: ..." lines
# naming offending objects (at most 10 of each kind).
#
#   kernel_c        C objects linked into vmlinux (members of vmlinux.a)
#   kernel_one      ... with exactly one -fplugin=...kplug.so, all kplug
#                   arguments after it
#   vdso_c          C objects of a vdso (in a */vdso*/ directory, not in
#                   vmlinux.a: the objects linked into the vdso image)
#   vdso_clean      ... with no -fplugin=...kplug.so and no kplug argument
#   native_cov      .cmd files that contain -fsanitize-coverage
#   inst / inst_calls      kernel C objects built with kplug's sancov
#                          argument / of those, with __sanitizer_cov_trace_pc
#                          call sites (objdump -dr relocations)
#   noinst / noinst_calls  kernel C objects without it / with call sites
#   off / off_calls        kernel C objects under a directory of
#                          KT_SANCOV_OFF (space-separated, e.g. "lib/ mm/":
#                          the build's profile disables sancov there) /
#                          with call sites; they count in neither of the
#                          two above
#   kcovn / kcovn_inst / kcovn_calls   objects a Makefile marks
#                          KCOV_INSTRUMENT := n / built with the sancov
#                          argument anyway / with call sites
#   vdso_calls      vdso objects with any __sanitizer_cov_ call site
#   cmp_calls       __sanitizer_cov_trace_*cmp* call sites in all objects
#   pc_calls_FILE   call sites in a few named objects (fs/read_write.o ...)
use strict;
use warnings;
use File::Find;

my ($build, $src, $objdump) = @ARGV;
my @off = split ' ', ($ENV{KT_SANCOV_OFF} // '');
die "usage: check-build.pl BUILD SRC OBJDUMP\n" unless $objdump;
chdir $build or die "$build: $!\n";

my %member;
open(my $ar, '-|', 'ar', 't', 'vmlinux.a') or die "ar: $!\n";
while (<$ar>) {
	chomp;
	$member{$_} = 1;
}
close $ar;
die "vmlinux.a: no members\n" unless %member;

# obj => command line, for C compiles
my %cmd;
find({ no_chdir => 1, wanted => sub {
	return unless /\/\.([^\/]+\.o)\.cmd$/;
	open(my $f, '<', $_) or return;
	my $line = <$f>;
	close $f;
	return unless $line && $line =~ /^(?:saved)?cmd_(\S+\.o) := (.*)$/;
	my ($obj, $c) = ($1, $2);
	$cmd{$obj} = $c if $c =~ /\s-c\s+-o\s+\S+\.o\s+\S+\.c(\s|;|$)/;
} }, '.');
# all .cmd lines, for -fsanitize-coverage
my $native = `grep -rl --include='*.cmd' -e '-fsanitize-coverage' . 2>/dev/null | wc -l`;
chomp $native;

# Objects marked KCOV_INSTRUMENT := n (per file or for a whole directory).
my %kcovn;
find({ no_chdir => 1, wanted => sub {
	return unless /\/(Makefile|Kbuild)$/;
	my $dir = $File::Find::dir;
	$dir =~ s{^\Q$src\E/?}{};
	open(my $f, '<', $_) or return;
	while (my $l = <$f>) {
		if ($l =~ /^\s*KCOV_INSTRUMENT_(\S+)\.o\s*:?=\s*n\b/) {
			$kcovn{"$dir/$1.o"} = 1;
		} elsif ($l =~ /^\s*KCOV_INSTRUMENT\s*:?=\s*n\b/) {
			$kcovn{"$dir/"} = 1;
		}
	}
	close $f;
} }, grep { -d } map { "$src/$_" } qw(arch kernel lib mm fs init drivers
	block security ipc net virt io_uring));

sub is_kcovn {
	my ($obj) = @_;
	return 1 if $kcovn{$obj};
	(my $dir = $obj) =~ s{[^/]+$}{};
	return $kcovn{$dir} ? 1 : 0;
}

# calls(OBJ, KIND): OBJ's call sites of KIND (pc, cmp, any), from one
# objdump run per object (the relocations of its code).
my (%calls, $pc, $cmp, $any);
sub calls {
	my ($obj, $kind) = @_;
	unless ($calls{$obj}) {
		my %c = map { $_ => 0 } qw(pc cmp any);
		open(my $d, '-|', $objdump, '-dr', $obj) or die "$objdump: $!\n";
		while (<$d>) {
			next unless /\bR_\S+\s+(__sanitizer_cov_\S*)/;
			my $sym = $1;
			$c{any}++;
			$c{pc}++ if $sym =~ /^$pc/;
			$c{cmp}++ if $sym =~ /^$cmp/;
		}
		close $d;
		$calls{$obj} = \%c;
	}
	return $calls{$obj}{$kind};
}

my %n = map { $_ => 0 } qw(kernel_c kernel_one vdso_c vdso_clean inst
	inst_calls noinst noinst_calls off off_calls kcovn kcovn_inst kcovn_calls
	vdso_calls cmp_calls);
my %bad;
sub bad { my ($k, $m) = @_; push @{$bad{$k}}, $m if @{$bad{$k} || []} < 10; }

$pc = qr/__sanitizer_cov_trace_pc\b/;
$cmp = qr/(?:__sanitizer_cov_trace_(?:const_)?cmp[1248]|__sanitizer_cov_trace_switch)\b/;

for my $obj (sort keys %cmd) {
	my $c = $cmd{$obj};
	my @plug = ($c =~ /-fplugin=\S*kplug\.so/g);
	my $args = () = ($c =~ /-fplugin-arg-kplug-/g);
	my $sancov = $c =~ /-fplugin-arg-kplug-(?:default-)?enable=sancov/;
	$n{cmp_calls} += calls($obj, 'cmp') if $sancov;
	if ($member{$obj}) {
		$n{kernel_c}++;
		my $first_arg = index($c, '-fplugin-arg-kplug-');
		my $plugin_at = $c =~ /-fplugin=\S*kplug\.so/ ? $-[0] : -1;
		if (@plug == 1 && ($first_arg < 0 || $first_arg > $plugin_at)) {
			$n{kernel_one}++;
		} else {
			bad('kernel', "$obj: " . scalar(@plug) . " kplug flags");
		}
		my $k = calls($obj, 'pc');
		if (grep { substr($obj, 0, length $_) eq $_ } @off) {
			$n{off}++;
			if ($k) {
				$n{off_calls}++;
				bad('off', "$obj: $k call sites where the profile disables sancov");
			}
		} elsif ($sancov) {
			$n{inst}++;
			$n{inst_calls}++ if $k;
		} else {
			$n{noinst}++;
			if ($k) {
				$n{noinst_calls}++;
				bad('noinst', "$obj: $k call sites without the sancov argument");
			}
		}
		if (is_kcovn($obj)) {
			$n{kcovn}++;
			$n{kcovn_inst}++ if $sancov;
			$n{kcovn_calls}++ if $k;
			bad('kcovn', "$obj: KCOV_INSTRUMENT := n but instrumented") if $sancov || $k;
		}
		print "pc_calls_$obj=$k\n"
			if $obj =~ m{^(fs/read_write|kernel/fork|mm/memory|kernel/kcov)\.o$};
	} elsif ($obj =~ m{(^|/)vdso[^/]*/}) {
		$n{vdso_c}++;
		print "vdso_obj=$obj\n";
		if (!@plug && !$args) {
			$n{vdso_clean}++;
		} else {
			bad('vdso', "$obj: " . scalar(@plug) . " kplug flags, $args kplug arguments");
		}
		if (calls($obj, 'any')) {
			$n{vdso_calls}++;
			bad('vdso', "$obj: __sanitizer_cov_ call sites");
		}
	}
}
print "native_cov=$native\n";
print "$_=$n{$_}\n" for sort keys %n;
for my $k (sort keys %bad) {
	print "bad: $k: $_\n" for @{$bad{$k}};
}
