// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the KCOV boot test: the coverage example of
 * Documentation/dev-tools/kcov.rst around one read(-1), with its PCs
 * printed on the serial console, then a reboot (qemu runs -no-reboot,
 * so it exits).  Built with gcc -static.
 *
 * A context switch while the trace is on records the switch's return to
 * user mode too (switch_fpu_return on x86_64), in this task's trace: a
 * trace with one is taken again, up to MAX_TRIES times.
 *
 * Output lines: "KCOV-RETRY ..." for each trace taken again, "KCOV-PC
 * 0x...", then "KCOV-COUNT n", or "KCOV-ERROR ...".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define KCOV_INIT_TRACE		_IOR('c', 1, unsigned long)
#define KCOV_ENABLE		_IO('c', 100)
#define KCOV_DISABLE		_IO('c', 101)
#define COVER_SIZE		(64 << 10)
#define KCOV_TRACE_PC		0
#define MAX_TRIES		10

static void finish(void)
{
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static void fail(const char *what)
{
	printf("KCOV-ERROR %s: %s\n", what, strerror(errno));
	finish();
}

/* This process's context switches so far, voluntary and involuntary. */
static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		fail("getrusage");
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* After try TRY of NAME saw a context switch: say so, or give up. */
static void retry(const char *name, int try)
{
	printf("KCOV-RETRY %s: a context switch during try %d\n", name, try);
	if (try < MAX_TRIES)
		return;
	printf("KCOV-ERROR %s: a context switch in each of %d tries\n", name, try);
	finish();
}

/* The initramfs has no /dev/console: make one for stdout. */
static void open_console(void)
{
	int fd;

	mkdir("/dev", 0755);
	mknod("/dev/console", S_IFCHR | 0600, makedev(5, 1));
	fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		exit(1);
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static void mount_debugfs(void)
{
	mkdir("/sys", 0755);
	if (mount("sysfs", "/sys", "sysfs", 0, NULL))
		fail("mount sysfs");
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		fail("mount debugfs");
}

int main(void)
{
	unsigned long *cover, n, i;
	long sw;
	int fd, try;

	open_console();
	mount_debugfs();
	fd = open("/sys/kernel/debug/kcov", O_RDWR);
	if (fd == -1)
		fail("open /sys/kernel/debug/kcov");
	if (ioctl(fd, KCOV_INIT_TRACE, COVER_SIZE))
		fail("ioctl KCOV_INIT_TRACE");
	cover = (unsigned long *)mmap(NULL, COVER_SIZE * sizeof(unsigned long),
				      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if ((void *)cover == MAP_FAILED)
		fail("mmap");
	if (ioctl(fd, KCOV_ENABLE, KCOV_TRACE_PC))
		fail("ioctl KCOV_ENABLE");
	for (try = 1;; try++) {
		sw = switches();
		__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
		read(-1, NULL, 0);
		n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
		if (switches() == sw)
			break;
		retry("read", try);
	}
	for (i = 0; i < n; i++)
		printf("KCOV-PC 0x%lx\n", cover[i + 1]);
	printf("KCOV-COUNT %lu\n", n);
	if (ioctl(fd, KCOV_DISABLE, 0))
		fail("ioctl KCOV_DISABLE");
	finish();
	return 0;
}
