// SPDX-License-Identifier: GPL-2.0
/*
 * lltest_race: looks up source locations in another module's text while
 * that module is loaded and unloaded, over and over (the hardened matrix's
 * race test: qemu/plans/hardened.plan).
 *
 * A module notifier records where the module named by target= (default
 * lltest) puts its core and init text each time it comes.  A kthread,
 * bound to CPU cpu= when that CPU is online, formats random addresses in
 * those ranges with %pSl and %pBl without pause.  The ranges are never
 * forgotten: after an unload, and after init text is freed, the lookups go
 * on at the same addresses, which may by then belong to nothing or to the
 * next load.  Every answer must be safe; none is checked here.
 *
 * On unload it prints
 *
 *   lltest_race: N lookups, M located, L loads seen, cpu C
 *
 * where "located" counts answers that carried a location.
 *
 * With hold=1 the kthread instead takes the target's core line table
 * inside an RCU-sched read section once the target is live, and keeps it
 * there until the target's unload has begun and half a second more; then
 * it reads the table and prints
 *
 *   lltest_race: held lltest's line table across its unload: read 0xNN
 *
 * With hold_init=1 it takes the init text's table while the target is
 * coming, before its init runs, and keeps it until the loader has
 * unpublished that table (the init text is being freed) and half a second
 * more; then it reads it and prints
 *
 *   lltest_race: held lltest's init line table across its init's end: read 0xNN
 *
 * In both the notifier waits until the kthread holds the table, so the
 * read section always spans the end of the table's life.  The loader must
 * wait for that section before it frees the table: under KASAN, a table
 * freed too early makes the read a use-after-free report.
 */
#define pr_fmt(fmt) "lltest_race: " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/version.h>

static char *target = "lltest";
module_param(target, charp, 0444);
MODULE_PARM_DESC(target, "the module whose text is looked up");
static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the CPU the lookups run on, if online");
static bool hold;
module_param(hold, bool, 0444);
MODULE_PARM_DESC(hold, "hold the target's table across its unload");
static bool hold_init;
module_param(hold_init, bool, 0444);
MODULE_PARM_DESC(hold_init, "hold the target's init table across its init's end");

/* base and size of the target's core text, then of its init text */
static unsigned long race_base[2], race_size[2];
static atomic_t race_loads = ATOMIC_INIT(0);
static unsigned long race_lookups, race_located;
static struct task_struct *race_task;
/*
 * hold=1 or hold_init=1: the target once live (coming, for hold_init),
 * whether its unload has begun, and the kthread holding its table
 */
static struct module *hold_mod;
static atomic_t hold_going = ATOMIC_INIT(0);
static DECLARE_COMPLETION(hold_taken);

static int race_notify(struct notifier_block *nb, unsigned long state,
		       void *data)
{
	struct module *mod = data;

	if (strcmp(mod->name, target))
		return NOTIFY_DONE;
	if (hold || hold_init) {
		unsigned long from = hold_init ? MODULE_STATE_COMING :
						 MODULE_STATE_LIVE;

		if (state == from && !READ_ONCE(hold_mod)) {
			WRITE_ONCE(hold_mod, mod);
			/* the table is held before the loader goes on */
			if (!wait_for_completion_timeout(&hold_taken, 10 * HZ))
				pr_warn("the kthread never took %s's table\n",
					target);
		} else if (state == MODULE_STATE_GOING &&
			   READ_ONCE(hold_mod) == mod) {
			atomic_set(&hold_going, 1);
		}
		return NOTIFY_OK;
	}
	if (state != MODULE_STATE_COMING)
		return NOTIFY_DONE;
	/* sizes first, bases after: a reader never sees a base with no size */
	WRITE_ONCE(race_size[0], 0);
	WRITE_ONCE(race_size[1], 0);
	/* the sizes are 0 before the bases change: pairs with race_thread() */
	smp_wmb();
	/* the core and init text: a layout each before 6.4, a memory since */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	WRITE_ONCE(race_base[0], (unsigned long)mod->mem[MOD_TEXT].base);
	WRITE_ONCE(race_base[1], (unsigned long)mod->mem[MOD_INIT_TEXT].base);
	/* the bases are set before the sizes: pairs with race_thread() */
	smp_wmb();
	WRITE_ONCE(race_size[0], mod->mem[MOD_TEXT].size);
	WRITE_ONCE(race_size[1], mod->mem[MOD_INIT_TEXT].size);
#else
	WRITE_ONCE(race_base[0], (unsigned long)mod->core_layout.base);
	WRITE_ONCE(race_base[1], (unsigned long)mod->init_layout.base);
	/* the bases are set before the sizes: pairs with race_thread() */
	smp_wmb();
	WRITE_ONCE(race_size[0], mod->core_layout.text_size);
	WRITE_ONCE(race_size[1], mod->init_layout.text_size);
#endif
	atomic_inc(&race_loads);
	return NOTIFY_OK;
}

