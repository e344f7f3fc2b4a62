/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of config/ share behind kplug-config.h: the settings
 * recorded from arguments and profiles, the values they resolve to, and
 * the functions one concern calls in another.  No GCC header.
 *
 *   kplug-config.c   the configuration's lifetime and its getters
 *   config-error.c   the one "kplug: ..." error line
 *   options.c        the pass and option table; values in an option's syntax
 *   settings.c       recording -fplugin-arg-kplug-* and profile settings
 *   ini-reader.c     kplug's ini dialect, read through inih
 *   layers.c         defaults and the precedence layers, applied by resolve
 *   gates.c          forbid, permit and limit-*: recorded, applied last
 *   path-match.c     the input path that [path:GLOB] globs are matched to
 */
#ifndef KPLUG_CONFIG_INTERNAL_H
#define KPLUG_CONFIG_INTERNAL_H

#include <stddef.h>

#include "kplug-config.h"

/* The precedence layers, lowest first; resolve applies them in this order. */
enum layer {
	LAYER_DEFAULT,		/* -fplugin-arg-kplug-default-* */
	LAYER_INI,		/* [kplug] and [PASS] sections */
	LAYER_INI_PATH,		/* [path:GLOB] sections */
	LAYER_ARG,		/* -fplugin-arg-kplug-* */
	LAYER_GATE,		/* forbid, permit, limit-*: applied last */
};

/* A key that names no pass option. */
enum global_key {
	KEY_NONE,		/* not a global key: PASS-OPTION */
	KEY_ENABLE,
	KEY_DISABLE,
	KEY_ROOT,
	KEY_FORBID,		/* LAYER_GATE only */
	KEY_PERMIT,		/* LAYER_GATE only */
};

/* One option of the pass table: cfg->passes[pass]->opts[opt]. */
struct option_ref {
	int pass;
	int opt;
};

/* What a setting names; the tag says which member of u holds. */
enum target_kind {
	TARGET_OPTION,		/* a value of a pass option: u.option */
	TARGET_LIMIT,		/* the values a pass option may take: u.limit */
	TARGET_GLOBAL,		/* enable, disable, root, forbid, permit: u.global */
};

struct setting_target {
	enum target_kind kind;
	union {
		struct option_ref option;
		struct {
			struct option_ref option;
			long allowed;	/* bit i: choice i (BOOL: 0 off, 1 on) */
		} limit;
		enum global_key global;
	} u;
};

/*
 * One validated setting, recorded in the order given; it lives as long as
 * the configuration.  A TARGET_LIMIT setting and a TARGET_GLOBAL forbid or
 * permit are in LAYER_GATE, and nothing else is.
 */
struct setting {
	enum layer layer;
	struct setting_target target;
	char *value;
	char *origin;		/* "-fplugin-arg-kplug-KEY=VALUE" or "f.ini:3" */
	char *glob;		/* LAYER_INI_PATH only */
	struct setting *next;
};

/* The resolved value of one option; rewritten by every resolve. */
struct value {
	const char *str;	/* points into a setting, a default or owned */
	char *owned;		/* an accumulated list */
	long num;
	const char *origin;
};

struct kplug_config {
	/* the pass table, as given to kplug_config_new() */
	const struct kplug_pass_info *const *passes;
	int npasses;
	int *nopts;		/* [pass]: options of that pass */
	/* every setting recorded, in order: until kplug_config_free() */
	struct setting *head, **tail;
	char *cwd;		/* the unit's working directory, or NULL: getcwd() */
	/* the result of the last resolve: rewritten by the next one */
	struct value **values;	/* [pass][opt] */
	int *enabled;		/* [pass] */
	int *forbidden;		/* [pass] */
	char *match_path;	/* what [path:GLOB] globs matched, or NULL */
	char *err;		/* the last error line, or NULL */
};

/* config-error.c: replace cfg->err with "kplug: FMT"; returns -1. */
int config_error(struct kplug_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* options.c */
const char *skip_space(const char *s);
int find_pass(const struct kplug_config *cfg, const char *name, size_t len);
int find_opt(const struct kplug_config *cfg, int pass, const char *key);
int find_pass_option(struct kplug_config *cfg, const char *key,
		     const char *what, struct option_ref *ref);
const struct kplug_opt *option_of(const struct kplug_config *cfg,
				  const struct option_ref *ref);
struct value *value_of(const struct kplug_config *cfg,
		       const struct option_ref *ref);
char *pass_names(const struct kplug_config *cfg);
int check_pass_list(struct kplug_config *cfg, const char *list,
		    const char *what);
void set_listed_passes(struct kplug_config *cfg, int *flags, const char *list,
		       int on);
int parse_bool(const char *s);
int parse_option_value(struct kplug_config *cfg, const struct kplug_opt *opt,
		       const char *name, const char *value, const char *what,
		       long *num);
const char *choice_name(const struct kplug_opt *o, int idx, char *buf,
			size_t len);

/* settings.c */
enum global_key parse_global_key(const char *key);
void append_setting(struct kplug_config *cfg, enum layer layer,
		    const struct setting_target *target, const char *value,
		    const char *origin, const char *glob);
int record_setting(struct kplug_config *cfg, enum layer layer,
		   const char *key, const char *value, const char *what,
		   const char *glob);
void free_settings(struct kplug_config *cfg);

/* layers.c */
void reset_to_defaults(struct kplug_config *cfg);

/* gates.c */
int record_pass_gate(struct kplug_config *cfg, const char *key,
		     const char *value, const char *what);
int record_limit(struct kplug_config *cfg, const char *key,
		 const char *value, const char *what);
int apply_gates(struct kplug_config *cfg);

/* path-match.c */
void match_input(struct kplug_config *cfg, const char *input);
int setting_matches_path(const struct kplug_config *cfg,
			 const struct setting *s);

#endif
