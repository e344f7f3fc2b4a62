/* Shifts and divisions: -fsanitize=shift,integer-divide-by-zero add branches. */
int shift_div(int a, int b, int c)
{
	int r = a << b;

	if (c > 2)
		r += a / c;
	return r >> (c & 7);
}

int shifts_in_loop(const int *v, int n)
{
	int i, acc = 0;

	for (i = 0; i < n; i++)
		acc += v[i] << (i & 15);
	return acc % (n | 1);
}

int no_instrumentation(int a)
{
	return a > 4 ? 1 : a;
}
