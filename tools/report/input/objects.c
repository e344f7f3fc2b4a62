// SPDX-License-Identifier: GPL-2.0
/*
 * collect: embedded cyc_complexity records; see objects.h.
 *
 * Files are mapped read-only and only their headers, the section table and
 * the .kplug.cyc sections are touched.  A record is one line "{...}\n";
 * bytes 0 between records (a linker's padding) are skipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/report/input/elf.h"
#include "tools/report/input/objects.h"
#include "tools/report/report.h"

#define AR_MAGIC	"!<arch>\n"
#define AR_THIN		"!<thin>\n"
#define AR_HDR		60
#define MAX_NESTING	8

/* What is being read, for error lines: "a.a(x.o)". */
struct where {
	const char *file;
	const char *member;	/* NULL outside archives */
};

/* The error line "kplug-report: FILE(MEMBER): what" (flag_error()), counted. */
static void bad_file(struct collect *c, const struct where *w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void bad_file(struct collect *c, const struct where *w, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	if (w->member)
		flag_error("%s(%s): %s", w->file, w->member, what);
	else
		flag_error("%s: %s", w->file, what);
	free(what);
	c->errors++;
}

void collect_init(struct collect *c, FILE *out)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->cap = 1024;
	c->seen = xcalloc(c->cap, sizeof(*c->seen));
}

/* ---- records, each printed once ---- */

static unsigned long long hash_line(const char *s, size_t n)
{
	unsigned long long h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	h ^= h >> 29;		/* spread the low bits for the table index */
	h *= 0xbf58476d1ce4e5b9ULL;
	return (h ^ (h >> 32)) | 1;	/* 0 marks an empty slot */
}

static void grow_seen(struct collect *c)
{
	unsigned long long *old = c->seen;
	size_t i, oldcap = c->cap;

	c->cap *= 2;
	c->seen = xcalloc(c->cap, sizeof(*c->seen));
	for (i = 0; i < oldcap; i++) {
		size_t j = old[i] & (c->cap - 1);

		if (!old[i])
			continue;
		while (c->seen[j])
			j = (j + 1) & (c->cap - 1);
		c->seen[j] = old[i];
	}
	free(old);
}

/* First time this record is seen?  (A 64-bit hash stands for the line.) */
static int first_sight(struct collect *c, const char *s, size_t n)
{
	unsigned long long h = hash_line(s, n);
	size_t j;

	if (2 * (c->nseen + 1) > c->cap)
		grow_seen(c);
	for (j = h & (c->cap - 1); c->seen[j]; j = (j + 1) & (c->cap - 1))
		if (c->seen[j] == h)
			return 0;
	c->seen[j] = h;
	c->nseen++;
	return 1;
}

struct section_ctx {
	struct collect *c;
	const struct where *w;
};

static int read_section(const char *data, size_t size, void *arg)
{
	struct section_ctx *sc = arg;
	const char *p = data, *end = data + size;

	while (p < end) {
		const char *nl;

		if (!*p) {
			p++;
			continue;
		}
		nl = memchr(p, '\n', end - p);
		if (!nl) {
			bad_file(sc->c, sc->w, "%s: truncated record at offset %zu",
			     KPLUG_CYC_SECTION, (size_t)(p - data));
			return 1;
		}
		if (*p != '{' || nl[-1] != '}' || memchr(p, '\0', nl - p)) {
			bad_file(sc->c, sc->w, "%s: not a JSON record at offset %zu",
			     KPLUG_CYC_SECTION, (size_t)(p - data));
			return 1;
		}
		if (first_sight(sc->c, p, nl + 1 - p)) {
			fwrite(p, 1, nl + 1 - p, sc->c->out);
			sc->c->records++;
		}
		p = nl + 1;
	}
	return 0;
}

static void collect_elf(struct collect *c, const struct where *w,
			const unsigned char *buf, size_t len)
{
	struct section_ctx sc = { c, w };
	const char *err;

	if (elf_each_section(buf, len, KPLUG_CYC_SECTION, read_section, &sc, &err) < 0)
		bad_file(c, w, "%s", err);
}

/* ---- archives ---- */

static int collect_file(struct collect *c, const char *path, int depth,
			int from_walk);
static void collect_buffer(struct collect *c, const struct where *w,
			   const unsigned char *buf, size_t len, int depth);

static int parse_size(const unsigned char *field, size_t n, size_t *out)
{
	size_t i, v = 0;
	int digits = 0;

	for (i = 0; i < n && field[i] != ' '; i++) {
		if (field[i] < '0' || field[i] > '9' || v > (SIZE_MAX - 9) / 10)
			return -1;
		v = v * 10 + (field[i] - '0');
		digits++;
	}
	for (; i < n; i++)
		if (field[i] != ' ')
			return -1;
	*out = v;
	return digits ? 0 : -1;
}

/* The member's name (allocated), from its header or the long-name table. */
static char *member_name(const unsigned char *hdr, const unsigned char *names,
			 size_t names_len)
{
	size_t n = 16, off;
	const unsigned char *end;
	char *name;

	if (hdr[0] == '/' && hdr[1] >= '0' && hdr[1] <= '9') {
		if (parse_size(hdr + 1, 15, &off) || !names || off >= names_len)
			return NULL;
		end = memchr(names + off, '\n', names_len - off);
		if (!end)
			return NULL;
		n = end - (names + off);
		if (n && names[off + n - 1] == '/')
			n--;
		name = xcalloc(n + 1, 1);
		memcpy(name, names + off, n);
		return name;
	}
	while (n && hdr[n - 1] == ' ')
		n--;
	if (n > 1 && hdr[n - 1] == '/')
		n--;
	name = xcalloc(n + 1, 1);
	memcpy(name, hdr, n);
	return name;
}

