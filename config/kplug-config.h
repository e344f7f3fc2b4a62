/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kplug option and ini profile handling.
 *
 * This code includes no GCC header: it is built into kplug.so, into the
 * unit tests and into the fuzzer alike.  Every function that can fail
 * writes one complete "kplug: ..." line (without newline) into the
 * config's error buffer and returns -1.
 *
 * Precedence, lowest first:
 *   1. the defaults of each pass option;
 *   2. -fplugin-arg-kplug-default-KEY=VALUE arguments (KEY: enable,
 *      disable or PASS-OPTION), in command-line order: defaults a build
 *      system sets and a profile refines;
 *   3. ini sections [kplug] and [PASS], in file order;
 *   4. ini sections [path:GLOB] whose GLOB matches the input file, in file
 *      order (the last match wins);
 *   5. -fplugin-arg-kplug-* arguments, in command-line order.
 * enable/disable are operations applied in that same order.
 *
 * Then the hard gates, command-line only, which no layer can lift:
 *   -fplugin-arg-kplug-forbid=PASS[,PASS] and -permit=PASS[,PASS] (the
 *   last one naming a pass decides): a forbidden pass stays off whatever
 *   enabled it;
 *   -fplugin-arg-kplug-limit-PASS-OPTION=VALUE[,VALUE] (on/off and choice
 *   options; the last one wins): a resolved value outside the limit is an
 *   error naming where the value came from, for a pass that ends up
 *   enabled (a pass that is off is not checked against its limits).
 */
#ifndef KPLUG_CONFIG_H
#define KPLUG_CONFIG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kplug_opt_type {
	KPLUG_OPT_STR,		/* any non-empty string */
	KPLUG_OPT_INT,		/* decimal integer in [min, max] */
	KPLUG_OPT_BOOL,		/* on/off, yes/no, true/false, 1/0 */
	KPLUG_OPT_ENUM,		/* exactly one of choices */
	KPLUG_OPT_SET,		/* comma-separated subset of choices */
	KPLUG_OPT_LIST,		/* comma-separated strings; accumulates */
};

struct kplug_opt {
	const char *key;	/* without the pass prefix: "min" */
	enum kplug_opt_type type;
	const char *def;	/* default, in the option's own syntax; NULL: unset */
	const char *choices;	/* ENUM and SET: "a,b,c" */
	long min, max;		/* INT */
	const char *help;
};

/* The GCC-free half of a pass descriptor. */
struct kplug_pass_info {
	const char *name;
	const char *help;
	const struct kplug_opt *opts;	/* terminated by an entry with key NULL */
};

struct kplug_config;

struct kplug_config *kplug_config_new(const struct kplug_pass_info *const *passes,
				      int npasses);
void kplug_config_free(struct kplug_config *cfg);

/* The last error, one line starting with "kplug: ". */
const char *kplug_config_error(const struct kplug_config *cfg);

/*
 * Collect one -fplugin-arg-kplug-KEY[=VALUE] (value may be NULL).
 * KEY "config" loads an ini file at once.  Everything is validated here.
 */
int kplug_config_add_arg(struct kplug_config *cfg, const char *key,
			 const char *value);

/* Collect every setting of an ini profile. */
int kplug_config_load_ini(struct kplug_config *cfg, const char *path);

/*
 * The same for a profile held in memory (LEN bytes of TEXT, e.g. the one
 * embedded in kplug.so); NAME stands for it in messages ("NAME:LINE: ...").
 */
int kplug_config_load_ini_mem(struct kplug_config *cfg, const char *name,
			      const char *text, size_t len);

/*
 * Apply what was collected, in precedence order, for the translation unit
 * whose main input file is INPUT (may be NULL: no path section matches),
 * then the gates.  Fails when a value is outside its limit.
 */
int kplug_config_resolve(struct kplug_config *cfg, const char *input);

/*
 * Where the first setting of a [path:GLOB] section was given ("f.ini:3";
 * its GLOB in *GLOB), or NULL when no setting depends on the input's path.
 */
const char *kplug_config_path_origin(const struct kplug_config *cfg,
				     const char **glob);

/*
 * Resolve relative paths (the input, root=) against DIR, the directory the
 * unit was compiled in, instead of the current directory (NULL: back to
 * getcwd()).  Call before resolve.
 */
void kplug_config_set_cwd(struct kplug_config *cfg, const char *dir);

/*
 * Whether matching INPUT to [path:] sections depends on the directory the
 * unit was compiled in: one of INPUT and the root is absolute, the other
 * relative (both relative, or both absolute, match anywhere).
 */
int kplug_config_needs_cwd(const struct kplug_config *cfg, const char *input);

/* After resolve: the input path that [path:GLOB] sections were matched to. */
const char *kplug_config_match_path(const struct kplug_config *cfg);

/* Getters, valid after resolve.  PASS is an index into the pass table. */
int kplug_config_enabled(const struct kplug_config *cfg, int pass);
const char *kplug_config_str(const struct kplug_config *cfg, int pass,
			     const char *key);
long kplug_config_int(const struct kplug_config *cfg, int pass,
		      const char *key);
/* BOOL: 0/1; ENUM: index into choices; SET: bit mask of choices. */
#define kplug_config_bool kplug_config_int
#define kplug_config_enum kplug_config_int
#define kplug_config_set kplug_config_int
/* Where the value came from: "default", "-fplugin-arg-kplug-...", "f.ini:3". */
const char *kplug_config_origin(const struct kplug_config *cfg, int pass,
				const char *key);

/* Call FN for each trimmed item of a comma-separated list; stops on non-zero. */
int kplug_list_foreach(const char *list, int (*fn)(const char *item, void *arg),
		       void *arg);

/* Index of CHOICE in the comma-separated CHOICES, or -1. */
int kplug_choice_index(const char *choices, const char *choice, size_t len);

#ifdef __cplusplus
}
#endif

#endif
