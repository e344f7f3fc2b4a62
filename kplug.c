// SPDX-License-Identifier: GPL-2.0
/*
 * kplug: one GCC plugin for kernel builds, multiplexing sub-passes.
 *
 * This file only wires the sub-passes of passes/ together: one version
 * check, one option/profile parse, one PLUGIN_INFO, one GGC root table,
 * then the setup of every enabled pass.  Adding a pass means adding its
 * file to passes/ and one line to the table below.
 */
#include "kplug.h"
#include "plugin-version.h"

int plugin_is_GPL_compatible;

static const struct kplug_pass *const kplug_passes[] = {
	&kplug_cyc_complexity,
	&kplug_sancov,
};

#define NR_PASSES	((int)ARRAY_SIZE(kplug_passes))

#ifndef KPLUG_SRCDIR
#define KPLUG_SRCDIR	"<kplug source>"
#endif

static struct kplug_config *kplug_cfg;
static const struct kplug_pass_info *kplug_infos[NR_PASSES];

void kplug_error(const char *fmt, ...)
{
	char buf[KPLUG_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* about the configuration, never a source line: no location */
	error_at(UNKNOWN_LOCATION, "kplug: %s", buf);
}

/* Not static: a write-only static array would be optimised away. */
opt_pass *kplug_registered[32];
unsigned int kplug_nr_registered;

void kplug_register_pass(const struct kplug_ctx *ctx, opt_pass *pass,
			 const char *ref, int instance,
			 enum pass_positioning_ops pos)
{
	/*
	 * With instance 0 GCC inserts clones and drops the pass it was given:
	 * keep every pass reachable so that it is not leaked.
	 */
	struct register_pass_info info;

	gcc_assert(kplug_nr_registered < ARRAY_SIZE(kplug_registered));
	kplug_registered[kplug_nr_registered++] = pass;
	info.pass = pass;
	info.reference_pass_name = ref;
	info.ref_pass_instance_number = instance;
	info.pos_op = pos;
	register_callback(ctx->plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
			  &info);
}

static void describe_gcc(char *buf, size_t len,
			 const struct plugin_gcc_version *v)
{
	snprintf(buf, len, "GCC %s (%s%s%s)", v->basever, v->datestamp,
		 *v->devphase ? " " : "", v->devphase);
}

/*
 * plugin_default_version_check() compares basever, datestamp, devphase,
 * revision and configure arguments.  Name both compilers on failure.
 */
static bool check_gcc_version(struct plugin_gcc_version *version)
{
	char built[128], loaded[128];
	const char *why = "";
	const char *driver = getenv("COLLECT_GCC");	/* set by the gcc driver */

	if (plugin_default_version_check(version, &gcc_version))
		return true;
	describe_gcc(built, sizeof(built), &gcc_version);
	describe_gcc(loaded, sizeof(loaded), version);
	if (!strcmp(built, loaded))
		why = ", same version but a different build configuration";
	kplug_error("kplug.so was built for %s but loaded into %s%s; rebuild it "
		    "for this compiler: make -C %s CC=%s clean install",
		    built, loaded, why, KPLUG_SRCDIR,
		    driver ? lbasename(driver) : "<your gcc>");
	return false;
}

static char *help_add(char *help, char *line)
{
	char *joined = reconcat(help, help, line, NULL);

	free(line);
	return joined;
}

static char *build_help(void)
{
	char *help = xstrdup("kplug " KPLUG_VERSION ": -fplugin-arg-kplug-enable=PASS[,PASS], "
			     "-disable=..., -config=FILE.ini, -root=DIR, -PASS-KEY=VALUE\n");
	int p;

	for (p = 0; p < NR_PASSES; p++) {
		const struct kplug_pass_info *info = &kplug_passes[p]->info;
		const struct kplug_opt *o;

		help = help_add(help, xasprintf("  %s: %s\n", info->name, info->help));
		for (o = info->opts; o && o->key; o++)
			help = help_add(help, xasprintf("    %s-%s (default %s): %s\n",
							info->name, o->key,
							o->def ? o->def : "unset",
							o->help));
	}
	return help;
}

/* One GGC root table: the roots of every enabled pass, concatenated. */
static void register_ggc_roots(const char *plugin_name)
{
	struct ggc_root_tab *all;
	const struct ggc_root_tab *r;
	int p, n = 0;

	for (p = 0; p < NR_PASSES; p++)
		for (r = kplug_passes[p]->ggc_roots;
		     kplug_config_enabled(kplug_cfg, p) && r && r->base; r++)
			n++;
	if (!n)
		return;
	all = XNEWVEC(struct ggc_root_tab, n + 1);
	n = 0;
	for (p = 0; p < NR_PASSES; p++)
		for (r = kplug_passes[p]->ggc_roots;
		     kplug_config_enabled(kplug_cfg, p) && r && r->base; r++)
			all[n++] = *r;
	memset(&all[n], 0, sizeof(all[n]));
	register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, all);
}

static bool parse_config(const struct plugin_name_args *info)
{
	int i;

	for (i = 0; i < NR_PASSES; i++)
		kplug_infos[i] = &kplug_passes[i]->info;
	kplug_cfg = kplug_config_new(kplug_infos, NR_PASSES);
	for (i = 0; i < info->argc; i++)
		if (kplug_config_add_arg(kplug_cfg, info->argv[i].key,
					 info->argv[i].value))
			goto fail;
	if (kplug_config_resolve(kplug_cfg, main_input_filename))
		goto fail;
	return true;
fail:
	error("%s", kplug_config_error(kplug_cfg));
	return false;
}

int plugin_init(struct plugin_name_args *plugin_info,
		struct plugin_gcc_version *version)
{
	static struct plugin_info kplug_info;
	const char *name = plugin_info->base_name;
	int p;

	/*
	 * Errors are reported with error() and 0 is returned: GCC then fails
	 * the compilation with our one line instead of adding its own.
	 */
	if (!check_gcc_version(version))
		return 0;
	if (!parse_config(plugin_info))
		return 0;

	kplug_info.version = KPLUG_VERSION;
	kplug_info.help = build_help();
	register_callback(name, PLUGIN_INFO, NULL, &kplug_info);
	register_ggc_roots(name);

	for (p = 0; p < NR_PASSES; p++) {
		struct kplug_ctx ctx = { kplug_cfg, p, name };

		if (kplug_config_enabled(kplug_cfg, p) &&
		    kplug_passes[p]->setup(&ctx))
			return 0;
	}
	return 0;
}
