// SPDX-License-Identifier: GPL-2.0
/*
 * kplug: one GCC plugin for kernel builds, multiplexing sub-passes.
 *
 * This file only wires the sub-passes of passes/ together: one version
 * check, one option/profile parse, one PLUGIN_INFO, then for the unit,
 * once its source file's name is known, one GGC root table and the setup
 * of every enabled pass.  Adding a pass means adding its
 * file to passes/ and one line to the table below.
 */
#include "kplug.h"
#include "compat/source-name.h"

int plugin_is_GPL_compatible;

static const struct kplug_pass *const kplug_passes[] = {
	&kplug_cyc_complexity,
	&kplug_sancov,
};

#define NR_PASSES	((int)ARRAY_SIZE(kplug_passes))

static struct kplug_config *kplug_cfg;
static const struct kplug_pass_info *kplug_infos[NR_PASSES];
static const char *kplug_plugin_name;
static const char *kplug_raw_input;	/* what cc1 was given: "foo.i", "-" */
static const char *kplug_source;	/* what the line marker names */

const char *kplug_unit_source(void)
{
	return kplug_source;
}

const char *kplug_unit_name(void)
{
	return kplug_source ? kplug_source : main_input_filename;
}

void kplug_error(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);	/* any length: it may quote a path */
	va_end(ap);
	/* about the configuration, never a source line: no location */
	error_at(UNKNOWN_LOCATION, "kplug: %s", msg);
	free(msg);
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

static char *help_add(char *help, char *line)
{
	char *joined = reconcat(help, help, line, NULL);

	free(line);
	return joined;
}

