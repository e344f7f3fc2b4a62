// An inline (COMDAT) function and a plain one, for the group check.
inline int in_group(int x)
{
	if (x)
		return 1;
	return 2;
}

int plain(int y)
{
	return in_group(y) + 1;
}
