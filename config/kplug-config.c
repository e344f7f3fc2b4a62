// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration's lifetime and its getters; see kplug-config.h for the
 * API and the precedence, config-internal.h for how config/ is split.
 * Settings are recorded first (and validated as they come), then applied
 * in precedence order by kplug_config_resolve(); the getters read what
 * the last resolve left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-internal.h"
#include "kplug-util.h"

static int count_opts(const struct kplug_pass_info *pass)
{
	int n = 0;

	while (pass->opts && pass->opts[n].key)
		n++;
	return n;
}

struct kplug_config *kplug_config_new(const struct kplug_pass_info *const *passes,
				      int npasses)
{
	struct kplug_config *cfg = (struct kplug_config *)kplug_xzalloc(sizeof(*cfg));
	int p;

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
	}
	reset_to_defaults(cfg);
	return cfg;
}

void kplug_config_free(struct kplug_config *cfg)
{
	int p;

	if (!cfg)
		return;
	free_settings(cfg);
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