static struct notifier_block race_nb = {
	.notifier_call = race_notify,
};

static int race_thread(void *unused)
{
	u32 seed = 1;
	char buf[256];

	while (!kthread_should_stop()) {
		unsigned long size, base;
		int which;

		seed = seed * 1103515245 + 12345;
		which = (seed >> 16) & 1;
		size = READ_ONCE(race_size[which]);
		/* a size read is never older than its base: race_notify() */
		smp_rmb();
		base = READ_ONCE(race_base[which]);
		if (!size || !base) {
			cond_resched();
			continue;
		}
		snprintf(buf, sizeof(buf), "%pSl",
			 (void *)(base + (seed >> 8) % size));
		race_lookups++;
		if (strstr(buf, ".c:"))
			race_located++;
		snprintf(buf, sizeof(buf), "%pBl",
			 (void *)(base + (seed >> 4) % size + 1));
		race_lookups++;
		if (strstr(buf, ".c:"))
			race_located++;
		if (!(race_lookups & 63))
			cond_resched();
	}
	return 0;
}

/*
 * Whether the held table's life has ended: the unload began, or (init) the
 * loader unpublished the table of the init text it is about to free.
 */
static bool hold_ended(void)
{
#ifdef CONFIG_MODULE_LINE_LOCATIONS
	if (hold_init)
		return !rcu_access_pointer(hold_mod->lines[1]);
#endif
	return atomic_read(&hold_going);
}

static int race_hold(void *unused)
{
	const u8 *table = NULL;
	int i, ended = 0, val = -1;
	char what[32];

	while (!READ_ONCE(hold_mod)) {
		if (kthread_should_stop())
			return 0;
		msleep(20);
	}
	rcu_read_lock_sched();
#ifdef CONFIG_MODULE_LINE_LOCATIONS
	table = (const u8 *)rcu_dereference_sched(hold_mod->lines[hold_init]);
#endif
	complete(&hold_taken);
	/* the table's grace period waits for this section: 10 s at most */
	for (i = 0; i < 10000 && !hold_ended(); i++)
		mdelay(1);
	if (hold_ended()) {
		ended = 1;
		mdelay(500);
	}
	if (table)
		val = READ_ONCE(*table);
	rcu_read_unlock_sched();
	if (!table)
		snprintf(what, sizeof(what), "no table");
	else if (!ended)
		snprintf(what, sizeof(what), "%s never came",
			 hold_init ? "the end" : "the unload");
	else
		snprintf(what, sizeof(what), "read %#04x", val);
	pr_info("held %s's %sline table across %s: %s\n", target,
		hold_init ? "init " : "",
		hold_init ? "its init's end" : "its unload", what);
	while (!kthread_should_stop())
		msleep(20);
	return 0;
}

static int __init race_init(void)
{
	int ret = register_module_notifier(&race_nb);

	if (ret)
		return ret;
	race_task = kthread_create(hold || hold_init ? race_hold : race_thread, NULL,
				   "lltest_race");
	if (IS_ERR(race_task)) {
		unregister_module_notifier(&race_nb);
		return PTR_ERR(race_task);
	}
	if (cpu >= 0 && cpu < nr_cpu_ids && cpu_online(cpu))
		kthread_bind(race_task, cpu);
	else
		cpu = -1;
	wake_up_process(race_task);
	pr_info("%s %s's text on cpu %d\n",
		hold || hold_init ? "holding" : "looking up",
		target, cpu);
	return 0;
}

static void __exit race_exit(void)
{
	kthread_stop(race_task);
	unregister_module_notifier(&race_nb);
	if (!hold && !hold_init)
		pr_info("%lu lookups, %lu located, %d loads seen, cpu %d\n",
			race_lookups, race_located, atomic_read(&race_loads),
			cpu);
}

module_init(race_init);
module_exit(race_exit);
MODULE_DESCRIPTION("Line-location lookups racing module loads and unloads");
MODULE_LICENSE("GPL");
