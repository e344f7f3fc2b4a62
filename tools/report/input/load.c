// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: loading the inputs (files, stdin, directories of *.jsonl)
 * into one record set, then de-duplicating it (core/dedup.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/report/report.h"

struct mactab macs;

struct rec *rec_new(struct recset *rs)
{
	if (rs->n == UINT32_MAX - 1)
		die("too many records in the input");
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 4096;
		rs->r = xrealloc(rs->r, rs->cap * sizeof(*rs->r));
	}
	memset(&rs->r[rs->n], 0, sizeof(rs->r[0]));
	return &rs->r[rs->n++];
}

void mac_add(uint32_t name, int32_t count)
{
	if (macs.n == UINT32_MAX)
		die("too many macro names in the input");
	if (macs.n == macs.cap) {
		macs.cap = macs.cap ? macs.cap * 2 : 4096;
		macs.v = xrealloc(macs.v, macs.cap * sizeof(*macs.v));
	}
	macs.v[macs.n].name = name;
	macs.v[macs.n++].count = count;
}

static void read_file(struct recset *rs, const char *path)
{
	int fd;

	if (!strcmp(path, "-")) {
		read_fd(rs, "<stdin>", STDIN_FILENO);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		flag_error("%s: %s", path, strerror(errno));
		return;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	read_fd(rs, path, fd);
	close(fd);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_jsonl(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, ".jsonl");
}

static void read_path(struct recset *rs, const char *path);

/* Every *.jsonl below DIR, in name order. */
static void read_dir(struct recset *rs, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;

	if (!d) {
		flag_error("%s: %s", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		if (asprintf(&names[n], "%s/%s", dir, e->d_name) < 0)
			die("out of memory");
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (!stat(names[i], &st) && (S_ISDIR(st.st_mode) ||
					     (S_ISREG(st.st_mode) && is_jsonl(names[i]))))
			read_path(rs, names[i]);
		free(names[i]);
	}
	free(names);
}

static void read_path(struct recset *rs, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		read_dir(rs, path);
	else
		read_file(rs, path);
}

void load(struct recset *rs, char **paths, int n)
{
	int i;

	memset(rs, 0, sizeof(*rs));
	for (i = 0; i < n; i++)
		read_path(rs, paths[i]);
	if (rs->bad > MAX_SHOWN_BAD)
		fprintf(stderr, TOOL ": %zu bad lines in total (first %d shown)\n",
			rs->bad, MAX_SHOWN_BAD);
	if (rs->bad && opt.strict)
		tool_error = 1;
	dedup(rs);
	if (!rs->live) {
		flag_error("no records in %s%s", n ? paths[0] : "the input",
			n > 1 ? " and the other inputs" : "");
	}
}

void recset_free(struct recset *rs)
{
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

void macs_free(void)
{
	free(macs.v);
	memset(&macs, 0, sizeof(macs));
}
