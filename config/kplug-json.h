/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one JSON string escaper of kplug: the plugin's JSON Lines writer
 * (passes/cyc_complexity.c) and tools/kplug-report both use it.  No GCC
 * header, like all of config/.
 */
#ifndef KPLUG_JSON_H
#define KPLUG_JSON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the escaped bytes go: PUT(CTX, BYTES, N), called with runs of bytes. */
typedef void (*kplug_json_put)(void *ctx, const char *s, size_t n);

/*
 * S as a JSON string, quotes included: '"' and '\\' get a backslash, the
 * control characters below 0x20 become \u00XX, valid UTF-8 is copied and
 * each byte that is not part of valid UTF-8 becomes U+FFFD, so the output
 * is valid UTF-8 whatever S holds.  A NULL S is written as "".
 */
void kplug_json_str(kplug_json_put put, void *ctx, const char *s);

#ifdef __cplusplus
}
#endif

#endif
