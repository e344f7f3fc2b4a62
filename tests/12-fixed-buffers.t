# No fixed buffer may cut a value silently in config/, passes/, compat/ or
# kplug.c: every fixed-size char array there is listed below with the
# reason its content always fits.  A new one fails this test until it is
# justified here (or, better, grows with its value).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# file array[size]                          why it always fits
allowed='
compat/version-check.c built[128]           "GCC %s (%s %s)" of the GCC basever, datestamp, devphase: under 40
compat/version-check.c loaded[128]          the same, of the GCC that loaded kplug
config/gates.c name[64]                     a choice of an option table (compile-time names, under 20)
config/kplug-json.c esc[2]                  two characters
config/kplug-json.c esc[6]                  "\u%04x" of a byte: six characters
config/kplug-json.c hex[]                   a constant
config/kplug-util.h prefix[]                a constant
config/speclist.c q[SPEC_QUOTE_MAX+1]       a culprit quoted on purpose: at most 64 bytes, cut ones end in "..."
passes/cyc_complexity.c opt[16]             "O%d" of an int: at most 12
passes/cyc_complexity.c run[48]             "%lx-%lx": at most 33
passes/cyc_complexity.c name[CYC_MAX_MACROS] 32 macro names; more are counted visibly as "(other)"
passes/sancov.c name[64]                    ASM_GENERATE_INTERNAL_LABEL of LCASEARRAY and an unsigned
passes/sancov-abi.c name[32]                ASM_GENERATE_INTERNAL_LABEL of LSANCOV and an unsigned: under 24
passes/sancov-abi.c name[64]                "__start_" or "__stop_" and a constant section name: under 30
passes/sancov-map.c b[64]                   ASM_GENERATE_INTERNAL_LABEL of LKPSB/LKPSE and an int: under 24
passes/sancov-map.c buf[64]                 ASM_GENERATE_INTERNAL_LABEL of "L" and an int: under 24
passes/sancov-map.c map_callbacks[2]        two pointers, not characters'

found=$(perl -ne 'while (/\bchar\s+\**(\w+)\s*\[([^\]]*)\]/g) { my ($n, $s) = ($1, $2);
	$s =~ s/\s//g; print "$ARGV $n\[$s]\n" }' \
	config/*.[ch] passes/*.c compat/*.[ch] kplug.c kplug.h | sort -u)
want=$(echo "$allowed" | awk 'NF { print $1, $2 }' | sort -u)
is "$found" "$want" "every fixed char array in the plugin's sources is justified"
done_testing
