#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Clang's coverage modes against kplug's trace-pc, per object.
#
#   abicount.sh CC KPLUG_SO OPT WORKDIR FILE...
#
# Each FILE is compiled at OPT with kplug's sancov in trace=pc, and in
# pc-guard, inline-8bit-counters and inline-bool-flag, each with
# pc-table=on.  Per function, the pc-guard calls kplug's pass inserted (in
# its dump, -fdump-tree-all: calls of the placeholder __kplug_sancov_point,
# which gets its argument and the callback's name after register
# allocation) must equal the __sanitizer_cov_trace_pc calls it inserts in
# trace=pc.  In each mode's object (x86: objdump), S, the sites of the
# final code (calls to __sanitizer_cov_trace_pc_guard; relocations of the
# counter or flag array in code, one per increment or store), must equal:
#   - the size of __sancov_guards / __sancov_cntrs / __sancov_bools divided
#     by the element size (4, 1, 1): one element per site, as Clang gives,
#     however the optimisers copied or deleted the points' code;
#   - the size of __sancov_pcs divided by 16, and its relocations (one PC
#     each); each function's table (from its entry, flag 1, whose PC is the
#     function, to the next) has as many entries as the function has sites;
# in the pc-guard object the instruction right before each guard call
# loads a __sancov_guards address into %rdi; and .init_array.00002 holds
# one constructor when the pass inserted points (none or one without: the
# decision is taken before the optimisers run).
# Files that kplug's trace=pc cannot compile are dropped (reported); every
# mode must compile all the others.  ABICOUNT_KFLAGS adds kplug flags to the
# Clang modes (the self-test breaks them on purpose with it).
# Prints differences (at most 20) and one summary line; exit 0 only when
# everything is equal.
set -u
here=$(cd "$(dirname "$0")" && pwd)

