// SPDX-License-Identifier: GPL-2.0
/*
 * The trace model and recursion (35-sancov-prune.t): walk() calls itself
 * between its diamonds, so a call's hits sit between two of its caller's.
 * Read as one call's walk, the trace fits no path: the piece after the
 * call must be reachable from ENTRY (where the caller goes on).
 */
int v[16];
__attribute__((noinline)) void g(int x) { v[x & 15]++; }
__attribute__((noinline)) int walk(int n, int k)
{
	int s = 0;

	if (n & 1)
		g(1);
	else
		g(2);
	if (n > 0)
		s += walk(n - 1 - (k & 1), k >> 1);
	if (n & 2)
		g(3);
	else
		g(4);
	if (k & 4)
		g(5);
	else
		g(6);
	return s + v[3];
}
int main(int argc, char **argv)
{
	return walk(argc + 4, 0x2d) == 12345;
}
