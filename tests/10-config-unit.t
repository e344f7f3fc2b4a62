# Unit tests of config/: built without any GCC header (every config/*.c, as
# kplug.so links them), run under ASan/UBSan.
. "$(dirname "$0")/lib.sh"
bin=$OUT/test_config
if ! gcc -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -Wall -Wextra \
	-I"$TOP" -o "$bin" "$TOP/tests/unit/test_config.c" "$TOP"/config/*.c \
	"$(gcc -print-file-name=libinih.a)" >&2; then
	echo "1..1"; echo "not ok 1 - build the config unit tests"; exit 1
fi
exec "$bin"
