// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness over the whole of kplug-report: every command on
 * fuzzed report data, through report_main() as the command line runs it
 * (options, reading with the worker thread, de-duplication, the command,
 * its output format).  Built with a small CHUNK (256) so that lines cross read
 * chunks.
 *
 * Input layout: byte 0 picks the command and format, byte 1 the options;
 * the rest is the report, written to a memfd.  diff splits it at the first
 * NUL byte into BASE and NEW (the whole of it twice without one).
 * Output goes to /dev/null; the tool must not exit (die()) on any report.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tools/report/report.h"

static const char *const cmds[] = { "top", "dirs", "macros", "hist", "sarif", "diff" };
static const int findings[] = { 1, 0, 0, 0, 1, 1 };	/* sarif, checkstyle apply */

/* A memfd holding DATA; its /proc path into PATH. */
static int memfd(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("report", 0);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char base[64], cur[64], fmt[32], thr[32], depth[32];
	char *argv[16];
	const uint8_t *nul;
	int argc = 0, c, f, fd1, fd2 = -1;
	size_t n1;

	if (size < 2)
		return 0;
	c = data[0] % 6;
	f = (data[0] / 6) % (findings[c] ? 5 : 3);
	snprintf(fmt, sizeof(fmt), "--format=%s", fmt_names[f]);
	snprintf(thr, sizeof(thr), "--threshold=%d", 1 + (data[1] & 0x3f));
	snprintf(depth, sizeof(depth), "--depth=%d", (data[1] >> 6) & 3);
	argv[argc++] = "kplug-report";
	argv[argc++] = fmt;
	argv[argc++] = data[1] & 1 ? "-n0" : "-n3";
	argv[argc++] = thr;
	argv[argc++] = depth;
	if (data[1] & 2)
		argv[argc++] = "--root=drivers";
	if (data[1] & 4)
		argv[argc++] = "--strict";
	if (c == 3 && (data[1] & 8))
		argv[argc++] = "--svg=/dev/null";
	argv[argc++] = (char *)cmds[c];
	data += 2;
	size -= 2;
	nul = c == 5 ? memchr(data, 0, size) : NULL;
	n1 = nul ? (size_t)(nul - data) : size;
	fd1 = memfd(data, n1, base, sizeof(base));
	argv[argc++] = base;
	if (c == 5) {
		fd2 = nul ? memfd(nul + 1, size - n1 - 1, cur, sizeof(cur)) : -1;
		argv[argc++] = nul ? cur : base;
	}
	argv[argc] = NULL;
	report_main(argc, argv);
	close(fd1);
	if (fd2 >= 0)
		close(fd2);
	return 0;
}
