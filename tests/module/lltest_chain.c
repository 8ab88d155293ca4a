// SPDX-License-Identifier: GPL-2.0
/* The middle of every trigger's call chain, in a file of its own. */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "lltest.h"

static int lltest_depth;

lltest_noipa int lltest_chain_b(enum lltest_kind kind, const char *name)
{
	int ret = lltest_fire(kind, name);

	WRITE_ONCE(lltest_depth, READ_ONCE(lltest_depth) + 1);
	return ret;
}

lltest_noipa int lltest_chain_a(enum lltest_kind kind, const char *name)
{
	int ret = lltest_chain_b(kind, name);

	WRITE_ONCE(lltest_depth, READ_ONCE(lltest_depth) + 1);
	return ret;
}
