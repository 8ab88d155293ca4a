// SPDX-License-Identifier: GPL-2.0
/*
 * lltest: triggers for the line-location matrix.  Writing to
 * /sys/kernel/debug/lltest/{warn,oops,dump,probe,saved,hang} runs a chain of
 * calls across two source files that ends in WARN_ON(), a NULL pointer
 * dereference, dump_stack(), a kprobe whose handler calls dump_stack(), or
 * a saved stack trace.  Before it faults, each trigger prints where it
 * will fault (for probe and saved: the call whose return address the
 * backtrace shows):
 *
 *   lltest: <name> fires at <file>:<line>
 *
 * so that the console log carries its own expected answer.  After a trigger
 * that returns, it prints "lltest: <name> returned".
 *
 * Writing an address in hex to /sys/kernel/debug/lltest/loc prints it with
 * its location, "lltest: loc <symbol> (<path:line>)", or without one.
 *
 * Loaded with init_warn=1, the module's init WARNs (trigger "init", in
 * .init.text); writing to /sys/kernel/debug/lltest/loc_init then prints
 * the address of that WARN again, "lltest: loc_init <address>", which has
 * no location once init memory is freed.
 */
#define pr_fmt(fmt) "lltest: " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "lltest.h"

static int *lltest_null;	/* stays NULL; the compiler cannot know */
static int lltest_sink;

lltest_noipa int lltest_target(enum lltest_kind kind)
{
	WRITE_ONCE(lltest_sink, READ_ONCE(lltest_sink) + kind);
	return 2;
}

#if defined(CONFIG_X86)
#define LLTEST_BRANCH	"jmp"
#define LLTEST_STOP	"ud2"
#elif defined(CONFIG_ARM64)
#define LLTEST_BRANCH	"b"
#define LLTEST_STOP	"ret"
#elif defined(CONFIG_RISCV)
#define LLTEST_BRANCH	"j"
#define LLTEST_STOP	"ret"
#else
#define LLTEST_BRANCH	"b"
#define LLTEST_STOP	"bx lr"
#endif
#ifdef CONFIG_THUMB2_KERNEL
#define LLTEST_THUMB	".syntax unified\n.thumb\n.thumb_func\n"
#else
#define LLTEST_THUMB
#endif
/* riscv's kprobes take no compressed jump (c.j): a whole j */
#ifdef CONFIG_RISCV
#define LLTEST_ISA_PUSH	".option push\n.option norvc\n"
#define LLTEST_ISA_POP	".option pop\n"
#else
#define LLTEST_ISA_PUSH
#define LLTEST_ISA_POP
#endif

/*
 * lltest_probed, and lltest_before just before it (never called), so that
 * the byte before lltest_probed is in another function, whatever the
 * compiler puts around this block.
 */
asm(".pushsection .text, \"ax\"\n"
    ".balign 4\n"
    LLTEST_ISA_PUSH
    LLTEST_THUMB
    ".type lltest_before, %function\n"
    "lltest_before:\n"
    LLTEST_STOP "\n"
    ".size lltest_before, . - lltest_before\n"
    LLTEST_THUMB
    ".globl lltest_probed\n"
    ".type lltest_probed, %function\n"
    "lltest_probed:\n"
    LLTEST_BRANCH " lltest_target\n"
    ".size lltest_probed, . - lltest_probed\n"
    LLTEST_ISA_POP
    ".popsection\n");

/*
 * The call to lltest_probed, in a function of its own: arm64 unwinds the
 * interrupted pc's caller from the frame record chain, and at the first
 * instruction of lltest_probed its caller has not saved its return address
 * there yet, so the caller's frame is lost.  This is the frame lost; the
 * trigger's chain (lltest_fire and up) stays whole on every arch.
 */
lltest_noipa int lltest_probe_call(enum lltest_kind kind)
{
	int ret = lltest_probed(kind);

	WRITE_ONCE(lltest_sink, ret);
	return ret + 1;
}

static void lltest_post_handler(struct kprobe *p, struct pt_regs *regs,
				unsigned long flags)
{
	dump_stack();
}

/*
 * A probe on lltest_probed, whose post handler takes the backtrace.  Inlined
 * (as is lltest_saved): the call announced is then made by lltest_fire.
 */
static __always_inline int lltest_probe(enum lltest_kind kind,
					const char *name)
{
	static struct kprobe kp;
	int ret;

	memset(&kp, 0, sizeof(kp));
	kp.symbol_name = "lltest_probed";
	kp.post_handler = lltest_post_handler;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("%s: register_kprobe: %d\n", name, ret);
		return ret;
	}
	pr_info("%s fires at %s:%d\n", name, __FILE__, __LINE__ + 1);
	ret = lltest_probe_call(kind);
	unregister_kprobe(&kp);
	return ret;
}