# count_calls DUMP... : "FUNCTION CALLBACK COUNT" lines, FUNCTION being
# the assembler name (a nested f is "f.0" in the object)
count_calls() {
	perl -ne '
		if (/^;; Function \S+ \((\S+?),/) { $fn = $1; $n{"$fn -"} //= 0; next }
		next unless defined $fn;
		$n{"$fn $1"}++ while /(?:__builtin_)?__sanitizer_cov_(\w+) \(/g;
		$n{"$fn trace_pc_guard"}++ while /__kplug_sancov_point \(/g;
		END { print "$_ $n{$_}\n" for sort keys %n }' "$@"
}
# pass_dumps DIR: the dumps of kplug's sancov pass (not of its untail pass)
pass_dumps() { find "$1" -regex '.*\.kplug_sancov[0-9]*' | sort; }

# call_sites OBJ: "CALLS TRACE_PC_GUARD-CALLS WITH-ARGUMENT" from objdump
# (x86): calls to __sanitizer_cov_trace_pc, to
# __sanitizer_cov_trace_pc_guard, and those of the latter whose previous
# instruction is a lea/mov of a __sancov_guards address into %rdi
call_sites() {
	objdump -dr --no-show-raw-insn "$1" | awk '
		/^ +[0-9a-f]+:\t/ { prev = cur; prev_rel = cur_rel; cur = $0; cur_rel = ""; next }
		/^\t+[0-9a-f]+: R_/ { cur_rel = $3 }
		/R_[A-Z0-9_]+\t__sanitizer_cov_trace_pc-/ { pc++ }
		/R_[A-Z0-9_]+\t__sanitizer_cov_trace_pc_guard-/ {
			g++
			if (prev ~ /\t(lea|mov)[a-z]* .*,%[re]di( |$)/ && prev_rel ~ /^__sancov_guards([-+]|$)/) arg++
		}
		END { print pc + 0, g + 0, arg + 0 }'
}

# sites OBJ MODE: "TOTAL NAME:SITES,..." (functions with sites, sorted; a
# function's .cold part counts as the function: one PC table covers both)
sites() {
	local pat list
	case $2 in
	pc) pat='R_[A-Z0-9_]+\t__sanitizer_cov_trace_pc-' ;;
	pc-guard) pat='R_[A-Z0-9_]+\t__sanitizer_cov_trace_pc_guard-' ;;
	inline-8bit-counters) pat='R_[A-Z0-9_]+\t__sancov_cntrs([-+]|$)' ;;
	*) pat='R_[A-Z0-9_]+\t__sancov_bools([-+]|$)' ;;
	esac
	list=$(objdump -dr --no-show-raw-insn "$1" | awk -v pat="$pat" '
		/^[0-9a-f]+ <[^>]+>:$/ { fn = $2; sub(/^</, "", fn); sub(/>:$/, "", fn)
					 sub(/\.cold$/, "", fn); next }
		$0 ~ pat { n[fn]++ }
		END { for (f in n) print f ":" n[f] }' | LC_ALL=C sort -t: -k1,1 | paste -sd,)
	echo "$(tr ',' '\n' <<<"$list" | awk -F: '{ t += $2 } END { print t + 0 }') ${list:--}"
}

# elf_facts OBJ SECTION ELTSIZE (tests/sancov/elffacts.pl)
elf_facts() { perl "$here/elffacts.pl" "$@"; }

one() {	# one CC SO OPT WORKDIR FILE
	local cc=$1 so=$2 opt=$3 work=$4 f=$5 d k m
	d=$work/$(basename "${f%.c}")_$(printf '%s' "$f" | cksum | cut -d' ' -f1)
	mkdir -p "$d/pc" "$d/guard"
	k="-fplugin=$so -fplugin-arg-kplug-enable=sancov"
	if ! $cc $opt -w -c "$f" -o "$d/pc.o" $k -fdump-tree-all -dumpdir "$d/pc/" \
		-fdump-tree-optimized="$d/pc.opt" >/dev/null 2>&1; then
		echo "$f" > "$d/dropped"
		rm -rf "$d/pc" "$d/guard"
		return
	fi
	touch "$d/pc.opt"
	call_sites "$d/pc.o" > "$d/pc.sites"
	sites "$d/pc.o" pc > "$d/pc.fnsites"
	count_calls $(pass_dumps "$d/pc") /dev/null > "$d/pc.pass"
	count_calls "$d/pc.opt" > "$d/pc.cnt"
	rm -rf "$d/pc"
	for m in pc-guard inline-8bit-counters inline-bool-flag; do
		local extra=""
		[ $m = pc-guard ] && extra="-fdump-tree-all -dumpdir $d/guard/ -fdump-tree-optimized=$d/guard.opt"
		# shellcheck disable=SC2086
		if ! $cc $opt -w -c "$f" -o "$d/$m.o" $k -fplugin-arg-kplug-sancov-trace=$m \
			-fplugin-arg-kplug-sancov-pc-table=on ${ABICOUNT_KFLAGS:-} $extra \
			>"$d/$m.err" 2>&1; then
			echo "$m: $(head -1 "$d/$m.err")" >> "$d/kfail"
			continue
		fi
		sites "$d/$m.o" $m > "$d/$m.sites"
		case $m in
		pc-guard) elf_facts "$d/$m.o" __sancov_guards 4 > "$d/$m.elf"
			call_sites "$d/$m.o" > "$d/guard.sites" ;;
		inline-8bit-counters) elf_facts "$d/$m.o" __sancov_cntrs 1 > "$d/$m.elf" ;;
		*) elf_facts "$d/$m.o" __sancov_bools 1 > "$d/$m.elf" ;;
		esac
		rm -f "$d/$m.o"
	done
	if [ -f "$d/guard.opt" ] || [ -d "$d/guard" ]; then
		touch "$d/guard.opt"
		count_calls $(pass_dumps "$d/guard") /dev/null > "$d/guard.pass"
		count_calls "$d/guard.opt" > "$d/guard.cnt"
	fi
	rm -rf "$d/guard" "$d/pc.o"
	echo "$f" > "$d/file"
}

. "$(dirname "$0")/batch.sh"
batch_main abicount.sh "${ABICOUNT_JOBS:-2}" 10 "$@"

perl - "$work" <<'PERL'
use strict;
use warnings;
my ($work) = @ARGV;
my ($files, $dropped, $bad, $points, $fns) = (0) x 5;
my (@diff, @opt, @sites);

