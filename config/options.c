// SPDX-License-Identifier: GPL-2.0
/*
 * The pass and option table: passes and options found by name, lists of
 * passes checked and applied, and values in an option's own syntax
 * (numbers, on/off, choices, lists) validated and turned into numbers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config-internal.h"
#include "kplug-util.h"


/* S after its leading white space. */
const char *skip_space(const char *s)
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

int find_pass(const struct kplug_config *cfg, const char *name, size_t len)
{
	int p;

	for (p = 0; p < cfg->npasses; p++)
		if (strlen(cfg->passes[p]->name) == len &&
		    !strncmp(cfg->passes[p]->name, name, len))
			return p;
	return -1;
}

int find_opt(const struct kplug_config *cfg, int pass, const char *key)
{
	int o;

	for (o = 0; o < cfg->nopts[pass]; o++)
		if (!strcmp(cfg->passes[pass]->opts[o].key, key))
			return o;
	return -1;
}

/* PASS-OPTION ("sancov-trace") to the option it names. */
int find_pass_option(struct kplug_config *cfg, const char *key,
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

const struct kplug_opt *option_of(const struct kplug_config *cfg,
				  const struct option_ref *ref)
{
	return &cfg->passes[ref->pass]->opts[ref->opt];
}

struct value *value_of(const struct kplug_config *cfg,
		       const struct option_ref *ref)
{
	return &cfg->values[ref->pass][ref->opt];
}

/* "all, PASS, PASS...": the names a pass list may hold. */
char *pass_names(const struct kplug_config *cfg)
{
	char *names = kplug_xstrdup("all");
	int p;

	for (p = 0; p < cfg->npasses; p++) {
		char *n = kplug_xasprintf("%s, %s", names, cfg->passes[p]->name);

		free(names);
		names = n;
	}
	return names;
}

/* A pass list being checked. */
struct pass_check {
	struct kplug_config *cfg;
	const char *what;	/* names the list in messages */
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

/* Every item of LIST is "all" or a pass (WHAT names LIST in the error). */
int check_pass_list(struct kplug_config *cfg, const char *list, const char *what)
{
	struct pass_check pc = { .cfg = cfg, .what = what };

	return kplug_list_foreach(list, check_pass_item, &pc);
}

/* The flag to set for each pass of a list. */
struct pass_flags {
	struct kplug_config *cfg;
	int *flags;		/* enabled[] or forbidden[] */
	int on;
};

static int set_pass_flag(const char *item, void *arg)
{
	struct pass_flags *op = (struct pass_flags *)arg;
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

/* FLAGS[pass] = ON for each pass of LIST, a list that check_pass_list() passed. */
void set_listed_passes(struct kplug_config *cfg, int *flags, const char *list,
		       int on)
{
	struct pass_flags op = { .cfg = cfg, .flags = flags, .on = on };

	kplug_list_foreach(list, set_pass_flag, &op);
}

/* 1 for on, yes, true, 1; 0 for off, no, false, 0 (any case); else -1. */
int parse_bool(const char *s)
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

/* A SET or LIST value being checked item by item. */
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

/* Validate VALUE for OPT; store its numeric form in *NUM. */
int parse_option_value(struct kplug_config *cfg, const struct kplug_opt *opt,
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

/* The name of choice IDX of option O ("on"/"off" for a BOOL). */
const char *choice_name(const struct kplug_opt *o, int idx, char *buf,
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
