// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the KPLUG_KCOV_UNIQUE boot test (56-kernel-kcov-unique.t):
 * the same kcov device in the sessions below, each around a fixed
 * workload, with the PCs of each session printed as "PC count" pairs.
 *
 *   trace    KCOV_ENABLE(KCOV_TRACE_PC), 100 read(-1): the unchanged client
 *   unique1  KCOV_UNIQUE_ENABLE, 100 read(-1), the client clearing bitmap
 *            and trace after the ioctl (as in the 2025 series' example)
 *   unique2  KCOV_UNIQUE_ENABLE again, 100 read(-1), only the trace count
 *            cleared: the kernel must have cleared the bitmap itself
 *   reset    in unique2's session: KCOV_RESET_TRACE, 100 read(-1)
 *   modtrace, modunique  the same two modes around 10 reads of the test
 *            module's debugfs file (the module is loaded first)
 *
 * Output lines: "KCOV-<session>-PC 0x... n" (each distinct PC and how often
 * the trace has it), "KCOV-<session>-COUNT n" (the trace's length),
 * "KCOV-MOD-FN 0x..." (the module's read function), "KCOV-DONE", or
 * "KCOV-ERROR ...".  Built with gcc -static.
 */
#define main kcov_example_main	/* the helpers of kcov-init.c, not its main */
#include "kcov-init.c"
#undef main

#include <stdint.h>
#include <sys/syscall.h>

#ifndef KCOV_UNIQUE_ENABLE
#define KCOV_UNIQUE_ENABLE	_IOW('c', 103, unsigned long)
#define KCOV_RESET_TRACE	_IO('c', 104)
#endif
#define BITMAP_WORDS		(4 << 10)	/* 262144 points */
#define READS			100
#define MOD_READS		10
#define MOD_KO			"/kcovmod.ko"
#define MOD_FILE		"/sys/kernel/debug/kplug-kcov-mod"

static unsigned long *cover;
static unsigned long pcs[COVER_SIZE];

static int cmp_pc(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The trace at TRACE: every distinct PC with its count, then the length. */
static void print_trace(const char *name, const unsigned long *trace)
{
	unsigned long n = __atomic_load_n(&trace[0], __ATOMIC_RELAXED), i, j;

	memcpy(pcs, trace + 1, n * sizeof(*pcs));
	qsort(pcs, n, sizeof(*pcs), cmp_pc);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && pcs[j] == pcs[i]; j++)
			;
		printf("KCOV-%s-PC 0x%lx %lu\n", name, pcs[i], j - i);
	}
	printf("KCOV-%s-COUNT %lu\n", name, n);
}

static void kcov(int fd, unsigned long cmd, unsigned long arg, const char *what)
{
	if (ioctl(fd, cmd, arg))
		fail(what);
}

/*
 * Start a session with CMD (KCOV_ENABLE or KCOV_UNIQUE_ENABLE), or rewind
 * one (KCOV_RESET_TRACE), and forget what the ioctl itself recorded: the
 * trace count is set to 0.  Returns the session's trace.
 */
static unsigned long *start(int fd, unsigned long cmd, unsigned long arg,
			    const char *what)
{
	unsigned long *trace = cmd == KCOV_ENABLE ? cover : cover + BITMAP_WORDS;

	kcov(fd, cmd, arg, what);
	__atomic_store_n(&trace[0], 0, __ATOMIC_RELAXED);
	return trace;
}

static void stop(int fd)
{
	kcov(fd, KCOV_DISABLE, 0, "ioctl KCOV_DISABLE");
}

static void reads(void)
{
	int i;

	for (i = 0; i < READS; i++)
		read(-1, NULL, 0);
}

/* pread the module's file N times; returns its read function's address. */
static unsigned long mod_reads(int mfd, int n)
{
	char buf[64];
	ssize_t len = 0;

	while (n--)
		len = pread(mfd, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		fail("pread " MOD_FILE);
	buf[len] = 0;
	return strtoul(buf, NULL, 16);
}

static int load_module(void)
{
	int fd = open(MOD_KO, O_RDONLY);

	if (fd < 0)
		fail("open " MOD_KO);
	if (syscall(SYS_finit_module, fd, "", 0))
		fail("finit_module " MOD_KO);
	close(fd);
	fd = open(MOD_FILE, O_RDONLY);
	if (fd < 0)
		fail("open " MOD_FILE);
	return fd;
}

int main(void)
{
	unsigned long *trace, fn;
	int fd, mfd;

	open_console();
	mount_debugfs();
	mfd = load_module();
	fd = open("/sys/kernel/debug/kcov", O_RDWR);
	if (fd == -1)
		fail("open /sys/kernel/debug/kcov");
	kcov(fd, KCOV_INIT_TRACE, COVER_SIZE, "ioctl KCOV_INIT_TRACE");
	cover = (unsigned long *)mmap(NULL, COVER_SIZE * sizeof(unsigned long),
				      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if ((void *)cover == MAP_FAILED)
		fail("mmap");

	/* trace: what every kcov client does today */
	trace = start(fd, KCOV_ENABLE, KCOV_TRACE_PC, "ioctl KCOV_ENABLE");
	reads();
	print_trace("trace", trace);
	stop(fd);

	/* unique1: the client clears the bitmap too, as in the series */
	trace = start(fd, KCOV_UNIQUE_ENABLE, BITMAP_WORDS, "ioctl KCOV_UNIQUE_ENABLE");
	memset(cover, 0, BITMAP_WORDS * sizeof(unsigned long));
	reads();
	print_trace("unique1", trace);
	stop(fd);

	/* unique2: a new session, the bitmap left as unique1 left it */
	trace = start(fd, KCOV_UNIQUE_ENABLE, BITMAP_WORDS, "ioctl KCOV_UNIQUE_ENABLE");
	reads();
	print_trace("unique2", trace);

	/* reset: the same session, rewound by the kernel */
	trace = start(fd, KCOV_RESET_TRACE, 0, "ioctl KCOV_RESET_TRACE");
	reads();
	print_trace("reset", trace);
	stop(fd);

	/* the module, in both modes */
	trace = start(fd, KCOV_ENABLE, KCOV_TRACE_PC, "ioctl KCOV_ENABLE");
	fn = mod_reads(mfd, MOD_READS);
	print_trace("modtrace", trace);
	stop(fd);
	trace = start(fd, KCOV_UNIQUE_ENABLE, BITMAP_WORDS, "ioctl KCOV_UNIQUE_ENABLE");
	mod_reads(mfd, MOD_READS);
	print_trace("modunique", trace);
	stop(fd);
	printf("KCOV-MOD-FN 0x%lx\n", fn);
	printf("KCOV-DONE\n");
	finish();
	return 0;
}
