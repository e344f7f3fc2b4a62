// SPDX-License-Identifier: GPL-2.0
/*
 * The precedence layers: kplug_config_resolve() starts from each option's
 * default and applies the recorded settings layer by layer, lowest first
 * (enum layer), each layer in the order given; a [path:GLOB] setting only
 * when its glob matches the input.  The gates come last (gates.c).
 */
#include <stdlib.h>
#include <string.h>

#include "config-internal.h"
#include "kplug-util.h"

/* Option OPT of PASS back to its default; a default that does not parse sets cfg->err. */
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
	name = kplug_xasprintf("%s-%s", cfg->passes[pass]->name, o->key);
	ret = parse_option_value(cfg, o, name, o->def, "default", &v->num);
	free(name);
	return ret;
}

/* Every option at its default, every pass off and not forbidden. */
void reset_to_defaults(struct kplug_config *cfg)
{
	int p, o;

	for (p = 0; p < cfg->npasses; p++) {
		cfg->enabled[p] = 0;
		cfg->forbidden[p] = 0;
		for (o = 0; o < cfg->nopts[p]; o++)
			set_default(cfg, p, o);
	}
}

/* enable or disable: switch the listed passes on or off. */
static void apply_enable(struct kplug_config *cfg, const struct setting *s)
{
	set_listed_passes(cfg, cfg->enabled, s->value,
			  s->target.u.global == KEY_ENABLE);
}

/* A value of a pass option: replaces the earlier one, or joins a list. */
static void apply_option(struct kplug_config *cfg, const struct setting *s)
{
	const struct kplug_opt *o = option_of(cfg, &s->target.u.option);
	struct value *v = value_of(cfg, &s->target.u.option);

	if (o->type == KPLUG_OPT_LIST && v->str && strcmp(v->origin, "default")) {
		/* lists accumulate: join with the earlier value */
		char *joined = kplug_xasprintf("%s,%s", v->str, s->value);

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

int kplug_config_resolve(struct kplug_config *cfg, const char *input)
{
	const struct setting *s;
	int layer;

	reset_to_defaults(cfg);
	match_input(cfg, input);
	for (layer = LAYER_DEFAULT; layer <= LAYER_ARG; layer++)
		for (s = cfg->head; s; s = s->next)
			if (s->layer == (enum layer)layer &&
			    setting_matches_path(cfg, s))
				apply_setting(cfg, s);
	return apply_gates(cfg);
}
