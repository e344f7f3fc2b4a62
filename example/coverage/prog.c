// SPDX-License-Identifier: GPL-2.0
/*
 * A small program to cover: classifies its arguments.  Built with kplug's
 * sancov (see run.sh); each basic block calls __sanitizer_cov_trace_pc().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static void classify_number(const char *arg, long n)
{
	if (n < 0)
		printf("%s: negative number\n", arg);
	else if (n == 0)
		printf("%s: zero\n", arg);
	else if (n % 2)
		printf("%s: odd number\n", arg);
	else
		printf("%s: even number\n", arg);
}

static void classify_word(const char *arg)
{
	size_t len = strlen(arg);

	if (len > 12)
		printf("%s: long word\n", arg);
	else if (len && arg[0] >= 'A' && arg[0] <= 'Z')
		printf("%s: capitalised word\n", arg);
	else
		printf("%s: word\n", arg);
}

static size_t longest;

/* Its last block is only "return": native GCC < 14 jumps to the callback. */
static __attribute__((noinline)) void note_length(size_t len)
{
	if (len > longest)
		longest = len;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		note_length(strlen(argv[i]));
		if (is_number(argv[i]))
			classify_number(argv[i], strtol(argv[i], NULL, 10));
		else
			classify_word(argv[i]);
	}
	printf("longest argument: %zu characters\n", longest);
	return 0;
}
