// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration's error line: every function of config/ that fails
 * leaves one complete "kplug: ..." line (without newline) in cfg->err and
 * returns -1; the line stays until the next error replaces it.
 */
#include <stdarg.h>

#include "config-internal.h"
#include "kplug-util.h"

int config_error(struct kplug_config *cfg, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kplug_vfail(&cfg->err, fmt, ap);
	va_end(ap);
	return ret;
}

const char *kplug_config_error(const struct kplug_config *cfg)
{
	return cfg->err ? cfg->err : "";
}
