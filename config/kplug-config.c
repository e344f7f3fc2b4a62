// SPDX-License-Identifier: GPL-2.0
/*
 * kplug option and ini profile handling; see kplug-config.h.
 *
 * Settings are collected first (and validated as they come), then applied
 * in precedence order by kplug_config_resolve().
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ini.h>

#include "kplug-config.h"
#include "kplug-util.h"

#define GLOBAL_PASS	(-1)

enum layer {
	LAYER_INI,		/* [kplug] and [PASS] sections */
	LAYER_INI_PATH,		/* [path:GLOB] sections */
	LAYER_ARG,		/* -fplugin-arg-kplug-* */
};

enum global_key {
	KEY_NONE,
	KEY_ENABLE,
	KEY_DISABLE,
	KEY_ROOT,
};

struct setting {
	enum layer layer;
	int pass;		/* GLOBAL_PASS for enable/disable/root */
	int opt;		/* option index, or enum global_key */
	char *value;
	char *origin;
	char *glob;		/* LAYER_INI_PATH only */
	struct setting *next;
};

struct value {
	const char *str;	/* points into a setting, a default or owned */
	char *owned;		/* an accumulated list */
	long num;
	const char *origin;
};

struct kplug_config {
	const struct kplug_pass_info *const *passes;
	int npasses;
	struct setting *head, **tail;
	struct value **values;	/* [pass][opt] */
	int *nopts;
	int *enabled;
	char *match_path;
	char err[KPLUG_ERR_MAX];
};

static int fail(struct kplug_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct kplug_config *cfg, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kplug_vfail(cfg->err, sizeof(cfg->err), fmt, ap);
	va_end(ap);
	return ret;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = (char *)kplug_xzalloc(len + 1);
	va_start(ap, fmt);
	vsnprintf(p, len + 1, fmt, ap);
	va_end(ap);
	return p;
}

/* ---- lists and choices ---- */

static const char *skip_space(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

int kplug_list_foreach(const char *list, int (*fn)(const char *item, void *arg),
		       void *arg)
{
	char buf[4096];
	const char *p = list;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t len;
		int ret;

		if (!end)
			end = p + strlen(p);
		p = skip_space(p);
		len = end > p ? (size_t)(end - p) : 0;
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		ret = fn(buf, arg);
		if (ret)
			return ret;
		if (!*end)
			return 0;
		p = end + 1;
	}
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

/* ---- value parsing ---- */

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
		return fail(lc->cfg, "%s: empty item in list for '%s'", lc->what,
			    lc->name);
	lc->count++;
	if (lc->opt->type != KPLUG_OPT_SET)
		return 0;
	idx = kplug_choice_index(lc->opt->choices, item, strlen(item));
	if (idx < 0)
		return fail(lc->cfg, "%s: unknown value '%s' for '%s' (expected %s)",
			    lc->what, item, lc->name, lc->opt->choices);
	lc->mask |= 1L << idx;
	return 0;
}

static int parse_bool(const char *s)
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

