#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Parity of kplug's sancov with native -fsanitize-coverage, per function.
#
#   parity.sh CC KPLUG_SO OPT WORKDIR FILE...
#
# Compiles every FILE natively (-fsanitize-coverage=trace-pc,trace-cmp) and
# with kplug (enable=sancov, sancov-trace=pc,cmp) at OPT, and compares per
# function the number of call sites of each callback in the optimized tree
# dump (not the assembly: RTL passes duplicate and merge blocks later).
# Files that native GCC cannot compile are dropped; kplug must compile all
# the others.  Float comparisons (cmpf/cmpd) are left out unless
# PARITY_FLOAT=1, which turns kplug's sancov-float on; without it kplug must
# emit none.  Jumps (tail calls) to callbacks are counted in the objects:
# native's count is reported, kplug's must be 0.  PARITY_KFLAGS adds kplug
# flags (the self-test uses it to provoke differences); PARITY_CFLAGS adds
# flags to both compiles (-fpermissive: GCC 14 made gnu89's implicit
# declarations errors, which the torture files rely on).
# A FILE that ends in .o is a kernel unit: an object of the kbuild O= tree
# PARITY_KBUILD_DIR, compiled both ways by the command kbuild ran for it
# (its .cmd file) with CC for the compiler and without kplug's flags.
# Prints differences (at most 20) and one summary line; exit status 0 only
# on full parity.
set -u
here=$(cd "$(dirname "$0")" && pwd)

# supported CC WORD...: SUPPORTED is the words, without the -f and -m options CC
# rejects (a tree configured by another GCC has its cc-option results:
# each compiler gets what its own kbuild would give it, both ways alike).
# Each option is probed once per batch (both compiles of every unit share
# the answers in REJECTED/ACCEPTED).
declare -A ACCEPTED REJECTED
supported() {
	local cc=$1 w out=
	shift
	for w; do
		case $w in
		-f* | -m*)
			[ -n "${REJECTED[$w]:-}" ] && continue
			if [ -z "${ACCEPTED[$w]:-}" ]; then
				if $cc -Werror "$w" -c -x c /dev/null -o /dev/null 2>/dev/null; then
					ACCEPTED[$w]=1
				else
					REJECTED[$w]=1
					continue
				fi
			fi ;;
		esac
		out="$out $w"
	done
	SUPPORTED=${out# }
}

# kbuild_compile CC OBJ ARG...: OBJ's kbuild command without kplug and
# its coverage flags (tests/kernel/kbuild-cmd.pl), by CC, then ARGs; run
# in PARITY_KBUILD_DIR.
kbuild_compile() {
	local cc=$1 o=$2 cmd
	shift 2
	cmd=$(perl "$here/../kernel/kbuild-cmd.pl" --cc "$cc" --native "$PARITY_KBUILD_DIR" "$o") ||
		return 1
	supported "$cc" $cmd
	(cd "$PARITY_KBUILD_DIR" && sh -c "$SUPPORTED $*")
}

# compile CC OPT FILE ARG...: FILE (a C file or a kernel unit) at OPT.
compile() {
	local cc=$1 opt=$2 f=$3
	shift 3
	case $f in
	*.o)	kbuild_compile "$cc" "$f" $opt "$@" ;;
	*)	$cc $opt -w ${PARITY_CFLAGS:-} -c "$f" "$@" ;;
	esac
}

one() {	# one CC SO OPT WORKDIR FILE
	local cc=$1 so=$2 opt=$3 work=$4 f=$5 d kflags
	d=$work/$(basename "${f%.[co]}")_$(printf '%s' "$f" | cksum | cut -d' ' -f1)
	mkdir -p "$d"
	kflags="-fplugin=$so -fplugin-arg-kplug-enable=sancov -fplugin-arg-kplug-sancov-trace=pc,cmp"
	[ "${PARITY_FLOAT:-0}" = 1 ] && kflags="$kflags -fplugin-arg-kplug-sancov-float=on"
	if ! compile "$cc" "$opt" "$f" -o "$d/n.o" -fdump-tree-optimized="$d/n.opt" \
		-fsanitize-coverage=trace-pc,trace-cmp >"$d/n.err" 2>&1; then
		rm -f "$d/n.o" "$d/n.opt"	# n.err says why
		echo "$f" > "$d/dropped"
		return
	fi
	if ! compile "$cc" "$opt" "$f" -o "$d/k.o" -fdump-tree-optimized="$d/k.opt" \
		$kflags ${PARITY_KFLAGS:-} >"$d/k.err" 2>&1; then
		echo "$f" > "$d/kfail"
		return
	fi
	touch "$d/n.opt" "$d/k.opt"	# no dump when a file has no function
	echo "$f" > "$d/file"
}

