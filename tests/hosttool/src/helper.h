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

/* three levels of inlined calls in fill(): weigh -> scale -> square */
static inline int scale(int x)
{
	return clamp(square(x), 2, 900) + 1;
}

static inline __attribute__((always_inline)) int weigh(int x, int i)
{
	if (x & 4)
		return scale(x) - i;
	return scale(x + i);
}
