// SPDX-License-Identifier: GPL-2.0
/*
 * kplug option and ini profile handling; see kplug-config.h.
 *
 * Settings are collected first (and validated as they come), then applied
 * in precedence order by kplug_config_resolve().
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ini.h>

#include "kplug-config.h"
#include "kplug-util.h"

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
 * A TARGET_LIMIT setting and a TARGET_GLOBAL forbid or permit are in
 * LAYER_GATE, and nothing else is.
 */
struct setting {
	enum layer layer;
	struct setting_target target;
	char *value;
	char *origin;
	char *glob;		/* LAYER_INI_PATH only */
	struct setting *next;
};

struct value {
	const char *str;	/* points into a setting, a default or owned */
	char *owned;		/* an accumulated list */
	long num;
	const char *origin;
};

struct kplug_config {
	const struct kplug_pass_info *const *passes;
	int npasses;
	struct setting *head, **tail;
	struct value **values;	/* [pass][opt] */
	int *nopts;
	int *enabled;
	int *forbidden;
	char *match_path;
	char *cwd;		/* the unit's working directory, or NULL: getcwd() */
	char *err;		/* the last error line, or NULL */
};

static int config_error(struct kplug_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int config_error(struct kplug_config *cfg, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kplug_vfail(&cfg->err, fmt, ap);
	va_end(ap);
	return ret;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = (char *)kplug_xzalloc(len + 1);
	va_start(ap, fmt);
	vsnprintf(p, len + 1, fmt, ap);
	va_end(ap);
	return p;
}

/* ---- lists and choices ---- */

static const char *skip_space(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

int kplug_list_foreach(const char *list, int (*fn)(const char *item, void *arg),
		       void *arg)
{
	char *buf = (char *)kplug_xzalloc(strlen(list) + 1);	/* any item fits */
	const char *p = list;
	int ret;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t len;

		if (!end)
			end = p + strlen(p);
		p = skip_space(p);
		len = end > p ? (size_t)(end - p) : 0;
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		memcpy(buf, p, len);
		buf[len] = '\0';
		ret = fn(buf, arg);
		if (ret || !*end)
			break;
		p = end + 1;
	}
	free(buf);
	return ret;
}

int kplug_choice_index(const char *choices, const char *choice, size_t len)
{
	const char *p = choices;
	int i = 0;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && !strncmp(p, choice, len))
			return i;
		i++;
		p = end ? end + 1 : NULL;
	}
	return -1;
}

/* ---- value parsing ---- */

struct list_check {
	struct kplug_config *cfg;
	const struct kplug_opt *opt;
	const char *what;	/* "-fplugin-arg-kplug-x=y" or "f.ini:3" */
	const char *name;	/* pass-key, for messages */
	long mask;
	int count;
};

static int check_set_item(const char *item, void *arg)
{
	struct list_check *lc = (struct list_check *)arg;
	int idx;

	if (!*item)
		return config_error(lc->cfg, "%s: empty item in list for '%s'", lc->what,
				    lc->name);
	lc->count++;
	if (lc->opt->type != KPLUG_OPT_SET)
		return 0;
	idx = kplug_choice_index(lc->opt->choices, item, strlen(item));
	if (idx < 0)
		return config_error(lc->cfg, "%s: unknown value '%s' for '%s' (expected %s)",
				    lc->what, item, lc->name, lc->opt->choices);
	lc->mask |= 1L << idx;
	return 0;
}

static int parse_bool(const char *s)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

/* Validate VALUE for OPT; store its numeric form in *NUM. */
static int parse_option_value(struct kplug_config *cfg, const struct kplug_opt *opt,
			      const char *name, const char *value, const char *what,
			      long *num)
{
	struct list_check lc = { .cfg = cfg, .opt = opt, .what = what, .name = name };
	char *end;
	long n;

	*num = 0;
	if (!*value)
		return config_error(cfg, "%s: empty value for '%s'", what, name);
	switch (opt->type) {
	case KPLUG_OPT_STR:
		return 0;
	case KPLUG_OPT_INT:
		errno = 0;
		n = strtol(value, &end, 10);
		if (errno || *end || end == value || isspace((unsigned char)*value))
			return config_error(cfg, "%s: '%s' is not a number for '%s'",
					    what, value, name);
		if (n < opt->min || n > opt->max)
			return config_error(cfg, "%s: %ld is out of range for '%s' (%ld..%ld)",
					    what, n, name, opt->min, opt->max);
		*num = n;
		return 0;
	case KPLUG_OPT_BOOL:
		n = parse_bool(value);
		if (n < 0)
			return config_error(cfg, "%s: '%s' is not on/off for '%s'", what,
					    value, name);
		*num = n;
		return 0;
	case KPLUG_OPT_ENUM:
		n = kplug_choice_index(opt->choices, value, strlen(value));
		if (n < 0)
			return config_error(cfg, "%s: unknown value '%s' for '%s' (expected one of %s)",
					    what, value, name, opt->choices);
		*num = n;
		return 0;
	case KPLUG_OPT_SET:
	case KPLUG_OPT_LIST:
		if (kplug_list_foreach(value, check_set_item, &lc))
			return -1;
		*num = opt->type == KPLUG_OPT_SET ? lc.mask : lc.count;
		return 0;
	}
	return config_error(cfg, "%s: bad option type for '%s'", what, name);
}

