/* Functions selected by allow and ignore lists. */
int g;

static __attribute__((noinline)) int helper(int a, int b)
{
	if (a > b)
		g += a;
	return g;
}

int net_rx(int a)
{
	if (a > 3)
		g++;
	return helper(a, 7);
}

int net_tx(int a)
{
	if (a < 9)
		g--;
	return helper(a, 7);
}

int mm_alloc(int a)
{
	return a ? helper(a, 7) : 0;
}
