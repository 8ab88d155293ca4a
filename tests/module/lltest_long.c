// SPDX-License-Identifier: GPL-2.0
/*
 * The long-path trigger's last frame.  Kbuild compiles a copy of this file
 * at a path of over 1 KiB (see Kbuild): a backtrace prints the location
 * of lltest_long() cut short, "(...<end of path>:<line>)".  The marker
 * gives the last 200 characters of the path (a printk line holds ~1000).
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include "lltest.h"

static int lltest_long_sink;

lltest_noipa int lltest_long(enum lltest_kind kind, const char *name)
{
	const char *tail = __FILE__ + sizeof(__FILE__) - 1 - 200;

	pr_info("lltest: %s fires at ...%s:%d\n", name, tail, __LINE__ + 1);
	dump_stack();
	WRITE_ONCE(lltest_long_sink, READ_ONCE(lltest_long_sink) + kind);
	return 1;
}