/* Validate VALUE for OPT; store its numeric form in *NUM. */
static int parse_value(struct kplug_config *cfg, const struct kplug_opt *opt,
		       const char *name, const char *value, const char *what,
		       long *num)
{
	struct list_check lc = { cfg, opt, what, name, 0, 0 };
	char *end;
	long n;

	*num = 0;
	if (!*value)
		return fail(cfg, "%s: empty value for '%s'", what, name);
	switch (opt->type) {
	case KPLUG_OPT_STR:
		return 0;
	case KPLUG_OPT_INT:
		errno = 0;
		n = strtol(value, &end, 10);
		if (errno || *end || end == value || isspace((unsigned char)*value))
			return fail(cfg, "%s: '%s' is not a number for '%s'",
				    what, value, name);
		if (n < opt->min || n > opt->max)
			return fail(cfg, "%s: %ld is out of range for '%s' (%ld..%ld)",
				    what, n, name, opt->min, opt->max);
		*num = n;
		return 0;
	case KPLUG_OPT_BOOL:
		n = parse_bool(value);
		if (n < 0)
			return fail(cfg, "%s: '%s' is not on/off for '%s'", what,
				    value, name);
		*num = n;
		return 0;
	case KPLUG_OPT_ENUM:
		n = kplug_choice_index(opt->choices, value, strlen(value));
		if (n < 0)
			return fail(cfg, "%s: unknown value '%s' for '%s' (expected one of %s)",
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
	return fail(cfg, "%s: bad option type for '%s'", what, name);
}

/* ---- construction ---- */

static int count_opts(const struct kplug_pass_info *pass)
{
	int n = 0;

	while (pass->opts && pass->opts[n].key)
		n++;
	return n;
}

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
	name = xasprintf("%s-%s", cfg->passes[pass]->name, o->key);
	ret = parse_value(cfg, o, name, o->def, "default", &v->num);
	free(name);
	return ret;
}

struct kplug_config *kplug_config_new(const struct kplug_pass_info *const *passes,
				      int npasses)
{
	struct kplug_config *cfg = (struct kplug_config *)kplug_xzalloc(sizeof(*cfg));
	int p, o;

	cfg->passes = passes;
	cfg->npasses = npasses;
	cfg->tail = &cfg->head;
	cfg->values = (struct value **)kplug_xzalloc(npasses * sizeof(*cfg->values));
	cfg->nopts = (int *)kplug_xzalloc(npasses * sizeof(int));
	cfg->enabled = (int *)kplug_xzalloc(npasses * sizeof(int));
	for (p = 0; p < npasses; p++) {
		cfg->nopts[p] = count_opts(passes[p]);
		cfg->values[p] = (struct value *)kplug_xzalloc(cfg->nopts[p] *
							  sizeof(struct value));
		for (o = 0; o < cfg->nopts[p]; o++)
			set_default(cfg, p, o);
	}
	return cfg;
}

void kplug_config_free(struct kplug_config *cfg)
{
	struct setting *s, *next;
	int p;

	if (!cfg)
		return;
	for (s = cfg->head; s; s = next) {
		next = s->next;
		free(s->value);
		free(s->origin);
		free(s->glob);
		free(s);
	}
	for (p = 0; p < cfg->npasses; p++) {
		int o;

		for (o = 0; o < cfg->nopts[p]; o++)
			free(cfg->values[p][o].owned);
		free(cfg->values[p]);
	}
	free(cfg->values);
	free(cfg->nopts);
	free(cfg->enabled);
	free(cfg->match_path);
	free(cfg);
}

const char *kplug_config_error(const struct kplug_config *cfg)
{
	return cfg->err;
}

/* ---- collecting settings ---- */

static int find_pass(const struct kplug_config *cfg, const char *name, size_t len)
{
	int p;

	for (p = 0; p < cfg->npasses; p++)
		if (strlen(cfg->passes[p]->name) == len &&
		    !strncmp(cfg->passes[p]->name, name, len))
			return p;
	return -1;
}

static int find_opt(const struct kplug_config *cfg, int pass, const char *key)
{
	int o;

	for (o = 0; o < cfg->nopts[pass]; o++)
		if (!strcmp(cfg->passes[pass]->opts[o].key, key))
			return o;
	return -1;
}

static char *pass_names(const struct kplug_config *cfg)
{
	char *names = kplug_xstrdup("all");
	int p;

	for (p = 0; p < cfg->npasses; p++) {
		char *n = xasprintf("%s, %s", names, cfg->passes[p]->name);

		free(names);
		names = n;
	}
	return names;
}

struct pass_check {
	struct kplug_config *cfg;
	const char *what;
};

static int check_pass_item(const char *item, void *arg)
{
	struct pass_check *pc = (struct pass_check *)arg;
	char *names;

	if (!*item)
		return fail(pc->cfg, "%s: empty item in pass list", pc->what);
	if (!strcmp(item, "all") || find_pass(pc->cfg, item, strlen(item)) >= 0)
		return 0;
	names = pass_names(pc->cfg);
	fail(pc->cfg, "%s: unknown pass '%s' (known: %s)", pc->what, item, names);
	free(names);
	return -1;
}

static void append(struct kplug_config *cfg, enum layer layer, int pass, int opt,
		   const char *value, const char *origin, const char *glob)
{
	struct setting *s = (struct setting *)kplug_xzalloc(sizeof(*s));

	s->layer = layer;
	s->pass = pass;
	s->opt = opt;
	s->value = kplug_xstrdup(value);
	s->origin = kplug_xstrdup(origin);
	s->glob = glob ? kplug_xstrdup(glob) : NULL;
	*cfg->tail = s;
	cfg->tail = &s->next;
}

static int global_key(const char *key)
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
 * Validate and collect KEY=VALUE in command-line form ("enable",
 * "sancov-trace").  WHAT names the setting in errors.
 */
static int collect(struct kplug_config *cfg, enum layer layer, const char *key,
		   const char *value, const char *what, const char *glob)
{
	const char *dash;
	int gkey = global_key(key);
	int pass, opt;
	long num;

	if (gkey != KEY_NONE) {
		struct pass_check pc = { cfg, what };

		if (!value)
			return fail(cfg, "%s: '%s' needs a value", what, key);
		if (!*skip_space(value))
			return fail(cfg, "%s: empty %s for '%s'", what,
				    gkey == KEY_ROOT ? "path" : "list", key);
		if (gkey != KEY_ROOT &&
		    kplug_list_foreach(value, check_pass_item, &pc))
			return -1;
		append(cfg, layer, GLOBAL_PASS, gkey, value, what, glob);
		return 0;
	}
	dash = strchr(key, '-');
	pass = dash ? find_pass(cfg, key, dash - key) : -1;
	if (pass < 0) {
		if (find_pass(cfg, key, strlen(key)) >= 0)
			return fail(cfg, "%s: '%s' is a pass, not an option; use enable=%s",
				    what, key, key);
		return fail(cfg, "%s: unknown option '%s'", what, key);
	}
	opt = find_opt(cfg, pass, dash + 1);
	if (opt < 0)
		return fail(cfg, "%s: unknown option '%s' of pass %s", what,
			    dash + 1, cfg->passes[pass]->name);
	if (!value)
		return fail(cfg, "%s: '%s' needs a value", what, key);
	if (parse_value(cfg, &cfg->passes[pass]->opts[opt], key, value, what, &num))
		return -1;
	append(cfg, layer, pass, opt, value, what, glob);
	return 0;
}

int kplug_config_add_arg(struct kplug_config *cfg, const char *key,
			 const char *value)
{
	char *what;
	int ret;

	if (value)
		what = xasprintf("-fplugin-arg-kplug-%s=%s", key, value);
	else
		what = xasprintf("-fplugin-arg-kplug-%s", key);
	if (!strcmp(key, "config")) {
		if (!value || !*value)
			ret = fail(cfg, "%s: 'config' needs a file name", what);
		else
			ret = kplug_config_load_ini(cfg, value);
	} else {
		ret = collect(cfg, LAYER_ARG, key, value, what, NULL);
	}
	free(what);
	return ret;
}

/* ---- ini files ---- */

struct ini_state {
	struct kplug_config *cfg;
	const char *path;
	FILE *file;
	int line;
	int failed;		/* an error is already in cfg->err */
	int too_long;
	int nul_byte;
	int max_line;
};

/*
 * inih reads through this so that we know the line number and can refuse
 * lines that inih would otherwise split silently.
 */
static char *read_ini_line(char *str, int num, void *stream)
{
	struct ini_state *st = (struct ini_state *)stream;
	int c = EOF, len = 0;

	if (st->failed || st->too_long || st->nul_byte)
		return NULL;
	while (len < num - 1 && (c = getc(st->file)) != EOF) {
		if (c == '\0')
			st->nul_byte = 1;
		str[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (len == 0)
		return NULL;
	str[len] = '\0';
	st->line++;
	if (st->nul_byte)
		return NULL;
	if (c != '\n' && len == num - 1 && (c = getc(st->file)) != EOF) {
		/* inih would silently split this line in two */
		st->too_long = 1;
		st->max_line = num - 2;
		return NULL;
	}
	return str;
}

static int on_ini_entry(void *user, const char *section, const char *name,
		       const char *value)
{
	struct ini_state *st = (struct ini_state *)user;
	struct kplug_config *cfg = st->cfg;
	enum layer layer = LAYER_INI;
	const char *glob = NULL;
	char *what, *key;
	int pass, ret;

	if (st->failed)
		return 0;
	what = xasprintf("%s:%d", st->path, st->line);
	if (!*section) {
		key = NULL;
		ret = fail(cfg, "%s: '%s' outside any [section]", what, name);
		goto out;
	}
	if (!strcmp(section, "kplug")) {
		key = kplug_xstrdup(name);
		if (global_key(key) == KEY_NONE) {
			ret = fail(cfg, "%s: unknown key '%s' in [kplug] (expected enable, disable, root)",
				   what, name);
			goto out;
		}
	} else if (!strncmp(section, "path:", 5)) {
		glob = section + 5;
		layer = LAYER_INI_PATH;
		key = kplug_xstrdup(name);
		if (!*glob) {
			ret = fail(cfg, "%s: empty glob in section [path:]", what);
			goto out;
		}
		if (global_key(key) == KEY_ROOT) {
			ret = fail(cfg, "%s: 'root' belongs in [kplug], not [%s]",
				   what, section);
			goto out;
		}
	} else {
		pass = find_pass(cfg, section, strlen(section));
		if (pass < 0) {
			char *names = pass_names(cfg);

			key = NULL;
			ret = fail(cfg, "%s: unknown section [%s] (expected kplug, path:GLOB or a pass: %s)",
				   what, section, names + 5);
			free(names);
			goto out;
		}
		key = xasprintf("%s-%s", section, name);
		if (find_opt(cfg, pass, name) < 0) {
			ret = fail(cfg, "%s: unknown key '%s' in [%s]", what,
				   name, section);
			goto out;
		}
	}
	ret = collect(cfg, layer, key, value, what, glob);
out:
	free(key);
	free(what);
	if (ret)
		st->failed = 1;
	return !ret;
}

int kplug_config_load_ini(struct kplug_config *cfg, const char *path)
{
	struct ini_state st = { cfg, path, NULL, 0, 0, 0, 0, 0 };
	struct stat sb;
	int ret;

	st.file = fopen(path, "r");
	if (!st.file)
		return fail(cfg, "%s: cannot open profile: %s", path, strerror(errno));
	if (fstat(fileno(st.file), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fclose(st.file);
		return fail(cfg, "%s: cannot open profile: Is a directory", path);
	}
	ret = ini_parse_stream(read_ini_line, &st, on_ini_entry, &st);
	if (!st.failed && ferror(st.file))
		st.failed = fail(cfg, "%s: read error: %s", path, strerror(errno));
	fclose(st.file);
	if (ret > 0 && ret < st.line)	/* a syntax error came first */
		return fail(cfg, "%s:%d: syntax error (expected [section] or key = value)",
			    path, ret);
	if (st.failed)
		return -1;
	if (st.too_long)
		return fail(cfg, "%s:%d: line longer than %d characters", path,
			    st.line, st.max_line);
	if (st.nul_byte)
		return fail(cfg, "%s:%d: NUL byte in line", path, st.line);
	if (ret > 0)
		return fail(cfg, "%s:%d: syntax error (expected [section] or key = value)",
			    path, ret);
	if (ret < 0)
		return fail(cfg, "%s: cannot parse profile", path);
	return 0;
}

/* ---- resolving ---- */

/* Lexically normalise an absolute path: drop ".", "..", duplicate slashes. */
static void normalize(char *path)
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

static char *absolute(const char *path)
{
	char cwd[PATH_MAX];
	char *abs;

	if (path[0] == '/')
		abs = kplug_xstrdup(path);
	else if (!getcwd(cwd, sizeof(cwd)))
		abs = xasprintf("/%s", path);	/* cwd unknown: take "/" */
	else
		abs = xasprintf("%s/%s", cwd, path);
	normalize(abs);
	return abs;
}

/* The input relative to ROOT (default: the current directory). */
static char *match_path(const char *input, const char *root)
{
	char *abs_input = absolute(input);
	char *abs_root = absolute(root ? root : ".");
	size_t len = strlen(abs_root);
	char *rel;

	if (!strcmp(abs_root, "/"))
		rel = kplug_xstrdup(abs_input + 1);
	else if (!strncmp(abs_input, abs_root, len) && abs_input[len] == '/')
		rel = kplug_xstrdup(abs_input + len + 1);
	else
		rel = kplug_xstrdup(abs_input);
	free(abs_input);
	free(abs_root);
	return rel;
}

struct enable_op {
	struct kplug_config *cfg;
	int on;
};

static int apply_enable_item(const char *item, void *arg)
{
	struct enable_op *op = (struct enable_op *)arg;
	int p;

	if (!strcmp(item, "all")) {
		for (p = 0; p < op->cfg->npasses; p++)
			op->cfg->enabled[p] = op->on;
		return 0;
	}
	p = find_pass(op->cfg, item, strlen(item));
	op->cfg->enabled[p] = op->on;
	return 0;
}

static void apply(struct kplug_config *cfg, const struct setting *s)
{
	struct value *v;
	const struct kplug_opt *o;
	struct enable_op op = { cfg, s->opt == KEY_ENABLE };

	if (s->pass == GLOBAL_PASS) {
		if (s->opt != KEY_ROOT)
			kplug_list_foreach(s->value, apply_enable_item, &op);
		return;
	}
	o = &cfg->passes[s->pass]->opts[s->opt];
	v = &cfg->values[s->pass][s->opt];
	if (o->type == KPLUG_OPT_LIST && v->str && strcmp(v->origin, "default")) {
		/* lists accumulate: join with the earlier value */
		char *joined = xasprintf("%s,%s", v->str, s->value);

		free(v->owned);
		v->owned = joined;
		v->str = joined;
	} else {
		v->str = s->value;
	}
	v->origin = s->origin;
	parse_value(cfg, o, o->key, v->str, s->origin, &v->num);
}

/* The last root given on the command line, else the last one in a profile. */
static const char *find_root(const struct kplug_config *cfg)
{
	const char *root = NULL, *arg_root = NULL;
	const struct setting *s;

	for (s = cfg->head; s; s = s->next) {
		if (s->pass != GLOBAL_PASS || s->opt != KEY_ROOT)
			continue;
		if (s->layer == LAYER_ARG)
			arg_root = s->value;
		else
			root = s->value;
	}
	return arg_root ? arg_root : root;
}

static void reset(struct kplug_config *cfg)
{
	int p, o;

	for (p = 0; p < cfg->npasses; p++) {
		cfg->enabled[p] = 0;
		for (o = 0; o < cfg->nopts[p]; o++)
			set_default(cfg, p, o);
	}
}

int kplug_config_resolve(struct kplug_config *cfg, const char *input)
{
	const struct setting *s;
	int layer;

	reset(cfg);
	free(cfg->match_path);
	cfg->match_path = input ? match_path(input, find_root(cfg)) : NULL;

	for (layer = LAYER_INI; layer <= LAYER_ARG; layer++) {
		for (s = cfg->head; s; s = s->next) {
			if (s->layer != (enum layer)layer)
				continue;
			if (s->glob && (!cfg->match_path ||
					fnmatch(s->glob, cfg->match_path, 0)))
				continue;
			apply(cfg, s);
		}
	}
	return 0;
}

const char *kplug_config_match_path(const struct kplug_config *cfg)
{
	return cfg->match_path;
}

/* ---- getters ---- */

int kplug_config_enabled(const struct kplug_config *cfg, int pass)
{
	return cfg->enabled[pass];
}

static const struct value *lookup(const struct kplug_config *cfg, int pass,
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
	return lookup(cfg, pass, key)->str;
}

long kplug_config_int(const struct kplug_config *cfg, int pass, const char *key)
{
	return lookup(cfg, pass, key)->num;
}

const char *kplug_config_origin(const struct kplug_config *cfg, int pass,
				const char *key)
{
	return lookup(cfg, pass, key)->origin;
}