/* ---- construction ---- */

static int count_opts(const struct kplug_pass_info *pass)
{
	int n = 0;

	while (pass->opts && pass->opts[n].key)
		n++;
	return n;
}

static int set_default(struct kplug_config *cfg, int pass, int opt)
{
	const struct kplug_opt *o = &cfg->passes[pass]->opts[opt];
	struct value *v = &cfg->values[pass][opt];
	char *name;
	int ret;

	free(v->owned);
	v->owned = NULL;
	v->str = o->def;
	v->num = 0;
	v->origin = "default";
	if (!o->def)
		return 0;
	name = xasprintf("%s-%s", cfg->passes[pass]->name, o->key);
	ret = parse_option_value(cfg, o, name, o->def, "default", &v->num);
	free(name);
	return ret;
}

struct kplug_config *kplug_config_new(const struct kplug_pass_info *const *passes,
				      int npasses)
{
	struct kplug_config *cfg = (struct kplug_config *)kplug_xzalloc(sizeof(*cfg));
	int p, o;

	cfg->passes = passes;
	cfg->npasses = npasses;
	cfg->tail = &cfg->head;
	cfg->values = (struct value **)kplug_xzalloc(npasses * sizeof(*cfg->values));
	cfg->nopts = (int *)kplug_xzalloc(npasses * sizeof(int));
	cfg->enabled = (int *)kplug_xzalloc(npasses * sizeof(int));
	cfg->forbidden = (int *)kplug_xzalloc(npasses * sizeof(int));
	for (p = 0; p < npasses; p++) {
		cfg->nopts[p] = count_opts(passes[p]);
		cfg->values[p] = (struct value *)kplug_xzalloc(cfg->nopts[p] *
							  sizeof(struct value));
		for (o = 0; o < cfg->nopts[p]; o++)
			set_default(cfg, p, o);
	}
	return cfg;
}

void kplug_config_free(struct kplug_config *cfg)
{
	struct setting *s, *next;
	int p;

	if (!cfg)
		return;
	for (s = cfg->head; s; s = next) {
		next = s->next;
		free(s->value);
		free(s->origin);
		free(s->glob);
		free(s);
	}
	for (p = 0; p < cfg->npasses; p++) {
		int o;

		for (o = 0; o < cfg->nopts[p]; o++)
			free(cfg->values[p][o].owned);
		free(cfg->values[p]);
	}
	free(cfg->values);
	free(cfg->nopts);
	free(cfg->enabled);
	free(cfg->forbidden);
	free(cfg->match_path);
	free(cfg->cwd);
	free(cfg->err);
	free(cfg);
}

const char *kplug_config_error(const struct kplug_config *cfg)
{
	return cfg->err ? cfg->err : "";
}

/* ---- collecting settings ---- */

static int find_pass(const struct kplug_config *cfg, const char *name, size_t len)
{
	int p;

	for (p = 0; p < cfg->npasses; p++)
		if (strlen(cfg->passes[p]->name) == len &&
		    !strncmp(cfg->passes[p]->name, name, len))
			return p;
	return -1;
}

static int find_opt(const struct kplug_config *cfg, int pass, const char *key)
{
	int o;

	for (o = 0; o < cfg->nopts[pass]; o++)
		if (!strcmp(cfg->passes[pass]->opts[o].key, key))
			return o;
	return -1;
}

static char *pass_names(const struct kplug_config *cfg)
{
	char *names = kplug_xstrdup("all");
	int p;

	for (p = 0; p < cfg->npasses; p++) {
		char *n = xasprintf("%s, %s", names, cfg->passes[p]->name);

		free(names);
		names = n;
	}
	return names;
}

struct pass_check {
	struct kplug_config *cfg;
	const char *what;
};

static int check_pass_item(const char *item, void *arg)
{
	struct pass_check *pc = (struct pass_check *)arg;
	char *names;

	if (!*item)
		return config_error(pc->cfg, "%s: empty item in pass list", pc->what);
	if (!strcmp(item, "all") || find_pass(pc->cfg, item, strlen(item)) >= 0)
		return 0;
	names = pass_names(pc->cfg);
	config_error(pc->cfg, "%s: unknown pass '%s' (known: %s)", pc->what, item, names);
	free(names);
	return -1;
}