static char *build_help(void)
{
	char *help = xstrdup("kplug " KPLUG_VERSION ": -fplugin-arg-kplug-enable=PASS[,PASS], "
			     "-disable=..., -config=FILE.ini, -root=DIR, -PASS-KEY=VALUE, -help; "
			     "below the profile: -default-KEY=VALUE; hard gates: "
			     "-forbid=PASS, -permit=PASS, -limit-PASS-KEY=VALUE[,VALUE]\n");
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

/*
 * The profile "make PROFILE=" or the kernel build put into kplug.so itself
 * (section .kplug.profile: its name, a NUL, its text): read first, as if
 * by a -fplugin-arg-kplug-config= before every argument.  It travels with
 * the plugin file wherever that goes (icecream ships it to the remote,
 * ccache hashes it), so no compile can run with another profile.
 */
static bool load_embedded_profile(const char *so)
{
	char *err = NULL, *data, *origin;
	size_t len, name_len;
	int ret;

	ret = kplug_elf_section(so, KPLUG_PROFILE_SECTION, &data, &len, &err);
	if (ret <= 0) {
		if (ret < 0)
			error("%s", err ? err : "kplug: out of memory");
		free(err);
		return ret == 0;
	}
	name_len = strnlen(data, len);
	if (name_len == len) {
		kplug_error("%s: section %s: no NUL byte ends the name of the profile",
			    so, KPLUG_PROFILE_SECTION);
		free(data);
		return false;
	}
	origin = concat(data, " (embedded in ", so, ")", NULL);
	ret = kplug_config_load_ini_mem(kplug_cfg, origin, data + name_len + 1,
					len - name_len - 1);
	free(origin);
	free(data);
	if (ret)
		error("%s", kplug_config_error(kplug_cfg));
	return ret == 0;
}

static bool parse_config(const struct plugin_name_args *info)
{
	int i;

	for (i = 0; i < NR_PASSES; i++)
		kplug_infos[i] = &kplug_passes[i]->info;
	kplug_cfg = kplug_config_new(kplug_infos, NR_PASSES);
	if (!load_embedded_profile(info->full_name))
		return false;
	for (i = 0; i < info->argc; i++) {
		/* -fplugin-arg-kplug-help: the options, as gcc -v --help lists them */
		if (!strcmp(info->argv[i].key, "help")) {
			char *help;

			if (info->argv[i].value) {
				kplug_error("-fplugin-arg-kplug-help=%s: help takes no value",
					    info->argv[i].value);
				return false;
			}
			help = build_help();
			fputs(help, stdout);
			fflush(stdout);
			free(help);
			continue;
		}
		if (kplug_config_add_arg(kplug_cfg, info->argv[i].key,
					 info->argv[i].value))
			goto fail;
	}
	return true;
fail:
	error("%s", kplug_config_error(kplug_cfg));
	return false;
}

/* Settings that depend on the path need the source file's name. */
static bool check_source_known(const char *source)
{
	const char *glob, *origin;

	if (source)
		return true;
	origin = kplug_config_path_origin(kplug_cfg, &glob);
	if (!origin)
		return true;
	kplug_error("%s: [path:%s] needs the name of the source file, but '%s' "
		    "starts with no line marker naming it (preprocessed with -P?)",
		    origin, glob, main_input_filename);
	return false;
}

/*
 * Relative paths mean the directory the unit was compiled in, which for
 * preprocessed input may not be cc1's (icecream compiles remotely, in
 * another directory).  Where it cannot be known and matching depends on
 * it, stop rather than guess: icecream then compiles locally.
 */
static bool set_unit_dir(const char *source)
{
	const char *glob, *origin, *dir;
	bool unknown;

	dir = kplug_source_dir(kplug_raw_input, &unknown);
	kplug_config_set_cwd(kplug_cfg, dir);
	if (!unknown || !kplug_config_needs_cwd(kplug_cfg, source))
		return true;
	origin = kplug_config_path_origin(kplug_cfg, &glob);
	kplug_error("%s: [path:%s] matches '%s' against root= by the directory it "
		    "was compiled in, which this preprocessed input on stdin does not "
		    "name: preprocess with -fworking-directory (or -g), or give root= "
		    "and the source path both relative or both absolute",
		    origin, glob, source);
	return false;
}

/*
 * Everything that depends on the unit: [path:] sections, src: lists, and
 * so which passes run, with what options.  Called once the source's name
 * is known, before the front end parses any code.
 */
static void begin_unit(const char *source)
{
	int p;

	kplug_source = source;
	if (!check_source_known(source) || !set_unit_dir(source))
		return;
	if (kplug_config_resolve(kplug_cfg, source)) {
		error("%s", kplug_config_error(kplug_cfg));
		return;
	}
	register_ggc_roots(kplug_plugin_name);
	for (p = 0; p < NR_PASSES; p++) {
		struct kplug_ctx ctx = { kplug_cfg, p, kplug_plugin_name };

		if (kplug_config_enabled(kplug_cfg, p) &&
		    kplug_passes[p]->setup(&ctx))
			return;
	}
}

/*
 * lto1 compiles no source file: [path:] sections would match its temporary
 * names and every pass ran when the units were compiled.  An enabled pass
 * there is an argument in the wrong place, not something to ignore.
 */
static void begin_lto_link_unit(void)
{
	int p;

	if (kplug_config_resolve(kplug_cfg, kplug_raw_input)) {
		error("%s", kplug_config_error(kplug_cfg));
		return;
	}
	for (p = 0; p < NR_PASSES; p++) {
		if (!kplug_config_enabled(kplug_cfg, p))
			continue;
		kplug_error("%s is enabled in the LTO link (lto1), which compiles no "
			    "source file: kplug's passes run when each file is compiled; "
			    "drop the -fplugin-arg-kplug-* arguments from the link command",
			    kplug_passes[p]->info.name);
		return;
	}
}

static void start_unit(void *gcc_data, void *user_data)
{
	if (kplug_in_lto_link())
		begin_lto_link_unit();
	else
		kplug_source_name(kplug_raw_input, begin_unit);
}

int plugin_init(struct plugin_name_args *plugin_info,
		struct plugin_gcc_version *version)
{
	static struct plugin_info kplug_info;
	const char *name = plugin_info->base_name;

	/*
	 * Errors are reported with error() and 0 is returned: GCC then fails
	 * the compilation with our one line instead of adding its own.
	 */
	if (!kplug_check_gcc_version(version))
		return 0;
	if (!parse_config(plugin_info))
		return 0;

	kplug_info.version = KPLUG_VERSION;
	kplug_info.help = build_help();
	register_callback(name, PLUGIN_INFO, NULL, &kplug_info);
	/*
	 * The unit's settings wait for the source's name: here cc1's input
	 * is still "foo.i" or "-" (stdin).  PLUGIN_START_UNIT comes before
	 * the front end parses anything, so every pass is still set up in
	 * time (sancov's flag changes how && and || are folded).
	 */
	kplug_plugin_name = name;
	kplug_raw_input = main_input_filename ? main_input_filename : "-";
	kplug_source_watch_dir();
	register_callback(name, PLUGIN_START_UNIT, start_unit, NULL);
	return 0;
}
