#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# kbuild-cmd.pl [--cc CC] [--native] BUILD_DIR OBJ
#
# Prints the command kbuild compiled OBJ (relative to BUILD_DIR, the O=
# directory) with, from its .OBJ.cmd file, cut to a compile that a test
# can run again in BUILD_DIR and finish with its own "-o FILE" and flags:
# up to the C source (no objtool or other step after it), without
# "-o OBJ" and the dependency file (-Wp,-MMD,...).
#
#   --cc CC    the compiler CC instead of kbuild's
#   --native   without kplug: no -fplugin=...kplug.so, kplug argument,
#              -DKPLUG_ID or -fsanitize-coverage (the test adds its own)
#
# Exit 1 with one line on stderr when the .cmd file or its compile of
# OBJ is not there.
use strict;
use warnings;
use File::Basename qw(basename dirname);

my ($cc, $native);
while (@ARGV && $ARGV[0] =~ /^--/) {
	my $opt = shift;
	if ($opt eq '--cc' && @ARGV) {
		$cc = shift;
	} elsif ($opt eq '--native') {
		$native = 1;
	} else {
		die "kbuild-cmd.pl: $opt: unknown option\n";
	}
}
@ARGV == 2 or die "usage: kbuild-cmd.pl [--cc CC] [--native] BUILD_DIR OBJ\n";
my ($dir, $obj) = @ARGV;
my $file = "$dir/" . dirname($obj) . '/.' . basename($obj) . '.cmd';

open(my $fh, '<', $file) or die "kbuild-cmd.pl: $file: $!\n";
my $first = <$fh> // '';
my ($cmd) = $first =~ /^[a-z_]*cmd_\S+ := (.*)$/
	or die "kbuild-cmd.pl: $file:1: no command line\n";
$cmd =~ s/^(.* -c -o \Q$obj\E \S+\.c)(?: .*)?$/$1/
	or die "kbuild-cmd.pl: $file:1: no compile of $obj from a C source\n";
$cmd =~ s/ -c -o \Q$obj\E / -c /;
$cmd =~ s/ -Wp,-MMD,\S+//;
if ($native) {
	$cmd =~ s/ -fplugin=\S*kplug\S*\.so(?= |$)//g;
	$cmd =~ s/ -fplugin-arg-kplug-\S+//g;
	$cmd =~ s/ -DKPLUG_ID=\S+//g;
	$cmd =~ s/ -fsanitize-coverage=\S+//g;
}
$cmd =~ s/^\S+/$cc/ if defined $cc;
print "$cmd\n";