static void append_setting(struct kplug_config *cfg, enum layer layer,
			   const struct setting_target *target,
			   const char *value, const char *origin,
			   const char *glob)
{
	struct setting *s = (struct setting *)kplug_xzalloc(sizeof(*s));

	s->layer = layer;
	s->target = *target;
	s->value = kplug_xstrdup(value);
	s->origin = kplug_xstrdup(origin);
	s->glob = glob ? kplug_xstrdup(glob) : NULL;
	*cfg->tail = s;
	cfg->tail = &s->next;
}

static enum global_key parse_global_key(const char *key)
{
	if (!strcmp(key, "enable"))
		return KEY_ENABLE;
	if (!strcmp(key, "disable"))
		return KEY_DISABLE;
	if (!strcmp(key, "root"))
		return KEY_ROOT;
	return KEY_NONE;
}

/* PASS-OPTION ("sancov-trace") to the option it names. */
static int find_pass_option(struct kplug_config *cfg, const char *key,
			    const char *what, struct option_ref *ref)
{
	const char *dash = strchr(key, '-');

	ref->pass = dash ? find_pass(cfg, key, dash - key) : -1;
	if (ref->pass < 0) {
		if (find_pass(cfg, key, strlen(key)) >= 0)
			return config_error(cfg, "%s: '%s' is a pass, not an option; use enable=%s",
					    what, key, key);
		return config_error(cfg, "%s: unknown option '%s'", what, key);
	}
	ref->opt = find_opt(cfg, ref->pass, dash + 1);
	if (ref->opt < 0)
		return config_error(cfg, "%s: unknown option '%s' of pass %s",
				    what, dash + 1, cfg->passes[ref->pass]->name);
	return 0;
}

static const struct kplug_opt *option_of(const struct kplug_config *cfg,
					 const struct option_ref *ref)
{
	return &cfg->passes[ref->pass]->opts[ref->opt];
}

static struct value *value_of(const struct kplug_config *cfg,
			      const struct option_ref *ref)
{
	return &cfg->values[ref->pass][ref->opt];
}

/*
 * Validate and collect KEY=VALUE in command-line form ("enable",
 * "sancov-trace").  WHAT names the setting in errors.
 */
static int record_setting(struct kplug_config *cfg, enum layer layer,
			  const char *key, const char *value, const char *what,
			  const char *glob)
{
	struct setting_target target = {
		.kind = TARGET_GLOBAL,
		.u = { .global = parse_global_key(key) },
	};
	long num;

	if (target.u.global != KEY_NONE) {
		struct pass_check pc = { .cfg = cfg, .what = what };

		if (!value)
			return config_error(cfg, "%s: '%s' needs a value", what, key);
		if (!*skip_space(value))
			return config_error(cfg, "%s: empty %s for '%s'", what,
					    target.u.global == KEY_ROOT ? "path" : "list",
					    key);
		if (target.u.global != KEY_ROOT &&
		    kplug_list_foreach(value, check_pass_item, &pc))
			return -1;
		append_setting(cfg, layer, &target, value, what, glob);
		return 0;
	}
	target.kind = TARGET_OPTION;
	if (find_pass_option(cfg, key, what, &target.u.option))
		return -1;
	if (!value)
		return config_error(cfg, "%s: '%s' needs a value", what, key);
	if (parse_option_value(cfg, option_of(cfg, &target.u.option), key, value,
			       what, &num))
		return -1;
	append_setting(cfg, layer, &target, value, what, glob);
	return 0;
}

/* default-KEY=VALUE: KEY is enable, disable or PASS-OPTION. */
static int record_default(struct kplug_config *cfg, const char *key,
			  const char *value, const char *what)
{
	if (parse_global_key(key) == KEY_ROOT || !strcmp(key, "config") ||
	    !strncmp(key, "default-", 8) || !strncmp(key, "limit-", 6) ||
	    !strcmp(key, "forbid") || !strcmp(key, "permit"))
		return config_error(cfg, "%s: '%s' cannot be a default (only enable, disable and PASS-OPTION can)",
				    what, key);
	return record_setting(cfg, LAYER_DEFAULT, key, value, what, NULL);
}

/* forbid=PASS[,PASS] / permit=PASS[,PASS] */
static int record_pass_gate(struct kplug_config *cfg, const char *key,
			    const char *value, const char *what)
{
	struct pass_check pc = { .cfg = cfg, .what = what };
	struct setting_target target = {
		.kind = TARGET_GLOBAL,
		.u = { .global = strcmp(key, "forbid") ? KEY_PERMIT : KEY_FORBID },
	};

	if (!value || !*skip_space(value))
		return config_error(cfg, "%s: '%s' needs a list of passes", what, key);
	if (kplug_list_foreach(value, check_pass_item, &pc))
		return -1;
	append_setting(cfg, LAYER_GATE, &target, value, what, NULL);
	return 0;
}

struct limit_check {
	struct kplug_config *cfg;
	const struct kplug_opt *opt;
	const char *what;
	const char *name;
	long mask;
};