/*
 * The call to stack_trace_save(), in a function of its own: ARM's
 * save_stack_trace() skips one frame too many when the compiler makes it a
 * tail call of __save_stack_trace() (it skips "this function and the
 * caller" of a frame that is not there).  This is the frame lost there.
 */
lltest_noipa unsigned int lltest_save(unsigned long *entries, unsigned int size)
{
	unsigned int n = stack_trace_save(entries, size, 0);

	WRITE_ONCE(lltest_sink, n);
	return n;
}

/* A saved stack, printed as KASAN, lockdep and page_owner print theirs. */
static __always_inline void lltest_saved(const char *name)
{
	unsigned long entries[32];
	unsigned int n;

	pr_info("%s fires at %s:%d\n", name, __FILE__, __LINE__ + 1);
	n = lltest_save(entries, ARRAY_SIZE(entries));
	stack_trace_print(entries, n, 1);
}

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
	case LLTEST_PROBE:
		WRITE_ONCE(lltest_sink, lltest_probe(kind, name));
		break;
	case LLTEST_SAVED:
		lltest_saved(name);
		break;
	case LLTEST_LONG:
		WRITE_ONCE(lltest_sink, lltest_long(kind, name));
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
	[LLTEST_PROBE] = "probe",
	[LLTEST_SAVED] = "saved",
	[LLTEST_HANG] = "hang",
	[LLTEST_LONG] = "long",
};

/* tag=SUFFIX: triggers name themselves "<name>SUFFIX" (a variant's run) */
static char *tag = "";
module_param(tag, charp, 0444);
MODULE_PARM_DESC(tag, "suffix of the trigger names this load prints");

static lltest_noipa ssize_t lltest_write(struct file *file, const char __user *buf,
					 size_t count, loff_t *ppos)
{
	enum lltest_kind kind = (uintptr_t)file->private_data;
	char name[32];
	int ret;

	snprintf(name, sizeof(name), "%s%s", lltest_names[kind], tag);
	ret = lltest_chain_a(kind, name);
	pr_info("%s returned %d\n", name, ret);
	return count;
}

static const struct file_operations lltest_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = lltest_write,
};

/*
 * loc prints "lltest: loc <symbol> (<path:line>)"; at prints the address
 * first, "lltest: at <hex> <symbol> (<path:line>)": the init writes seeded
 * addresses of the kernel's text there, and the judge asks llvm-symbolizer
 * about each, so the linked table is checked whole.  The file's data says
 * which (NULL: loc).
 */
static ssize_t lltest_loc_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	unsigned long addr;
	int ret = kstrtoul_from_user(buf, count, 16, &addr);

	if (ret)
		return ret;
	if (file->private_data)
		pr_info("at %lx %pSl\n", addr, (void *)addr);
	else
		pr_info("loc %pSl\n", (void *)addr);
	return count;
}

static const struct file_operations lltest_loc_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = lltest_loc_write,
};

static bool init_warn;
module_param(init_warn, bool, 0444);
MODULE_PARM_DESC(init_warn, "WARN in the module's init");
static unsigned long lltest_init_pc;

static ssize_t lltest_loc_init_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	pr_info("loc_init %pSl\n", (void *)lltest_init_pc);
	return count;
}

static const struct file_operations lltest_loc_init_fops = {
	.owner = THIS_MODULE,
	.write = lltest_loc_init_write,
};

static struct dentry *lltest_dir;

static int __init lltest_init(void)
{
	uintptr_t k;

	lltest_dir = debugfs_create_dir("lltest", NULL);
	for (k = 0; k < ARRAY_SIZE(lltest_names); k++)
		debugfs_create_file(lltest_names[k], 0200, lltest_dir,
				    (void *)k, &lltest_fops);
	debugfs_create_file("loc", 0200, lltest_dir, NULL, &lltest_loc_fops);
	debugfs_create_file("at", 0200, lltest_dir, (void *)1, &lltest_loc_fops);
	debugfs_create_file("loc_init", 0200, lltest_dir, NULL,
			    &lltest_loc_init_fops);
	if (init_warn) {
		lltest_init_pc = _THIS_IP_;
		pr_info("init fires at %s:%d\n", __FILE__, __LINE__ + 1);
		WARN_ON(READ_ONCE(init_warn));
	}
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
