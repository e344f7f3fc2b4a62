// SPDX-License-Identifier: GPL-2.0
/*
 * kplug's ini dialect (README, "ini profiles"): every line of a profile is
 * read and normalised here and handed to inih, so the dialect holds
 * whatever options Debian's libinih.a was built with; each entry becomes a
 * setting in its layer ([kplug] and [PASS]: LAYER_INI, [path:GLOB]:
 * LAYER_INI_PATH).  The only file of config/ that includes <ini.h>.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <ini.h>

#include "config-internal.h"
#include "kplug-util.h"

/*
 * inih keeps section names in a buffer of this size (MAX_SECTION in ini.c,
 * not configurable) and cuts longer ones silently.
 */
#define INI_SECTION_MAX	50

/* A key seen in this file, to refuse a repeated one. */
struct ini_key {
	char *section;
	char *name;
	int line;
	struct ini_key *next;
};

/* The profile being read: lives for one load_ini_stream(). */
struct ini_state {
	struct kplug_config *cfg;
	const char *path;
	FILE *file;
	char *buf;		/* the raw line, any length */
	size_t cap;
	int line;
	int failed;		/* an error is already in cfg->err */
	const char *problem;	/* a line the reader refused, at st->line */
	int max_line;
	struct ini_key *keys;
};

static int ini_space(char c)
{
	return isspace((unsigned char)c);
}

/* Cut S at the first ';' or '#' that follows whitespace. */
static void cut_inline_comment(char *s)
{
	char *p;

	if (!*s)
		return;
	for (p = s + 1; *p; p++) {
		if ((*p == ';' || *p == '#') && ini_space(p[-1])) {
			*p = '\0';
			return;
		}
	}
}