sub lines { open my $f, "<", $_[0] or return (); my @l = <$f>; chomp @l; @l }
# "FN CALLBACK COUNT" lines: FN => count of CALLBACK
sub per_fn {
	my ($path, $cb) = @_;
	my %c;
	for (lines($path)) {
		my ($fn, $what, $n) = split;
		$c{$fn} //= 0;
		$c{$fn} += $n if $what eq $cb;
	}
	return \%c;
}
sub diff { push @diff, "$_[0]: $_[1]"; $bad++; }

for my $d (sort glob "$work/*") {
	if (-e "$d/dropped") { $dropped++; next; }
	next unless -e "$d/file";
	my ($name) = lines("$d/file");
	$files++;
	if (-e "$d/kfail") { diff($name, $_) for lines("$d/kfail"); next; }
	my $pc = per_fn("$d/pc.pass", "trace_pc");
	my $n = 0;
	$n += $_ for values %$pc;
	my @with = sort grep { $pc->{$_} } keys %$pc;
	$points += $n;
	$fns += @with;
	# the pass dump: pc-guard calls per function = trace_pc calls
	my $guard = per_fn("$d/guard.pass", "trace_pc_guard");
	for my $fn (sort keys %{{ %$pc, %$guard }}) {
		my ($a, $b) = ($pc->{$fn} // 0, $guard->{$fn} // 0);
		diff($name, "$fn: pass inserted trace_pc $a, pc_guard $b") if $a != $b;
	}
	# the optimized dump: what later passes left, the same calls
	my ($po, $go) = (per_fn("$d/pc.cnt", "trace_pc"), per_fn("$d/guard.cnt", "trace_pc_guard"));
	$opt[0] += $_ for values %$po;
	$opt[1] += $_ for values %$go;
	# the objects: every guard call with its argument (the call sites are
	# reported: the optimisers may copy a block with a placeholder call
	# differently from one with the trace_pc builtin, rarely)
	my ($pc_sites) = split / /, (lines("$d/pc.sites"))[0] // "-1";
	my (undef, $g, $arg) = split / /, (lines("$d/guard.sites"))[0] // "-1 -1 -1";
	diff($name, "objects: no guard call") if $g <= 0 && $pc_sites > 0;
	diff($name, "objects: $arg of $g guard calls get a __sancov_guards address in %rdi just before") if $arg != $g;
	$sites[0] += $pc_sites;
	$sites[1] += $g;
	$sites[2] += $arg;
	for my $m (qw(pc-guard inline-8bit-counters inline-bool-flag)) {
		my ($facts) = lines("$d/$m.elf");
		my ($ent, $pcs, $rel, $flag1, $ctors, $extra) = split / /, $facts, 6;
		my ($s, $want) = split / /, (lines("$d/$m.sites"))[0] // "-1 ?";
		diff($name, "$m: $extra") if defined $extra;
		diff($name, "$m: $ent elements, $s sites") if $ent != $s;
		diff($name, "$m: $pcs pc-table entries, $s sites") if $pcs != $s;
		diff($name, "$m: $rel pc-table relocations, $s sites") if $rel != $s;
		diff($name, "$m: pc table per function $flag1, sites per function $want")
			if $flag1 ne $want;
		# the functions with sites are trace_pc's
		my $fns_m = join(",", map { s/:.*//r } split /,/, $want);
		my $fns_pc = join(",", map { s/:.*//r } split /,/,
				  (split / /, (lines("$d/pc.fnsites"))[0] // "0 ?")[1]);
		diff($name, "$m: functions with sites $fns_m, with trace_pc calls $fns_pc")
			if $fns_m ne $fns_pc;
		# one when there are points; none or one without (a function the
		# optimisers leave without any point still counts)
		diff($name, "$m: $ctors constructors for $n points") if $ctors > 1 || ($n && !$ctors);
	}
}
print "$_\n" for @diff[0 .. ($#diff < 19 ? $#diff : 19)];
printf "files %d (dropped %d) functions-with-points %d points %d differing %d; " .
	"calls left in the optimized dumps: trace_pc %d pc_guard %d; " .
	"call sites in the objects: trace_pc %d pc_guard %d, with argument %d\n",
	$files, $dropped, $fns, $points, $bad, $opt[0] // 0, $opt[1] // 0,
	$sites[0] // 0, $sites[1] // 0, $sites[2] // 0;
exit(($bad || !$files) ? 1 : 0);
PERL
