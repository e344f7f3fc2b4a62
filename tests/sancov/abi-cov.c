/*
 * A program for the .sancov check: which functions run depends on the
 * first argument ("a", "ab", "abc"...), so that each run covers a known set.
 */
#include <stdio.h>

#define fn __attribute__((noinline))

fn int cov_one(int x)
{
	return x * 3 + 1;
}

fn int cov_two(const char *s)
{
	int n = 0;

	while (*s)
		n += *s++ == 'a';
	return n;
}

fn int cov_three(int x)
{
	if (x > 10)
		return x - 10;
	return x + 10;
}

static fn int cov_four(int y)
{
	return y ^ 0x55;
}

int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "";
	int r = 0;

	if (w[0])
		r += cov_one(argc);
	if (w[0] && w[1])
		r += cov_two(w);
	if (w[0] && w[1] && w[2])
		r += cov_three(r) + cov_four(r);
	printf("%d\n", r);
	return 0;
}