static char *strip_trailing_space(char *s)
{
	size_t len = strlen(s);

	while (len && ini_space(s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* Stop reading: PROBLEM is reported for st->line. */
static char *refuse_line(struct ini_state *st, const char *problem)
{
	st->problem = problem;
	return NULL;
}

/*
 * "[ name ]" becomes "[name]"; refuse what inih would cut or ignore: a
 * name longer than its buffer, text after the ']', an empty name.  Returns
 * -1 with *PROBLEM set.  Without a ']' inih reports the syntax error itself.
 */
static int normalize_section(char *s, const char **problem)
{
	char *name = s + 1, *close = strchr(s, ']');
	size_t len;

	*problem = NULL;
	if (!close)
		return 0;
	if (*skip_space(close + 1)) {
		*problem = "text after the section header's ']'";
		return -1;
	}
	while (name < close && ini_space(*name))
		name++;
	while (close > name && ini_space(close[-1]))
		close--;
	len = close - name;
	if (!len)
		*problem = "empty section name";
	else if (len >= INI_SECTION_MAX)
		*problem = "section name longer than 49 characters";
	if (*problem)
		return -1;
	memmove(s + 1, name, len);
	s[len + 1] = ']';
	s[len + 2] = '\0';
	return 0;
}

/*
 * Read one line of the profile and hand inih its normalised form, so that
 * kplug's ini dialect (README, "ini profiles") holds whatever options
 * Debian's libinih.a was built with:
 *  - the line number is ours (st->line);
 *  - leading whitespace goes: an indented line is an ordinary line (inih
 *    built with INI_ALLOW_MULTILINE would take it as a continuation of the
 *    previous key);
 *  - a UTF-8 BOM at the start of the file, the line end (LF or CRLF),
 *    trailing whitespace, comment lines and inline comments (';' or '#'
 *    after whitespace) go;
 *  - what inih would split, cut or misread is refused: a NUL byte, a CR
 *    inside the line, a line longer than inih's buffer, a section name
 *    longer than its buffer, text after a section header.
 */
static char *read_ini_line(char *str, int num, void *stream)
{
	struct ini_state *st = (struct ini_state *)stream;
	const char *problem;
	ssize_t n;
	char *s;

	if (st->failed || st->problem)
		return NULL;
	n = getline(&st->buf, &st->cap, st->file);
	if (n < 0)
		return NULL;
	st->line++;
	if (memchr(st->buf, '\0', n))
		return refuse_line(st, "NUL byte in line");
	s = strip_trailing_space(st->buf);
	if (st->line == 1 && !strncmp(s, "\xef\xbb\xbf", 3))
		s += 3;
	s = (char *)skip_space(s);
	if (strchr(s, '\r'))
		return refuse_line(st, "carriage return inside a line");
	if (*s == ';' || *s == '#')
		*s = '\0';
	cut_inline_comment(s);
	strip_trailing_space(s);
	if (*s == '[' && normalize_section(s, &problem))
		return refuse_line(st, problem);
	if (strlen(s) > (size_t)num - 1) {
		st->max_line = num - 1;
		return refuse_line(st, "line too long");
	}
	strcpy(str, s);
	return str;
}

/* A key may appear once per section name in a file. */
static int check_repeated_key(struct ini_state *st, const char *section,
			      const char *name, const char *what)
{
	struct ini_key *k;

	for (k = st->keys; k; k = k->next)
		if (!strcmp(k->section, section) && !strcmp(k->name, name))
			return config_error(st->cfg, "%s: '%s' repeated in [%s] (first set at line %d)",
					    what, name, section, k->line);
	k = (struct ini_key *)kplug_xzalloc(sizeof(*k));
	k->section = kplug_xstrdup(section);
	k->name = kplug_xstrdup(name);
	k->line = st->line;
	k->next = st->keys;
	st->keys = k;
	return 0;
}

static void free_ini_keys(struct ini_key *k)
{
	struct ini_key *next;

	for (; k; k = next) {
		next = k->next;
		free(k->section);
		free(k->name);
		free(k);
	}
}

/* Values are literal: a leading quote would silently become part of one. */
static int check_unquoted(struct kplug_config *cfg, const char *name,
			  const char *value, const char *what)
{
	if (*value != '"' && *value != '\'')
		return 0;
	return config_error(cfg, "%s: value of '%s' starts with a quote (kplug's ini has no quoting; write the value without quotes)",
			    what, name);
}

/*
 * The command-line form of NAME in SECTION ("min" in [cyc_complexity] is
 * "cyc_complexity-min"), with its layer and glob; NULL after an error.
 */
static char *ini_setting_key(struct kplug_config *cfg, const char *section,
			     const char *name, const char *what, enum layer *layer,
			     const char **glob)
{
	int pass;

	*layer = LAYER_INI;
	*glob = NULL;
	if (!*section) {
		config_error(cfg, "%s: '%s' outside any [section]", what, name);
		return NULL;
	}
	if (!strcmp(section, "kplug")) {
		if (parse_global_key(name) != KEY_NONE)
			return kplug_xstrdup(name);
		config_error(cfg, "%s: unknown key '%s' in [kplug] (expected enable, disable, root)",
			     what, name);
		return NULL;
	}
	if (!strncmp(section, "path:", 5)) {
		*layer = LAYER_INI_PATH;
		*glob = section + 5;
		if (!**glob)
			config_error(cfg, "%s: empty glob in section [path:]", what);
		else if (parse_global_key(name) == KEY_ROOT)
			config_error(cfg, "%s: 'root' belongs in [kplug], not [%s]", what, section);
		else
			return kplug_xstrdup(name);
		return NULL;
	}
	pass = find_pass(cfg, section, strlen(section));
	if (pass < 0) {
		char *names = pass_names(cfg);

		config_error(cfg, "%s: unknown section [%s] (expected kplug, path:GLOB or a pass: %s)",
			     what, section, names + 5);
		free(names);
		return NULL;
	}
	if (find_opt(cfg, pass, name) < 0) {
		config_error(cfg, "%s: unknown key '%s' in [%s]", what, name, section);
		return NULL;
	}
	return kplug_xasprintf("%s-%s", section, name);
}

static int on_ini_entry(void *user, const char *section, const char *name,
			const char *value)
{
	struct ini_state *st = (struct ini_state *)user;
	struct kplug_config *cfg = st->cfg;
	enum layer layer;
	const char *glob;
	char *what, *key;
	int ret = -1;

	if (st->failed)
		return 0;
	what = kplug_xasprintf("%s:%d", st->path, st->line);
	key = ini_setting_key(cfg, section, name, what, &layer, &glob);
	if (key && !check_unquoted(cfg, name, value, what) &&
	    !check_repeated_key(st, section, name, what))
		ret = record_setting(cfg, layer, key, value, what, glob);
	free(key);
	free(what);
	if (ret)
		st->failed = 1;
	return !ret;
}

/* Parse the profile in FILE (closed here); PATH names it in messages. */
static int load_ini_stream(struct kplug_config *cfg, const char *path, FILE *file)
{
	struct ini_state st;
	int ret;

	memset(&st, 0, sizeof(st));
	st.cfg = cfg;
	st.path = path;
	st.file = file;
	ret = ini_parse_stream(read_ini_line, &st, on_ini_entry, &st);
	if (!st.failed && ferror(st.file))
		st.failed = config_error(cfg, "%s: read error: %s", path, strerror(errno));
	fclose(st.file);
	free(st.buf);
	free_ini_keys(st.keys);
	if (ret > 0 && ret < st.line)	/* a syntax error came first */
		return config_error(cfg, "%s:%d: syntax error (expected [section] or key = value)",
				    path, ret);
	if (st.failed)
		return -1;
	if (st.max_line)
		return config_error(cfg, "%s:%d: line longer than %d characters", path,
				    st.line, st.max_line);
	if (st.problem)
		return config_error(cfg, "%s:%d: %s", path, st.line, st.problem);
	if (ret > 0)
		return config_error(cfg, "%s:%d: syntax error (expected [section] or key = value)",
				    path, ret);
	if (ret < 0)
		return config_error(cfg, "%s: cannot parse profile", path);
	return 0;
}

int kplug_config_load_ini(struct kplug_config *cfg, const char *path)
{
	struct stat sb;
	FILE *file;

	file = fopen(path, "r");
	if (!file)
		return config_error(cfg, "%s: cannot open profile: %s", path, strerror(errno));
	if (fstat(fileno(file), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fclose(file);
		return config_error(cfg, "%s: cannot open profile: Is a directory", path);
	}
	return load_ini_stream(cfg, path, file);
}

int kplug_config_load_ini_mem(struct kplug_config *cfg, const char *name,
			      const char *text, size_t len)
{
	FILE *file;

	if (!len)
		return 0;	/* an empty profile sets nothing */
	file = fmemopen((void *)text, len, "r");
	if (!file)
		return config_error(cfg, "%s: cannot read profile: %s", name, strerror(errno));
	return load_ini_stream(cfg, name, file);
}
