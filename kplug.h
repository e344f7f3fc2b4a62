/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sub-pass descriptor: everything kplug.c needs to know about a pass.
 * Each passes/NAME.c defines exactly one "const struct kplug_pass"; a
 * pass's helper files (passes/NAME-*.c, e.g. sancov-abi.c) define none.
 */
#ifndef KPLUG_H
#define KPLUG_H

#include "compat/kplug-gcc.h"
#include "config/kplug-config.h"
#include "config/elf-section.h"

#define KPLUG_VERSION	"0.1.0"

/* What a pass's setup() gets to read its options and register itself. */
struct kplug_ctx {
	const struct kplug_config *cfg;
	int index;			/* this pass in the config tables */
	const char *plugin_name;	/* for register_callback() */
};

struct kplug_pass {
	struct kplug_pass_info info;	/* name, help, options */
	/* GGC roots of the pass, terminated by LAST_GGC_ROOT_TAB, or NULL */
	const struct ggc_root_tab *ggc_roots;
	/*
	 * Called only when the pass is enabled for this unit, at
	 * PLUGIN_START_UNIT or later but before any code is parsed: read
	 * options, register the GIMPLE pass and callbacks (PLUGIN_START_UNIT
	 * itself has passed).  On bad input report with kplug_error() and
	 * return -1.
	 */
	int (*setup)(const struct kplug_ctx *ctx);
};

/* The pass_data of a GIMPLE pass that needs a CFG, as every kplug pass does. */
#define KPLUG_GIMPLE_PASS_DATA(pass_name, todo_finish) {		\
	GIMPLE_PASS, pass_name, OPTGROUP_NONE, TV_NONE, PROP_cfg,	\
	0, 0, 0, todo_finish						\
}

/* The pass_data of an RTL pass that only rewrites instructions. */
#define KPLUG_RTL_PASS_DATA(pass_name) {				\
	RTL_PASS, pass_name, OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0	\
}

/* Option getters bound to the calling pass. */
static inline const char *kplug_str(const struct kplug_ctx *ctx, const char *key)
{
	return kplug_config_str(ctx->cfg, ctx->index, key);
}

static inline long kplug_int(const struct kplug_ctx *ctx, const char *key)
{
	return kplug_config_int(ctx->cfg, ctx->index, key);
}

/* Where an option's value came from: "default", an argument or "f.ini:3". */
static inline const char *kplug_origin(const struct kplug_ctx *ctx, const char *key)
{
	return kplug_config_origin(ctx->cfg, ctx->index, key);
}

#include "compat/version-check.h"

/*
 * The source file of this unit as its first line marker names it (what
 * [path:] sections and src: lists match), or NULL when nothing names it.
 */
const char *kplug_unit_source(void);

/* The source file's name if known, else cc1's input ("<stdin>", "foo.i"). */
const char *kplug_unit_name(void);

/* One "kplug: ..." error line; makes the compilation fail. */
void kplug_error(const char *fmt, ...) ATTRIBUTE_PRINTF_1;

/* Insert PASS relative to instance INSTANCE (0: all) of the pass REF. */
void kplug_register_pass(const struct kplug_ctx *ctx, opt_pass *pass,
			 const char *ref, int instance,
			 enum pass_positioning_ops pos);

extern const struct kplug_pass kplug_cyc_complexity;
extern const struct kplug_pass kplug_sancov;

#endif
