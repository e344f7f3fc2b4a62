// SPDX-License-Identifier: GPL-2.0
/*
 * Path matching: the input file made relative to root= (or the unit's
 * working directory), "." and ".." resolved, for [path:GLOB] globs to
 * match with fnmatch(3) (without FNM_PATHNAME: '*' also matches '/').
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config-internal.h"
#include "kplug-util.h"

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
		abs = kplug_xasprintf("%s/%s", dir, path);
	else if (!(cwd = getcwd(NULL, 0)))	/* allocated: any length */
		abs = kplug_xasprintf("/%s", path);	/* cwd deleted: take "/" */
	else
		abs = kplug_xasprintf("%s/%s", cwd, path);
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
	char *dir = kplug_xasprintf("%.*s", (int)(slash - file), file);
	char *real = realpath(*dir ? dir : "/", NULL);
	char *out = NULL;

	if (real) {
		out = kplug_xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash + 1);
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

/* cfg->match_path for INPUT (NULL: no input, no [path:] section matches). */
void match_input(struct kplug_config *cfg, const char *input)
{
	free(cfg->match_path);
	cfg->match_path = input ? relative_match_path(input, root_setting(cfg),
						       cfg->cwd) : NULL;
}

/* S applies to this input: it is not in a [path:GLOB] section, or GLOB matches. */
int setting_matches_path(const struct kplug_config *cfg, const struct setting *s)
{
	return !s->glob ||
	       (cfg->match_path && !fnmatch(s->glob, cfg->match_path, 0));
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
