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
 * A session whose workload saw a context switch is run again (see
 * kcov-init.c): "KCOV-RETRY <session>: ...".
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

/* Copy the trace at TRACE to pcs; returns its length. */
static unsigned long snapshot(const unsigned long *trace)
{
	unsigned long n = __atomic_load_n(&trace[0], __ATOMIC_RELAXED);

	memcpy(pcs, trace + 1, n * sizeof(*pcs));
	return n;
}

/* The N PCs in pcs: every distinct PC with its count, then N. */
static void print_trace(const char *name, unsigned long n)
{
	unsigned long i, j;

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

static int mfd;			/* the module's debugfs file */
static unsigned long mod_fn;	/* its read function, as it says */

static void mod_work(void)
{
	mod_fn = mod_reads(mfd, MOD_READS);
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

/*
 * A session: CMD (KCOV_ENABLE or KCOV_UNIQUE_ENABLE) starts one, or
 * KCOV_RESET_TRACE rewinds the current one; the trace count is then set
 * to 0, forgetting what the ioctl itself recorded; CLEAR: the client
 * clears the bitmap too; then WORK runs and the trace is printed.  STOP:
 * the session ends there.
 */
struct session {
	const char *name;
	unsigned long cmd, arg;
	const char *what;
	int clear, stop;
	void (*work)(void);
};

static const struct session sessions[] = {
	/* trace: what every kcov client does today */
	{ "trace", KCOV_ENABLE, KCOV_TRACE_PC, "ioctl KCOV_ENABLE", 0, 1, reads },
	/* unique1: the client clears the bitmap too, as in the series */
	{ "unique1", KCOV_UNIQUE_ENABLE, BITMAP_WORDS, "ioctl KCOV_UNIQUE_ENABLE", 1, 1, reads },
	/* unique2: a new session, the bitmap left as the last one left it */
	{ "unique2", KCOV_UNIQUE_ENABLE, BITMAP_WORDS, "ioctl KCOV_UNIQUE_ENABLE", 0, 0, reads },
	/* reset: the same session, rewound by the kernel */
	{ "reset", KCOV_RESET_TRACE, 0, "ioctl KCOV_RESET_TRACE", 0, 1, reads },
	/* the module, in both modes */
	{ "modtrace", KCOV_ENABLE, KCOV_TRACE_PC, "ioctl KCOV_ENABLE", 0, 1, mod_work },
	{ "modunique", KCOV_UNIQUE_ENABLE, BITMAP_WORDS, "ioctl KCOV_UNIQUE_ENABLE", 0, 1, mod_work },
};

/*
 * Run session S; a try that saw a context switch is ended (a rewind is
 * just rewound again) and the session run again.
 */
static void run(int fd, const struct session *s)
{
	unsigned long *trace = s->cmd == KCOV_ENABLE ? cover : cover + BITMAP_WORDS;
	unsigned long n;
	long sw;
	int try;

	for (try = 1;; try++) {
		kcov(fd, s->cmd, s->arg, s->what);
		sw = switches();
		__atomic_store_n(&trace[0], 0, __ATOMIC_RELAXED);
		if (s->clear)
			memset(cover, 0, BITMAP_WORDS * sizeof(unsigned long));
		s->work();
		n = snapshot(trace);
		if (switches() == sw)
			break;
		retry(s->name, try);
		if (s->cmd != KCOV_RESET_TRACE)
			stop(fd);
	}
	print_trace(s->name, n);
	if (s->stop)
		stop(fd);
}

int main(void)
{
	unsigned int i;
	int fd;

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
	for (i = 0; i < sizeof(sessions) / sizeof(sessions[0]); i++)
		run(fd, &sessions[i]);
	printf("KCOV-MOD-FN 0x%lx\n", mod_fn);
	printf("KCOV-DONE\n");
	finish();
	return 0;
}
