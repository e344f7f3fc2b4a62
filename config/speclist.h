/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Special case lists in Clang's format, for sancov's allow and ignore
 * lists, plus globs given inline in an ini profile.
 *
 * This code includes no GCC header: it is unit-tested and fuzzed alone.
 *
 * Format (Clang's "sanitizer special case list"):
 *   # comment                  empty lines and '#' lines are skipped
 *   [GLOB]                     a section: the entries below it apply only
 *                              when GLOB matches "coverage"; entries before
 *                              the first section apply always
 *   src:GLOB                   the translation unit's source file
 *   fun:GLOB                   a function name
 *   src:GLOB=CATEGORY          an entry with a category: Clang's coverage
 *                              lists use none, so it never matches
 * Leading and trailing blanks of a line are ignored.  GLOBs are fnmatch(3)
 * patterns without FNM_PATHNAME ('*' matches '/' too), as in Clang 18+.
 *
 * Every function that can fail writes one "kplug: ..." line (no newline)
 * into the list's error buffer and returns -1.  The API is stable.
 */
#ifndef KPLUG_SPECLIST_H
#define KPLUG_SPECLIST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kplug_spec_kind {
	KPLUG_SPEC_SRC,		/* "src:" */
	KPLUG_SPEC_FUN,		/* "fun:" */
	KPLUG_SPEC_NKINDS
};

struct kplug_speclist;

struct kplug_speclist *kplug_speclist_new(void);
void kplug_speclist_free(struct kplug_speclist *sl);

/* The last error, one line starting with "kplug: ". */
const char *kplug_speclist_error(const struct kplug_speclist *sl);

/*
 * Parse LEN bytes of list text (need not be NUL-terminated; a NUL byte is
 * an error).  NAME names the text in errors: "NAME:LINE: ...".
 * Entries are added to those already in SL.
 */
int kplug_speclist_parse(struct kplug_speclist *sl, const char *name,
			 const char *text, size_t len);

/* Read and parse the file PATH. */
int kplug_speclist_load(struct kplug_speclist *sl, const char *path);

/* Add one GLOB of KIND given inline; ORIGIN names it in errors. */
int kplug_speclist_add(struct kplug_speclist *sl, enum kplug_spec_kind kind,
		       const char *glob, const char *origin);

/* Number of (applicable) entries of KIND. */
int kplug_speclist_count(const struct kplug_speclist *sl,
			 enum kplug_spec_kind kind);

/* 1 if some applicable entry of KIND matches NAME, else 0. */
int kplug_speclist_match(const struct kplug_speclist *sl,
			 enum kplug_spec_kind kind, const char *name);

#ifdef __cplusplus
}
#endif

#endif
