/* Blocks that end in a return right after their coverage callback. */
extern int ext(int);
int g;

void set(int a)
{
	if (a)
		g = a;
}

int pick(int a, int b)
{
	if (a > b)
		return ext(a);
	return b;
}

void loop(int n)
{
	int i;

	for (i = 0; i < n; i++)
		g += ext(i);
}

int sw(int x)
{
	switch (x) {
	case 1: return ext(3);
	case 4: g = 2; break;
	case 9: g = 7; break;
	}
	return 0;
}
