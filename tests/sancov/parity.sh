#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Parity of kplug's sancov with native -fsanitize-coverage, per function.
#
#   parity.sh CC KPLUG_SO OPT WORKDIR FILE...
#
# Compiles every FILE natively (-fsanitize-coverage=trace-pc,trace-cmp) and
# with kplug (enable=sancov, sancov-trace=pc,cmp) at OPT, and compares per
# function the number of call sites of each callback in the optimized tree
# dump.  Files that native GCC cannot compile are dropped.  Float
# comparisons (cmpf/cmpd) are left out of the comparison unless
# PARITY_FLOAT=1, which turns kplug's sancov-float on; without it kplug must
# emit none.  Also counts callbacks reached by a jump (tail call) in the
# objects: native's count is reported, kplug's must be 0.
# Prints one summary line; exit status 0 only on full parity.
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" = "--one" ]; then
	# worker: --one CC SO OPT WORKDIR FILE
	cc=$2 so=$3 opt=$4 work=$5 f=$6
	id=$(basename "${f%.c}")_$(printf '%s' "$f" | cksum | cut -d' ' -f1)
	d=$work/$id
	mkdir -p "$d"
	kflags="-fplugin=$so -fplugin-arg-kplug-enable=sancov -fplugin-arg-kplug-sancov-trace=pc,cmp"
	[ "${PARITY_FLOAT:-0}" = 1 ] && kflags="$kflags -fplugin-arg-kplug-sancov-float=on"
	if ! $cc $opt -w -c "$f" -o "$d/n.o" -fdump-tree-optimized="$d/n.opt" \
		-fsanitize-coverage=trace-pc,trace-cmp >/dev/null 2>&1; then
		echo "$f" > "$d/dropped"
		exit 0
	fi
	if ! $cc $opt -w -c "$f" -o "$d/k.o" -fdump-tree-optimized="$d/k.opt" \
		$kflags >"$d/k.err" 2>&1; then
		echo "$f" > "$d/kfail"
		exit 0
	fi
	# no dump at all when the file defines no function
	touch "$d/n.opt" "$d/k.opt"
	perl "$here/count.pl" "$d/n.opt" > "$d/n.cnt"
	perl "$here/count.pl" "$d/k.opt" > "$d/k.cnt"
	for x in n k; do
		objdump -dr --no-show-raw-insn "$d/$x.o" | awk '
			/^ +[0-9a-f]+:\t/ { insn = $2 }
			/R_[A-Z0-9_]+\t__sanitizer_cov_/ { if (insn ~ /^j/) j++ }
			END { print j + 0 }' > "$d/$x.jmp"
	done
	rm -f "$d/n.o" "$d/k.o" "$d/n.opt" "$d/k.opt"
	echo "$f" > "$d/file"
	exit 0
fi

[ $# -ge 5 ] || { echo "usage: parity.sh CC KPLUG_SO OPT WORKDIR FILE..." >&2; exit 2; }
cc=$1 so=$2 opt=$3 work=$4
shift 4
rm -rf "$work"
mkdir -p "$work"
printf '%s\n' "$@" | xargs -d '\n' -P "${PARITY_JOBS:-2}" -n 1 \
	nice bash "$0" --one "$cc" "$so" "$opt" "$work"

perl -e '
	my ($work, $float) = @ARGV;
	my ($files, $dropped, $kfail, $fns, $bad, $njmp, $kjmp) = (0) x 7;
	my (%ntot, %ktot, @diff);
	for my $d (glob "$work/*") {
		if (-e "$d/dropped") { $dropped++; next; }
		if (-e "$d/kfail") {
			$kfail++;
			open my $f, "<", "$d/kfail"; my $n = <$f>; chomp $n;
			push @diff, "kplug failed where native compiled: $n";
			next;
		}
		next unless -e "$d/file";
		$files++;
		my %c;
		for my $x ("n", "k") {
			open my $f, "<", "$d/$x.cnt" or die;
			while (<$f>) {
				my ($fn, $cb, $n) = split;
				$c{$fn}{$x}{$cb} = $n;
				next if $cb eq "-";
				($x eq "n" ? $ntot{$cb} : $ktot{$cb}) += $n;
			}
			open $f, "<", "$d/$x.jmp" or die;
			my $j = <$f>;
			$x eq "n" ? ($njmp += $j) : ($kjmp += $j);
		}
		open my $f, "<", "$d/file"; my $name = <$f>; chomp $name;
		for my $fn (sort keys %c) {
			$fns++;
			my %cb = (%{$c{$fn}{n} // {}}, %{$c{$fn}{k} // {}});
			for my $cb (sort grep { $_ ne "-" } keys %cb) {
				next if !$float && $cb =~ /^trace_cmp[fd]$/ &&
					!($c{$fn}{k}{$cb} // 0);
				my ($a, $b) = ($c{$fn}{n}{$cb} // 0, $c{$fn}{k}{$cb} // 0);
				next if $a == $b;
				$bad++;
				push @diff, "$name: $fn: $cb native $a kplug $b";
				last;
			}
		}
	}
	my $tot = join " ", map { "$_=" . ($ntot{$_} // 0) . "/" . ($ktot{$_} // 0) }
		sort keys %{{ %ntot, %ktot }};
	print "$_\n" for @diff[0 .. ($#diff < 19 ? $#diff : 19)];
	printf "files %d (dropped %d, kplug failures %d) functions %d differing %d; " .
	       "jmp to callbacks: native %d kplug %d; callbacks native/kplug: %s\n",
	       $files, $dropped, $kfail, $fns, $bad, $njmp, $kjmp, $tot;
	exit(($bad || $kfail || $kjmp || !$files) ? 1 : 0);
' "$work" "${PARITY_FLOAT:-0}"
