/* Test program for lineloc: several functions, inlining, a header with code. */
#include "helper.h"

int other(int x);
int init_fn(int x);
int cold_fn(int x);

static int table[64];

static int fill(int n)
{
	int i, s = 0;

	for (i = 0; i < n && i < 64; i++) {
		table[i] = square(i) + weigh(i, s & 3);
		if (table[i] & 1)
			s += table[i];
		else
			s -= i;
	}
	return s;
}

int main(int argc, char **argv)
{
	int r = fill(argc * 10);

	(void)argv;
	r += other(r);
	r += init_fn(argc);
	if (r == 12345)
		r += cold_fn(r);
	return r & 0x7f;
}
