/* Functions sancov must leave alone, and ones it must instrument. */
#define noinstr __attribute__((__section__(".noinstr.text"), noinline))
#ifdef HAVE_NSC
#define no_cov __attribute__((no_sanitize_coverage, noinline))
#else
#define no_cov __attribute__((noinline))
#endif

int g;

no_cov int skip_attr(int a)
{
	if (a > 3)
		g++;
	return a;
}

noinstr int skip_noinstr(int a)
{
	if (a > 3)
		g++;
	return a;
}

int cov_plain(int a)
{
	if (a > 3)
		g++;
	return a;
}

int skip_by_list(int a)
{
	if (a > 3)
		g++;
	return a;
}

static __attribute__((noinline)) int static_helper(int a)
{
	if (a & 1)
		g += a;
	return g;
}

int cov_caller(int a)
{
	return static_helper(a) + skip_attr(a);
}