static int check_limit_item(const char *item, void *arg)
{
	struct limit_check *lc = (struct limit_check *)arg;
	const struct kplug_opt *o = lc->opt;
	int idx;

	if (!*item)
		return config_error(lc->cfg, "%s: empty item in list for '%s'", lc->what,
				    lc->name);
	if (o->type == KPLUG_OPT_BOOL)
		idx = parse_bool(item);
	else
		idx = kplug_choice_index(o->choices, item, strlen(item));
	if (idx < 0)
		return config_error(lc->cfg, "%s: unknown value '%s' for '%s' (expected %s)",
				    lc->what, item, lc->name,
				    o->type == KPLUG_OPT_BOOL ? "on,off" : o->choices);
	lc->mask |= 1L << idx;
	return 0;
}

/* limit-PASS-OPTION=VALUE[,VALUE] for on/off and choice options. */
static int record_limit(struct kplug_config *cfg, const char *key,
			const char *value, const char *what)
{
	struct limit_check lc = { .cfg = cfg, .what = what, .name = key };
	struct setting_target target = { .kind = TARGET_LIMIT };

	if (find_pass_option(cfg, key, what, &target.u.limit.option))
		return -1;
	lc.opt = option_of(cfg, &target.u.limit.option);
	if (lc.opt->type != KPLUG_OPT_BOOL && lc.opt->type != KPLUG_OPT_ENUM &&
	    lc.opt->type != KPLUG_OPT_SET)
		return config_error(cfg, "%s: only on/off and choice options can be limited, not '%s'",
				    what, key);
	if (!value || !*skip_space(value))
		return config_error(cfg, "%s: 'limit-%s' needs a value", what, key);
	if (kplug_list_foreach(value, check_limit_item, &lc))
		return -1;
	target.u.limit.allowed = lc.mask;
	append_setting(cfg, LAYER_GATE, &target, value, what, NULL);
	return 0;
}

int kplug_config_add_arg(struct kplug_config *cfg, const char *key,
			 const char *value)
{
	char *what;
	int ret;

	if (value)
		what = xasprintf("-fplugin-arg-kplug-%s=%s", key, value);
	else
		what = xasprintf("-fplugin-arg-kplug-%s", key);
	if (!strcmp(key, "config")) {
		if (!value || !*value)
			ret = config_error(cfg, "%s: 'config' needs a file name", what);
		else
			ret = kplug_config_load_ini(cfg, value);
	} else if (!strncmp(key, "default-", 8)) {
		ret = record_default(cfg, key + 8, value, what);
	} else if (!strcmp(key, "forbid") || !strcmp(key, "permit")) {
		ret = record_pass_gate(cfg, key, value, what);
	} else if (!strncmp(key, "limit-", 6)) {
		ret = record_limit(cfg, key + 6, value, what);
	} else {
		ret = record_setting(cfg, LAYER_ARG, key, value, what, NULL);
	}
	free(what);
	return ret;
}

/* ---- ini files ---- */

/*
 * inih keeps section names in a buffer of this size (MAX_SECTION in ini.c,
 * not configurable) and cuts longer ones silently.
 */
#define INI_SECTION_MAX	50

/* A key seen in this file, to refuse a repeated one. */
struct ini_key {
	char *section;
	char *name;
	int line;
	struct ini_key *next;
};

struct ini_state {
	struct kplug_config *cfg;
	const char *path;
	FILE *file;
	char *buf;		/* the raw line, any length */
	size_t cap;
	int line;
	int failed;		/* an error is already in cfg->err */
	const char *problem;	/* a line the reader refused, at st->line */
	int max_line;
	struct ini_key *keys;
};

static int ini_space(char c)
{
	return isspace((unsigned char)c);
}

/* Cut S at the first ';' or '#' that follows whitespace. */
static void cut_inline_comment(char *s)
{
	char *p;

	if (!*s)
		return;
	for (p = s + 1; *p; p++) {
		if ((*p == ';' || *p == '#') && ini_space(p[-1])) {
			*p = '\0';
			return;
		}
	}
}

