static inline int square(int x)
{
	int y = x * x;

	if (y > 1000)
		y = 1000;
	return y;
}

static inline int clamp(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}