/* A thin archive's member: a file named relative to the archive. */
static void collect_thin_member(struct collect *c, const char *archive,
				const char *name, int depth)
{
	const char *slash = strrchr(archive, '/');
	char *path;

	if (name[0] == '/' || !slash) {
		collect_file(c, name, depth, 0);
		return;
	}
	path = xcalloc(slash - archive + 2 + strlen(name), 1);
	memcpy(path, archive, slash - archive + 1);
	strcpy(path + (slash - archive + 1), name);
	collect_file(c, path, depth, 0);
	free(path);
}

static void collect_ar(struct collect *c, const struct where *w,
		       const unsigned char *buf, size_t len, int depth)
{
	int thin = !memcmp(buf, AR_THIN, 8);
	const unsigned char *names = NULL;
	size_t names_len = 0, off = 8;

	while (off < len) {
		const unsigned char *hdr = buf + off;
		int special;
		size_t size;
		char *name;

		if (len - off < AR_HDR || memcmp(hdr + 58, "`\n", 2) ||
		    parse_size(hdr + 48, 10, &size)) {
			bad_file(c, w, "bad or truncated archive member header at offset %zu", off);
			return;
		}
		off += AR_HDR;
		/* "/" and "/SYM64/": symbol tables; "//": long names */
		special = hdr[0] == '/' && (hdr[1] == ' ' || hdr[1] == '/' ||
					    !memcmp(hdr, "/SYM64/", 7));
		if ((special || !thin) && size > len - off) {
			bad_file(c, w, "truncated archive member at offset %zu", off - AR_HDR);
			return;
		}
		if (special) {
			if (hdr[1] == '/' && hdr[2] == ' ') {
				names = buf + off;
				names_len = size;
			}
			off += size + (size & 1);
			continue;
		}
		name = member_name(hdr, names, names_len);
		if (!name) {
			bad_file(c, w, "bad archive member name at offset %zu", off - AR_HDR);
			return;
		}
		if (thin) {
			collect_thin_member(c, w->file, name, depth + 1);
		} else {
			struct where mw = { w->file, name };

			collect_buffer(c, &mw, buf + off, size, depth + 1);
			off += size + (size & 1);
		}
		free(name);
	}
}

/* ---- files and directories ---- */

static void collect_buffer(struct collect *c, const struct where *w,
			   const unsigned char *buf, size_t len, int depth)
{
	if (depth > MAX_NESTING) {
		bad_file(c, w, "archives nested more than %d deep", MAX_NESTING);
		return;
	}
	if (len >= 8 && (!memcmp(buf, AR_MAGIC, 8) || !memcmp(buf, AR_THIN, 8)))
		collect_ar(c, w, buf, len, depth);
	else if (elf_magic(buf, len))
		collect_elf(c, w, buf, len);
	else
		bad_file(c, w, "neither an ELF object nor an ar archive");
}

/* FROM_WALK: found by a directory search, where thin archives are skipped. */
static int collect_file(struct collect *c, const char *path, int depth,
			int from_walk)
{
	struct where w = { path, NULL };
	unsigned char *buf = NULL;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		bad_file(c, &w, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		bad_file(c, &w, "not a regular file");
		close(fd);
		return -1;
	}
	if (st.st_size)
		buf = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (buf == MAP_FAILED) {
		bad_file(c, &w, "%s", strerror(errno));
		return -1;
	}
	c->files++;
	if (!(from_walk && st.st_size >= 8 && !memcmp(buf, AR_THIN, 8)))
		collect_buffer(c, &w, buf ? buf : (const unsigned char *)"", st.st_size, depth);
	if (buf)
		munmap(buf, st.st_size);
	return 0;
}

static int wanted_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 2 && !strcmp(name + n - 2, ".o")) ||
	       (n > 3 && !strcmp(name + n - 3, ".ko")) ||
	       (n > 2 && !strcmp(name + n - 2, ".a"));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_dir(struct collect *c, const char *dir)
{
	struct where w = { dir, NULL };
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		bad_file(c, &w, "%s", strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap)
			names = xrealloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));
		names[n++] = strdup(de->d_name);
		if (!names[n - 1])
			die("out of memory");
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		char *path = xcalloc(strlen(dir) + strlen(names[i]) + 2, 1);
		struct stat st;

		sprintf(path, "%s/%s", dir, names[i]);
		/* symbolic links to directories (O='s "source") are not followed */
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			collect_dir(c, path);
		else if (!stat(path, &st) && S_ISREG(st.st_mode) && wanted_name(names[i]))
			collect_file(c, path, 0, 1);
		free(path);
		free(names[i]);
	}
	free(names);
}

int collect_path(struct collect *c, const char *path)
{
	size_t errors = c->errors;
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		collect_dir(c, path);
	else
		collect_file(c, path, 0, 0);
	return c->errors == errors ? 0 : -1;
}

int collect_finish(struct collect *c)
{
	int status = c->errors ? 2 : 0;

	if (fflush(c->out) || ferror(c->out)) {
		flag_error("cannot write the records: %s", strerror(errno));
		status = 2;
	} else if (!c->records && !c->errors) {
		flag_error("no %s records in %zu files (compiled without "
			  "cyc_complexity-embed=on?)", KPLUG_CYC_SECTION, c->files);
		status = 2;
	}
	free(c->seen);
	c->seen = NULL;
	return status;
}
