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

/*
 * As arm64's ALTERNATIVE does: code in ".subsection 1" lands after the
 * unit's last function, past its DW_AT_high_pc, yet inside the line table's
 * sequence for .text, in the span of this asm's row.  addr2line and
 * llvm-symbolizer answer ?? there; so must lineloc.
 */
__attribute__((noinline)) int alt_fn(int x)
{
	asm volatile("nop\n\t.subsection 1\n\tnop\n\tnop\n\tnop\n\tnop\n\t"
		     "nop\n\tnop\n\tnop\n\tnop\n\t.previous" ::: "memory");
	return x + 1;
}