. "$(dirname "$0")/batch.sh"
batch_main parity.sh "${PARITY_JOBS:-2}" 20 "$@"

# Jumps to callbacks, per side, in one objdump run each.
jumps() {
	find "$work" -name "$1.o" -print0 | xargs -0 -r objdump -dr --no-show-raw-insn |
		awk '/^ +[0-9a-f]+:\t/ { insn = $2 }
		     /R_[A-Z0-9_]+\t__sanitizer_cov_/ { if (insn ~ /^j/) j++ }
		     END { print j + 0 }'
}
njmp=$(jumps n)
kjmp=$(jumps k)

perl - "$work" "${PARITY_FLOAT:-0}" "$njmp" "$kjmp" <<'PERL'
use strict;
use warnings;
my ($work, $float, $njmp, $kjmp) = @ARGV;
my ($files, $dropped, $fns, $bad, $kfloat) = (0) x 5;
my (%tot, @diff);

# FUNCTION => CALLBACK => count, from one optimized dump
sub count {
	my ($path) = @_;
	my (%c, $fn);
	open my $f, "<", $path or die "$path: $!";
	while (<$f>) {
		if (/^;; Function (\S+) /) {
			$fn = $1;
			$c{$fn} //= {};
			next;
		}
		next unless defined $fn;
		$c{$fn}{$1}++ while /(?:__builtin_)?__sanitizer_cov_(\w+) \(/g;
	}
	return \%c;
}

sub first_line { open my $f, "<", $_[0] or die; my $l = <$f>; chomp $l; $l }

for my $d (sort glob "$work/*") {
	if (-e "$d/dropped") { $dropped++; next; }
	if (-e "$d/kfail") {
		push @diff, "kplug failed where native compiled: " . first_line("$d/kfail");
		$bad++;
		next;
	}
	next unless -e "$d/file";
	$files++;
	my $name = first_line("$d/file");
	my ($n, $k) = (count("$d/n.opt"), count("$d/k.opt"));
	for my $fn (sort keys %{{ %$n, %$k }}) {
		my ($nc, $kc) = ($n->{$fn} // {}, $k->{$fn} // {});
		$fns++;
		my $why;
		for my $cb (sort keys %{{ %$nc, %$kc }}) {
			my ($a, $b) = ($nc->{$cb} // 0, $kc->{$cb} // 0);
			$tot{$cb}[0] += $a;
			$tot{$cb}[1] += $b;
			if ($cb =~ /^trace_cmp[fd]$/ && !$float) {
				$kfloat += $b;
				next;
			}
			$why //= "$cb native $a kplug $b" if $a != $b;
		}
		if (!exists $n->{$fn} || !exists $k->{$fn}) {
			$why = "function only in " . (exists $n->{$fn} ? "native" : "kplug");
		}
		next unless $why;
		$bad++;
		push @diff, "$name: $fn: $why";
	}
}
print "$_\n" for @diff[0 .. ($#diff < 19 ? $#diff : 19)];
printf "files %d (dropped %d) functions %d differing %d; jmp to callbacks: native %d kplug %d; " .
       "callbacks native/kplug: %s\n", $files, $dropped, $fns, $bad, $njmp, $kjmp,
       join(" ", map { "$_=$tot{$_}[0]/$tot{$_}[1]" } sort keys %tot);
print "kplug emitted $kfloat float callbacks without sancov-float\n" if $kfloat;
exit(($bad || $kjmp || $kfloat || !$files) ? 1 : 0);
PERL
