#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug's sancov against native -fsanitize-coverage on real kernel
# translation units (Linux, x86_64 tinyconfig; bench/lib.sh):
#  - cc1 work (callgrind instruction counts of cc1 alone), kplug sancov
#    against native trace-pc, target <= 1.02;
#  - .text size of the objects: kplug with sancov-tailcall=on must equal
#    native exactly; kplug's default (no tail calls) is shown beside it,
#    with the number of tail-called callbacks (native/kplug);
#  - per-function parity with trace-pc,trace-cmp in the optimized dump
#    (functions in .noinstr.text, which kplug leaves alone, are counted
#    apart).
# Usage: bench/sancov.sh   (KPLUG_BENCH_OBJS="a.o b.o" to pick objects)
. "$(dirname "$0")/lib.sh"
[ -f "$KPLUG" ] || { echo "bench: build kplug.so first (make)" >&2; exit 2; }
KPLUG=$(bench_plugin) || exit 2
objtree=$(bench_objtree) || { echo "bench: cannot prepare kernel tree" >&2; exit 2; }

NATIVE="-fsanitize-coverage=trace-pc"
KSAN="-fplugin=$KPLUG -fplugin-arg-kplug-enable=sancov"
KTAIL="$KSAN -fplugin-arg-kplug-sancov-tailcall=on"
o=$OUT/bench-sancov.o

# compile CMD FLAGS...: the object to $o
compile() {
	local cmd=$1
	shift
	(cd "$objtree" && eval "${cmd/ -o $OUT\/bench.o/ -o $o} $*") >/dev/null 2>&1
}

# text CMD FLAGS...: .text bytes and jumps to callbacks of one object
text() {
	compile "$@" || return 1
	echo "$(size -A "$o" | awk '$1 == ".text" { print $2 }')" \
	     "$(objdump -dr --no-show-raw-insn "$o" | awk '/^ +[0-9a-f]+:\t/ { insn = $2 }
		/R_[A-Z0-9_]+\t__sanitizer_cov_/ { if (insn ~ /^j/) j++ } END { print j + 0 }')"
}

# parity CMD: "FUNCTIONS DIFFERING NOINSTR" with trace-pc,trace-cmp
parity() {
	compile "$1" -fsanitize-coverage=trace-pc,trace-cmp \
		-fdump-tree-optimized="$OUT/bench-sancov.n" || return 1
	compile "$1" $KSAN -fplugin-arg-kplug-sancov-trace=pc,cmp \
		-fdump-tree-optimized="$OUT/bench-sancov.k" || return 1
	perl -e '
		sub count {
			my (%c, %noinstr, $fn);
			open my $f, "<", $_[0] or die;
			while (<$f>) {
				if (/^;; Function (\S+) /) { $fn = $1; $c{$fn} //= ""; next; }
				next unless defined $fn;
				$noinstr{$fn} = 1 if /^__attribute__.*section \("\.noinstr\.text"\)/;
				$c{$fn} .= "$1," while /__sanitizer_cov_(\w+) \(/g;
			}
			$c{$_} = join ",", sort split /,/, $c{$_} for keys %c;
			return (\%c, \%noinstr);
		}
		my ($n, $ni) = count($ARGV[0]);
		my ($k) = count($ARGV[1]);
		my ($fns, $diff, $noinstr) = (0, 0, 0);
		for (keys %{{ %$n, %$k }}) {
			$fns++;
			if ($ni->{$_}) { $noinstr++; next; }
			$diff++ if ($n->{$_} // "?") ne ($k->{$_} // "?");
		}
		print "$fns $diff $noinstr\n";
	' "$OUT/bench-sancov.n" "$OUT/bench-sancov.k"
}

printf '%-16s %14s %14s %7s | %8s %8s %8s %6s | %s\n' object "native cc1" "kplug cc1" ratio \
	native tailcall kplug jmp "functions (differing, noinstr)"
sum_n=0 sum_k=0 fail=0
for obj in $BENCH_OBJS; do
	cmd=$(bench_cmd "$obj" "$objtree")
	n=$(callgrind_cc1 "$objtree" "$cmd" $NATIVE) || exit 2
	k=$(callgrind_cc1 "$objtree" "$cmd" $KSAN) || exit 2
	read -r tn jn <<< "$(text "$cmd" $NATIVE)" || exit 2
	read -r tt jt <<< "$(text "$cmd" $KTAIL)" || exit 2
	read -r tk jk <<< "$(text "$cmd" $KSAN)" || exit 2
	read -r pf pd pn <<< "$(parity "$cmd")" || exit 2
	printf '%-16s %14d %14d %7s | %8d %8d %8d %6s | %d (%d, %d)\n' "$obj" "$n" "$k" \
		"$(ratio "$k" "$n")" "$tn" "$tt" "$tk" "$jn/$jk" "$pf" "$pd" "$pn"
	[ "$tn" = "$tt" ] && [ "$jk" = 0 ] && [ "$pd" = 0 ] || fail=1
	sum_n=$((sum_n + n)) sum_k=$((sum_k + k))
done
r=$(ratio "$sum_k" "$sum_n")
echo "cc1 work ratio, kplug sancov / native trace-pc: $r (target <= 1.02)"
echo ".text bytes: native, kplug sancov-tailcall=on (must equal native), kplug default;" \
	"jmp: tail-called callbacks native/kplug"
awk -v r="$r" 'BEGIN { exit !(r <= 1.02) }' || fail=1
exit $fail
