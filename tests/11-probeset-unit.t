# Unit tests of passes/probeset.c and probeset-segs.c (sancov-prune's probe placement and
# inference): built without any GCC header, run under ASan/UBSan.
. "$(dirname "$0")/lib.sh"
bin=$OUT/test_probeset
if ! gcc -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -Wall -Wextra \
	-I"$TOP" -o "$bin" "$TOP/tests/unit/test_probeset.c" "$TOP/passes/probeset.c" \
	"$TOP/passes/probeset-segs.c" >&2; then
	echo "1..1"; echo "not ok 1 - build the probeset unit tests"; exit 1
fi
exec "$bin"
