// SPDX-License-Identifier: GPL-2.0
/*
 * lltest: triggers for the line-location matrix.  Writing to
 * /sys/kernel/debug/lltest/{warn,oops,dump,hang} runs a chain of calls across two
 * source files that ends in WARN_ON(), a NULL pointer dereference or
 * dump_stack().  Before it faults, each trigger prints where it will fault:
 *
 *   lltest: <name> fires at <file>:<line>
 *
 * so that the console log carries its own expected answer.  After a trigger
 * that returns, it prints "lltest: <name> returned".
 */
#define pr_fmt(fmt) "lltest: " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>
#include "lltest.h"

static int *lltest_null;	/* stays NULL; the compiler cannot know */

lltest_noipa int lltest_fire(enum lltest_kind kind, const char *name)
{
	switch (kind) {
	case LLTEST_WARN:
		pr_info("%s fires at %s:%d\n", name, __FILE__, __LINE__ + 1);
		WARN_ON(READ_ONCE(lltest_null) == NULL);
		break;
	case LLTEST_OOPS:
		pr_info("%s fires at %s:%d\n", name, __FILE__, __LINE__ + 1);
		WRITE_ONCE(*READ_ONCE(lltest_null), 0x11);
		break;
	case LLTEST_DUMP:
		pr_info("%s fires at %s:%d\n", name, __FILE__, __LINE__ + 1);
		dump_stack();
		break;
	case LLTEST_HANG:
		pr_info("%s hangs at %s:%d\n", name, __FILE__, __LINE__ + 1);
		for (;;)
			msleep(1000);
	}
	return 1;
}

static const char *const lltest_names[] = {
	[LLTEST_WARN] = "warn",
	[LLTEST_OOPS] = "oops",
	[LLTEST_DUMP] = "dump",
	[LLTEST_HANG] = "hang",
};

lltest_noipa ssize_t lltest_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	enum lltest_kind kind = (uintptr_t)file->private_data;
	int ret = lltest_chain_a(kind, lltest_names[kind]);

	pr_info("%s returned %d\n", lltest_names[kind], ret);
	return count;
}

static const struct file_operations lltest_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = lltest_write,
};

static struct dentry *lltest_dir;

static int __init lltest_init(void)
{
	uintptr_t k;

	lltest_dir = debugfs_create_dir("lltest", NULL);
	for (k = 0; k < ARRAY_SIZE(lltest_names); k++)
		debugfs_create_file(lltest_names[k], 0200, lltest_dir,
				    (void *)k, &lltest_fops);
	return 0;
}

static void __exit lltest_exit(void)
{
	debugfs_remove_recursive(lltest_dir);
}

module_init(lltest_init);
module_exit(lltest_exit);
MODULE_DESCRIPTION("Backtrace triggers for the line-location matrix");
MODULE_LICENSE("GPL");
