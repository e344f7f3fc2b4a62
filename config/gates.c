// SPDX-License-Identifier: GPL-2.0
/*
 * The hard gates, command-line only and applied after every layer:
 * forbid=PASS[,PASS] and permit=PASS[,PASS] (the last one naming a pass
 * decides; a forbidden pass stays off whatever enabled it), and
 * limit-PASS-OPTION=VALUE[,VALUE] for on/off and choice options (the last
 * one on an option wins; a resolved value outside it is an error naming
 * where the value came from, for a pass that ends up enabled).
 */
#include <stdio.h>
#include <string.h>

#include "config-internal.h"

/* forbid=PASS[,PASS] / permit=PASS[,PASS] */
int record_pass_gate(struct kplug_config *cfg, const char *key,
		     const char *value, const char *what)
{
	struct setting_target target = {
		.kind = TARGET_GLOBAL,
		.u = { .global = strcmp(key, "forbid") ? KEY_PERMIT : KEY_FORBID },
	};

	if (!value || !*skip_space(value))
		return config_error(cfg, "%s: '%s' needs a list of passes", what, key);
	if (check_pass_list(cfg, value, what))
		return -1;
	append_setting(cfg, LAYER_GATE, &target, value, what, NULL);
	return 0;
}

/* A limit's list being parsed into the mask of the values it allows. */
struct limit_check {
	struct kplug_config *cfg;
	const struct kplug_opt *opt;
	const char *what;	/* "-fplugin-arg-kplug-limit-x=y", for messages */
	const char *name;	/* pass-key, for messages */
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
int record_limit(struct kplug_config *cfg, const char *key,
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
	set_listed_passes(cfg, cfg->forbidden, s->value,
			  s->target.u.global == KEY_FORBID);
}

/*
 * forbid/permit switch passes off; a value outside its limit fails, for a
 * pass that ends up enabled (the settings of a pass that is off have no
 * effect, its limits neither).
 */
int apply_gates(struct kplug_config *cfg)
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
