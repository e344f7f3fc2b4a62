// SPDX-License-Identifier: GPL-2.0
/*
 * cover: the source lines a run covered, from the probes it hit.
 *
 *   kplug-report cover ELF [HITS...]
 *
 * ELF is a linked file whose objects sancov built with its map
 * (sancov-map, on with sancov-prune): an executable built without PIE,
 * or vmlinux.  HITS (default: stdin) lists one hexadecimal address per
 * line: the PCs kcov records (pc, pc-guard), or the addresses of the
 * guards, counters or flags that were hit; blank lines and lines starting
 * with '#' are skipped.  On arm a PC with the Thumb bit set (the return
 * address kcov records in Thumb code) counts as the even label it is.
 * Prints "FILE:LINE" for every covered line, sorted, once; pruned and
 * unpruned builds give the same lines for the same run.  An address no
 * map knows is an error (exit 2): a line covered by it would otherwise be
 * lost without a word.
 *
 *   kplug-report cover --trace ELF [TRACE...]
 *
 * Each TRACE (default: stdin) is one run's hits in the order they
 * happened, repeats included (a kcov trace-mode buffer, a trace-pc
 * callback's log): the lines are inferred from each function's sequence
 * of hits (input/covtrace.c), which code pruned with
 * sancov-prune-observe=trace needs; plain cover refuses such code.  The
 * runs' lines are printed together.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/report/input/covmap.h"
#include "tools/report/input/covtrace.h"
#include "tools/report/input/elf.h"
#include "tools/report/report.h"

struct sections {
	unsigned char *buf;
	size_t len;
};

static int add_section(const char *data, size_t size, void *arg)
{
	struct sections *s = arg;

	s->buf = xrealloc(s->buf, s->len + size + 1);
	memcpy(s->buf + s->len, data, size);
	s->len += size;
	return 0;
}

static int load_map(struct covmap *m, const char *path)
{
	struct sections s = { NULL, 0 };
	const char *err = NULL;
	struct stat st;
	void *buf;
	int fd = open(path, O_RDONLY), ret = -1;

	if (fd < 0 || fstat(fd, &st) < 0) {
		flag_error("%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	buf = st.st_size ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (buf == MAP_FAILED) {
		flag_error("%s: cannot read", path);
		return -1;
	}
	if (elf_each_section(buf, st.st_size, SANCOV_SECTION, add_section, &s, &err) < 0)
		flag_error("%s: %s", path, err);
	else if (!s.len)
		flag_error("%s: no coverage map (section " SANCOV_SECTION ", "
			"debug information that strip removes): build with "
			"-fplugin-arg-kplug-sancov-map=on or sancov-prune, and cover the "
			"unstripped file", path);
	else if (covmap_load(m, s.buf, s.len, &err) < 0)
		flag_error("%s: %s", path, err);
	else
		ret = 0;
	m->thumb = elf_machine(buf, st.st_size) == ELF_EM_ARM;
	m->dyn = elf_type(buf, st.st_size) == ELF_ET_DYN;
	munmap(buf, st.st_size);
	m->data = s.buf;	/* the records point into it */
	return ret;
}

/* Mark every address of F; counts in *N and *UNKNOWN. */
static int read_hits(struct covmap *m, FILE *f, const char *path, size_t *n,
		     size_t *unknown)
{
	char line[256];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		uint64_t addr;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || !*p || *p == '#')
			continue;
		errno = 0;
		addr = strtoull(p, &end, 16);
		while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
			end++;
		if (errno || end == p || *end) {
			flag_error("%s:%lu: not a hexadecimal address", path, lineno);
			return -1;
		}
		(*n)++;
		if (covmap_hit(m, addr) < 0) {
			if (!*unknown)
				flag_error("%s:%lu: 0x%" PRIx64 " is in no coverage map",
					path, lineno, addr);
			(*unknown)++;
		}
	}
	return 0;
}

/* With --trace: the lines of the run just read, into *LINES. */
static int trace_run(struct covmap *m, const char *path, char ***lines, size_t *nl,
		     size_t *size)
{
	const struct covfn *bad = NULL;

	if (covtrace_lines(m, lines, nl, size, &bad) == 0)
		return 0;
	flag_error("%s: %s: no path of the function gives its hits in this "
		"order (a truncated trace, or a map of another build)", path, bad->name);
	return -1;
}

static int cover(char **inputs, int n)
{
	struct covmap m = { 0 };
	size_t hits = 0, unknown = 0, nl = 0, size = 0, i, probes, hit;
	char **lines = NULL;
	const struct covfn *f;
	int k, ret = 0;

	if (n < 1) {
		flag_error("cover needs the ELF file with the map");
		return -1;
	}
	if (load_map(&m, inputs[0]) < 0)
		return -1;
	m.trace = opt.trace;
	for (k = 1; k < n || k == 1; k++) {
		const char *path = k < n ? inputs[k] : "-";
		FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;

		if (!f) {
			flag_error("%s: %s", path, strerror(errno));
			ret = -1;
			break;
		}
		ret = read_hits(&m, f, path, &hits, &unknown);
		if (f != stdin)
			fclose(f);
		if (!ret && m.trace)
			ret = trace_run(&m, path, &lines, &nl, &size);
		if (ret < 0 || k >= n)
			break;
	}
	if (!ret && !m.trace && (f = covmap_trace_only(&m))) {
		flag_error("%s: %s was pruned for ordered hits "
			"(sancov-prune-observe=trace): a set of hits cannot tell its lines; "
			"give each run's PCs in order to cover --trace", inputs[0], f->name);
		ret = -1;
	}
	if (!ret && unknown) {
		flag_error("%zu of %zu addresses are in no coverage map",
			unknown, hits);
		if (m.dyn)
			flag_error("%s is position-independent (a PIE or a shared "
				"object): it ran at other addresses than its map's; link the "
				"program with -no-pie", inputs[0]);
		ret = -1;
	}
	if (!ret) {
		if (m.trace)
			nl = covmap_sort_lines(lines, nl);
		else
			lines = covmap_lines(&m, &nl);
		for (i = 0; i < nl; i++) {
			puts(lines[i]);
			free(lines[i]);
		}
		free(lines);
		covmap_stats(&m, &probes, &hit);
		fprintf(stderr, TOOL ": cover: %zu functions, %zu probes, %zu hit, "
			"%zu lines covered\n", m.nfns - m.dead - m.copies, probes, hit, nl);
		if (m.dead)
			fprintf(stderr, TOOL ": note: %zu functions were discarded by the "
				"link (a COMDAT function's other copies, .exit.text on arm): not "
				"counted\n", m.dead);
		if (m.copies)
			fprintf(stderr, TOOL ": note: %zu functions are copies of another one "
				"(COMDAT: the link kept one): counted once\n", m.copies);
		if (m.shared_pcs)
			fprintf(stderr, TOOL ": note: %zu probes have no call of their own "
				"(merged or removed by the optimizer)\n", m.shared_pcs);
	}
	if (ret) {
		for (i = 0; i < nl; i++)
			free(lines[i]);
		free(lines);
	}
	covmap_free(&m);
	return ret;
}

const struct command cmd_cover = {
	.name = "cover", .args = "[--trace] ELF [HITS...]",
	.help = "covered source lines from probe hits (kcov PCs, guard/counter/flag addresses)",
	.on_inputs = cover,
};
