#include "helper.h"

__attribute__((noinline)) int other(int x)
{
	int i, acc = 1;

	for (i = 0; i < x % 17; i++)
		acc = acc * 3 + clamp(i, 2, 9);
	return acc ^ square(x);
}

__attribute__((section(".init.text"), noinline)) int init_fn(int x)
{
	int v = x + 7;

	v = clamp(v * v, 0, 100);
	return v - 3;
}

__attribute__((cold, noinline)) int cold_fn(int x)
{
	return x / 3 + square(x & 15);
}
