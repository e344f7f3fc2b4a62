// SPDX-License-Identifier: GPL-2.0
/*
 * Recording settings: each -fplugin-arg-kplug-KEY[=VALUE] and each
 * profile entry is validated as it comes and appended, in the order given,
 * to the configuration's list of settings, with its layer and origin;
 * kplug_config_resolve() applies them later.
 */
#include <stdlib.h>
#include <string.h>

#include "config-internal.h"
#include "kplug-util.h"

/* Append one validated setting; it keeps copies of the strings. */
void append_setting(struct kplug_config *cfg, enum layer layer,
		    const struct setting_target *target, const char *value,
		    const char *origin, const char *glob)
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

/* The settings and their strings: they live until kplug_config_free(). */
void free_settings(struct kplug_config *cfg)
{
	struct setting *s, *next;

	for (s = cfg->head; s; s = next) {
		next = s->next;
		free(s->value);
		free(s->origin);
		free(s->glob);
		free(s);
	}
	cfg->head = NULL;
	cfg->tail = &cfg->head;
}

/* The global key KEY names (enable, disable, root), or KEY_NONE. */
enum global_key parse_global_key(const char *key)
{
	if (!strcmp(key, "enable"))
		return KEY_ENABLE;
	if (!strcmp(key, "disable"))
		return KEY_DISABLE;
	if (!strcmp(key, "root"))
		return KEY_ROOT;
	return KEY_NONE;
}

/*
 * Validate and record KEY=VALUE in command-line form ("enable",
 * "sancov-trace") in LAYER; GLOB: the [path:GLOB] section it came from
 * (LAYER_INI_PATH), else NULL.  WHAT names the setting in errors.
 */
int record_setting(struct kplug_config *cfg, enum layer layer,
		   const char *key, const char *value, const char *what,
		   const char *glob)
{
	struct setting_target target = {
		.kind = TARGET_GLOBAL,
		.u = { .global = parse_global_key(key) },
	};
	long num;

	if (target.u.global != KEY_NONE) {
		if (!value)
			return config_error(cfg, "%s: '%s' needs a value", what, key);
		if (!*skip_space(value))
			return config_error(cfg, "%s: empty %s for '%s'", what,
					    target.u.global == KEY_ROOT ? "path" : "list",
					    key);
		if (target.u.global != KEY_ROOT &&
		    check_pass_list(cfg, value, what))
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

int kplug_config_add_arg(struct kplug_config *cfg, const char *key,
			 const char *value)
{
	char *what;
	int ret;

	if (value)
		what = kplug_xasprintf("-fplugin-arg-kplug-%s=%s", key, value);
	else
		what = kplug_xasprintf("-fplugin-arg-kplug-%s", key);
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