static char *strip_trailing_space(char *s)
{
	size_t len = strlen(s);

	while (len && ini_space(s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* Stop reading: PROBLEM is reported for st->line. */
static char *refuse_line(struct ini_state *st, const char *problem)
{
	st->problem = problem;
	return NULL;
}

/*
 * "[ name ]" becomes "[name]"; refuse what inih would cut or ignore: a
 * name longer than its buffer, text after the ']', an empty name.  Returns
 * -1 with *PROBLEM set.  Without a ']' inih reports the syntax error itself.
 */
static int normalize_section(char *s, const char **problem)
{
	char *name = s + 1, *close = strchr(s, ']');
	size_t len;

	*problem = NULL;
	if (!close)
		return 0;
	if (*skip_space(close + 1)) {
		*problem = "text after the section header's ']'";
		return -1;
	}
	while (name < close && ini_space(*name))
		name++;
	while (close > name && ini_space(close[-1]))
		close--;
	len = close - name;
	if (!len)
		*problem = "empty section name";
	else if (len >= INI_SECTION_MAX)
		*problem = "section name longer than 49 characters";
	if (*problem)
		return -1;
	memmove(s + 1, name, len);
	s[len + 1] = ']';
	s[len + 2] = '\0';
	return 0;
}

/*
 * Read one line of the profile and hand inih its normalised form, so that
 * kplug's ini dialect (README, "ini profiles") holds whatever options
 * Debian's libinih.a was built with:
 *  - the line number is ours (st->line);
 *  - leading whitespace goes: an indented line is an ordinary line (inih
 *    built with INI_ALLOW_MULTILINE would take it as a continuation of the
 *    previous key);
 *  - a UTF-8 BOM at the start of the file, the line end (LF or CRLF),
 *    trailing whitespace, comment lines and inline comments (';' or '#'
 *    after whitespace) go;
 *  - what inih would split, cut or misread is refused: a NUL byte, a CR
 *    inside the line, a line longer than inih's buffer, a section name
 *    longer than its buffer, text after a section header.
 */
static char *read_ini_line(char *str, int num, void *stream)
{
	struct ini_state *st = (struct ini_state *)stream;
	const char *problem;
	ssize_t n;
	char *s;

	if (st->failed || st->problem)
		return NULL;
	n = getline(&st->buf, &st->cap, st->file);
	if (n < 0)
		return NULL;
	st->line++;
	if (memchr(st->buf, '\0', n))
		return refuse_line(st, "NUL byte in line");
	s = strip_trailing_space(st->buf);
	if (st->line == 1 && !strncmp(s, "\xef\xbb\xbf", 3))
		s += 3;
	s = (char *)skip_space(s);
	if (strchr(s, '\r'))
		return refuse_line(st, "carriage return inside a line");
	if (*s == ';' || *s == '#')
		*s = '\0';
	cut_inline_comment(s);
	strip_trailing_space(s);
	if (*s == '[' && normalize_section(s, &problem))
		return refuse_line(st, problem);
	if (strlen(s) > (size_t)num - 1) {
		st->max_line = num - 1;
		return refuse_line(st, "line too long");
	}
	strcpy(str, s);
	return str;
}

/* A key may appear once per section name in a file. */
static int check_repeated_key(struct ini_state *st, const char *section,
			      const char *name, const char *what)
{
	struct ini_key *k;

	for (k = st->keys; k; k = k->next)
		if (!strcmp(k->section, section) && !strcmp(k->name, name))
			return config_error(st->cfg, "%s: '%s' repeated in [%s] (first set at line %d)",
					    what, name, section, k->line);
	k = (struct ini_key *)kplug_xzalloc(sizeof(*k));
	k->section = kplug_xstrdup(section);
	k->name = kplug_xstrdup(name);
	k->line = st->line;
	k->next = st->keys;
	st->keys = k;
	return 0;
}

static void free_ini_keys(struct ini_key *k)
{
	struct ini_key *next;

	for (; k; k = next) {
		next = k->next;
		free(k->section);
		free(k->name);
		free(k);
	}
}

/* Values are literal: a leading quote would silently become part of one. */
static int check_unquoted(struct kplug_config *cfg, const char *name,
			  const char *value, const char *what)
{
	if (*value != '"' && *value != '\'')
		return 0;
	return config_error(cfg, "%s: value of '%s' starts with a quote (kplug's ini has no quoting; write the value without quotes)",
			    what, name);
}

/*
 * The command-line form of NAME in SECTION ("min" in [cyc_complexity] is
 * "cyc_complexity-min"), with its layer and glob; NULL after an error.
 */
static char *ini_setting_key(struct kplug_config *cfg, const char *section,
			     const char *name, const char *what, enum layer *layer,
			     const char **glob)
{
	int pass;

	*layer = LAYER_INI;
	*glob = NULL;
	if (!*section) {
		config_error(cfg, "%s: '%s' outside any [section]", what, name);
		return NULL;
	}
	if (!strcmp(section, "kplug")) {
		if (parse_global_key(name) != KEY_NONE)
			return kplug_xstrdup(name);
		config_error(cfg, "%s: unknown key '%s' in [kplug] (expected enable, disable, root)",
			     what, name);
		return NULL;
	}
	if (!strncmp(section, "path:", 5)) {
		*layer = LAYER_INI_PATH;
		*glob = section + 5;
		if (!**glob)
			config_error(cfg, "%s: empty glob in section [path:]", what);
		else if (parse_global_key(name) == KEY_ROOT)
			config_error(cfg, "%s: 'root' belongs in [kplug], not [%s]", what, section);
		else
			return kplug_xstrdup(name);
		return NULL;
	}
	pass = find_pass(cfg, section, strlen(section));
	if (pass < 0) {
		char *names = pass_names(cfg);

		config_error(cfg, "%s: unknown section [%s] (expected kplug, path:GLOB or a pass: %s)",
			     what, section, names + 5);
		free(names);
		return NULL;
	}
	if (find_opt(cfg, pass, name) < 0) {
		config_error(cfg, "%s: unknown key '%s' in [%s]", what, name, section);
		return NULL;
	}
	return xasprintf("%s-%s", section, name);
}

static int on_ini_entry(void *user, const char *section, const char *name,
			const char *value)
{
	struct ini_state *st = (struct ini_state *)user;
	struct kplug_config *cfg = st->cfg;
	enum layer layer;
	const char *glob;
	char *what, *key;
	int ret = -1;

	if (st->failed)
		return 0;
	what = xasprintf("%s:%d", st->path, st->line);
	key = ini_setting_key(cfg, section, name, what, &layer, &glob);
	if (key && !check_unquoted(cfg, name, value, what) &&
	    !check_repeated_key(st, section, name, what))
		ret = record_setting(cfg, layer, key, value, what, glob);
	free(key);
	free(what);
	if (ret)
		st->failed = 1;
	return !ret;
}

/* Parse the profile in FILE (closed here); PATH names it in messages. */
static int load_ini_stream(struct kplug_config *cfg, const char *path, FILE *file)
{
	struct ini_state st;
	int ret;

	memset(&st, 0, sizeof(st));
	st.cfg = cfg;
	st.path = path;
	st.file = file;
	ret = ini_parse_stream(read_ini_line, &st, on_ini_entry, &st);
	if (!st.failed && ferror(st.file))
		st.failed = config_error(cfg, "%s: read error: %s", path, strerror(errno));
	fclose(st.file);
	free(st.buf);
	free_ini_keys(st.keys);
	if (ret > 0 && ret < st.line)	/* a syntax error came first */
		return config_error(cfg, "%s:%d: syntax error (expected [section] or key = value)",
				    path, ret);
	if (st.failed)
		return -1;
	if (st.max_line)
		return config_error(cfg, "%s:%d: line longer than %d characters", path,
				    st.line, st.max_line);
	if (st.problem)
		return config_error(cfg, "%s:%d: %s", path, st.line, st.problem);
	if (ret > 0)
		return config_error(cfg, "%s:%d: syntax error (expected [section] or key = value)",
				    path, ret);
	if (ret < 0)
		return config_error(cfg, "%s: cannot parse profile", path);
	return 0;
}

int kplug_config_load_ini(struct kplug_config *cfg, const char *path)
{
	struct stat sb;
	FILE *file;

	file = fopen(path, "r");
	if (!file)
		return config_error(cfg, "%s: cannot open profile: %s", path, strerror(errno));
	if (fstat(fileno(file), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fclose(file);
		return config_error(cfg, "%s: cannot open profile: Is a directory", path);
	}
	return load_ini_stream(cfg, path, file);
}

int kplug_config_load_ini_mem(struct kplug_config *cfg, const char *name,
			      const char *text, size_t len)
{
	FILE *file;

	if (!len)
		return 0;	/* an empty profile sets nothing */
	file = fmemopen((void *)text, len, "r");
	if (!file)
		return config_error(cfg, "%s: cannot read profile: %s", name, strerror(errno));
	return load_ini_stream(cfg, name, file);
}

/* ---- resolving ---- */

/* Lexically normalise an absolute path: drop ".", "..", duplicate slashes. */
static void normalize_path(char *path)
{
	char *out = path, *p = path;

	while (*p) {
		char *seg;
		size_t len;

		while (*p == '/')
			p++;
		seg = p;
		while (*p && *p != '/')
			p++;
		len = p - seg;
		if (len == 0 || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			while (out > path && *--out != '/')
				;
			continue;
		}
		*out++ = '/';
		memmove(out, seg, len);
		out += len;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

/* PATH made absolute against DIR (NULL: the current directory). */
static char *absolute_path(const char *path, const char *dir)
{
	char *cwd = NULL, *abs;

	if (path[0] == '/')
		abs = kplug_xstrdup(path);
	else if (dir)
		abs = xasprintf("%s/%s", dir, path);
	else if (!(cwd = getcwd(NULL, 0)))	/* allocated: any length */
		abs = xasprintf("/%s", path);	/* cwd deleted: take "/" */
	else
		abs = xasprintf("%s/%s", cwd, path);
	free(cwd);
	normalize_path(abs);
	return abs;
}

/* PATH below the directory ROOT (both absolute, normalised), or NULL. */
static char *path_below(const char *path, const char *root)
{
	size_t len = strlen(root);

	if (!strcmp(root, "/"))
		return kplug_xstrdup(path + 1);
	if (!strncmp(path, root, len) && path[len] == '/')
		return kplug_xstrdup(path + len + 1);
	return NULL;
}

/*
 * The physical spelling of the absolute path FILE: its directory with
 * every symbolic link resolved, and its own name (a file that is itself a
 * link stays where it is named).  NULL when the directory does not exist.
 */
static char *physical_path(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir = xasprintf("%.*s", (int)(slash - file), file);
	char *real = realpath(*dir ? dir : "/", NULL);
	char *out = NULL;

	if (real) {
		out = xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash + 1);
		normalize_path(out);
	}
	free(dir);
	free(real);
	return out;
}

/*
 * The input relative to ROOT (default: the current directory).  getcwd()
 * gives the physical directory while a root or an input may be spelled
 * through a symbolic link: where the spellings as given do not nest, the
 * physical ones are compared.
 */
static char *relative_match_path(const char *input, const char *root, const char *dir)
{
	char *abs_input = absolute_path(input, dir);
	char *abs_root = absolute_path(root ? root : ".", dir);
	char *rel = path_below(abs_input, abs_root);

	if (!rel) {
		char *real_input = physical_path(abs_input);
		char *real_root = realpath(abs_root, NULL);

		if (real_input && real_root)
			rel = path_below(real_input, real_root);
		free(real_input);
		free(real_root);
	}
	if (!rel)
		rel = kplug_xstrdup(abs_input);
	free(abs_input);
	free(abs_root);
	return rel;
}

struct enable_op {
	struct kplug_config *cfg;
	int *flags;		/* enabled[] or forbidden[] */
	int on;
};

static int apply_enable_item(const char *item, void *arg)
{
	struct enable_op *op = (struct enable_op *)arg;
	int p;

	if (!strcmp(item, "all")) {
		for (p = 0; p < op->cfg->npasses; p++)
			op->flags[p] = op->on;
		return 0;
	}
	p = find_pass(op->cfg, item, strlen(item));
	op->flags[p] = op->on;
	return 0;
}

/* enable or disable: switch the listed passes on or off. */
static void apply_enable(struct kplug_config *cfg, const struct setting *s)
{
	struct enable_op op = {
		.cfg = cfg,
		.flags = cfg->enabled,
		.on = s->target.u.global == KEY_ENABLE,
	};

	kplug_list_foreach(s->value, apply_enable_item, &op);
}

/* A value of a pass option: replaces the earlier one, or joins a list. */
static void apply_option(struct kplug_config *cfg, const struct setting *s)
{
	const struct kplug_opt *o = option_of(cfg, &s->target.u.option);
	struct value *v = value_of(cfg, &s->target.u.option);

	if (o->type == KPLUG_OPT_LIST && v->str && strcmp(v->origin, "default")) {
		/* lists accumulate: join with the earlier value */
		char *joined = xasprintf("%s,%s", v->str, s->value);

		free(v->owned);
		v->owned = joined;
		v->str = joined;
	} else {
		v->str = s->value;
	}
	v->origin = s->origin;
	parse_option_value(cfg, o, o->key, v->str, s->origin, &v->num);
}

/* A setting of the layers below LAYER_GATE (root= is read by root_setting()). */
static void apply_setting(struct kplug_config *cfg, const struct setting *s)
{
	if (s->target.kind == TARGET_OPTION)
		apply_option(cfg, s);
	else if (s->target.kind == TARGET_GLOBAL &&
		 (s->target.u.global == KEY_ENABLE ||
		  s->target.u.global == KEY_DISABLE))
		apply_enable(cfg, s);
}

/* The last root given on the command line, else the last one in a profile. */
static const char *root_setting(const struct kplug_config *cfg)
{
	const char *root = NULL, *arg_root = NULL;
	const struct setting *s;

	for (s = cfg->head; s; s = s->next) {
		if (s->target.kind != TARGET_GLOBAL || s->target.u.global != KEY_ROOT)
			continue;
		if (s->layer == LAYER_ARG)
			arg_root = s->value;
		else
			root = s->value;
	}
	return arg_root ? arg_root : root;
}

static void reset_to_defaults(struct kplug_config *cfg)
{
	int p, o;

	for (p = 0; p < cfg->npasses; p++) {
		cfg->enabled[p] = 0;
		cfg->forbidden[p] = 0;
		for (o = 0; o < cfg->nopts[p]; o++)
			set_default(cfg, p, o);
	}
}

/* The name of choice IDX of option O ("on"/"off" for a BOOL). */
static const char *choice_name(const struct kplug_opt *o, int idx, char *buf,
			       size_t len)
{
	const char *p = o->type == KPLUG_OPT_BOOL ? "off,on" : o->choices;
	size_t n;

	while (idx-- > 0 && p)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	if (!p)
		p = "?";
	n = strcspn(p, ",");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
	return buf;
}

static int same_option(const struct option_ref *a, const struct option_ref *b)
{
	return a->pass == b->pass && a->opt == b->opt;
}

/* The last limit on the same option wins. */
static int limit_superseded(const struct setting *s)
{
	const struct setting *t;

	for (t = s->next; t; t = t->next)
		if (t->target.kind == TARGET_LIMIT &&
		    same_option(&t->target.u.limit.option, &s->target.u.limit.option))
			return 1;
	return 0;
}

/* The resolved value of a limited option is one the limit S allows. */
static int check_limit(struct kplug_config *cfg, const struct setting *s)
{
	const struct option_ref *ref = &s->target.u.limit.option;
	const struct kplug_opt *o = option_of(cfg, ref);
	const struct value *v = value_of(cfg, ref);
	long used = o->type == KPLUG_OPT_SET ? v->num : 1L << v->num;
	long outside = used & ~s->target.u.limit.allowed;
	char name[64];
	int idx = 0;

	if (!outside)
		return 0;
	while (!(outside & (1L << idx)))
		idx++;
	return config_error(cfg, "%s: '%s' for '%s-%s' is not allowed in this build (%s)",
			    v->origin, choice_name(o, idx, name, sizeof(name)),
			    cfg->passes[ref->pass]->name, o->key, s->origin);
}

/* forbid or permit: mark the listed passes forbidden or not. */
static void apply_pass_gate(struct kplug_config *cfg, const struct setting *s)
{
	struct enable_op op = {
		.cfg = cfg,
		.flags = cfg->forbidden,
		.on = s->target.u.global == KEY_FORBID,
	};

	kplug_list_foreach(s->value, apply_enable_item, &op);
}

/*
 * forbid/permit switch passes off; a value outside its limit fails, for a
 * pass that ends up enabled (the settings of a pass that is off have no
 * effect, its limits neither).
 */
static int apply_gates(struct kplug_config *cfg)
{
	const struct setting *s;
	int p;

	for (s = cfg->head; s; s = s->next)
		if (s->layer == LAYER_GATE && s->target.kind == TARGET_GLOBAL)
			apply_pass_gate(cfg, s);
	for (p = 0; p < cfg->npasses; p++)
		if (cfg->forbidden[p])
			cfg->enabled[p] = 0;
	for (s = cfg->head; s; s = s->next)
		if (s->target.kind == TARGET_LIMIT &&
		    cfg->enabled[s->target.u.limit.option.pass] &&
		    !limit_superseded(s) && check_limit(cfg, s))
			return -1;
	return 0;
}

int kplug_config_resolve(struct kplug_config *cfg, const char *input)
{
	const struct setting *s;
	int layer;

	reset_to_defaults(cfg);
	free(cfg->match_path);
	cfg->match_path = input ? relative_match_path(input, root_setting(cfg), cfg->cwd) : NULL;

	for (layer = LAYER_DEFAULT; layer <= LAYER_ARG; layer++) {
		for (s = cfg->head; s; s = s->next) {
			if (s->layer != (enum layer)layer)
				continue;
			if (s->glob && (!cfg->match_path ||
					fnmatch(s->glob, cfg->match_path, 0)))
				continue;
			apply_setting(cfg, s);
		}
	}
	return apply_gates(cfg);
}

const char *kplug_config_path_origin(const struct kplug_config *cfg,
				     const char **glob)
{
	const struct setting *s;

	for (s = cfg->head; s; s = s->next) {
		if (s->glob) {
			*glob = s->glob;
			return s->origin;
		}
	}
	return NULL;
}

void kplug_config_set_cwd(struct kplug_config *cfg, const char *dir)
{
	free(cfg->cwd);
	cfg->cwd = dir ? kplug_xstrdup(dir) : NULL;
}

int kplug_config_needs_cwd(const struct kplug_config *cfg, const char *input)
{
	const char *glob, *root = root_setting(cfg);

	if (!input || !kplug_config_path_origin(cfg, &glob))
		return 0;
	return (input[0] == '/') != (root && root[0] == '/');
}

const char *kplug_config_match_path(const struct kplug_config *cfg)
{
	return cfg->match_path;
}

/* ---- getters ---- */

int kplug_config_enabled(const struct kplug_config *cfg, int pass)
{
	return cfg->enabled[pass];
}

static const struct value *resolved_value(const struct kplug_config *cfg, int pass,
					  const char *key)
{
	int opt = find_opt(cfg, pass, key);

	if (opt < 0) {
		fprintf(stderr, "kplug: internal error: pass %s has no option '%s'\n",
			cfg->passes[pass]->name, key);
		abort();
	}
	return &cfg->values[pass][opt];
}

const char *kplug_config_str(const struct kplug_config *cfg, int pass,
			     const char *key)
{
	return resolved_value(cfg, pass, key)->str;
}

long kplug_config_int(const struct kplug_config *cfg, int pass, const char *key)
{
	return resolved_value(cfg, pass, key)->num;
}

const char *kplug_config_origin(const struct kplug_config *cfg, int pass,
				const char *key)
{
	return resolved_value(cfg, pass, key)->origin;
}
