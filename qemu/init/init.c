// SPDX-License-Identifier: GPL-2.0
/*
 * init for the matrix's initramfs: mounts the pseudo file systems, then runs
 * the plan in /plan, one command a line, and restarts the machine (QEMU runs
 * with -no-reboot, so that ends it).
 *
 *   say TEXT           print TEXT
 *   insmod PATH [ARGS] load a module (finit_module)
 *   rmmod NAME         unload a module
 *   write PATH VALUE   write VALUE to PATH from a child process, so that an
 *                      oops that kills the writer does not kill init
 *   writesym PATH SYM  write SYM's address (from /proc/kallsyms), in hex
 *   textlocs PATH N SEED
 *                      write N seeded addresses of the kernel's text, each
 *                      in hex (the seed and the range printed)
 *   kallsyms           time a read of /proc/kallsyms, then print it without
 *                      its addresses, between begin and end lines
 *   cat PATH           print the first line of PATH
 *   variants DIR NAME [TRIGGER]
 *                      for each .ko file of DIR in name order: insmod it
 *                      (with TRIGGER: as tag=_<file name less .ko>, and
 *                      write 1 to /sys/kernel/debug/NAME/TRIGGER), cat
 *                      /sys/module/NAME/linesize and linesource, rmmod NAME (the
 *                      module's load-time variants: they must all load)
 *   cycle N PATH NAME  load PATH and unload NAME N times, while a child
 *                      process reads /proc/kallsyms over and over; print
 *                      the time taken and the child's count of reads
 *   loadtime N PATH NAME
 *                      load PATH and unload NAME N times; print the total
 *                      time of the loads alone
 *   sleep SECONDS      sleep (kmemleak reports no object younger than 5 s)
 *   done               print the success marker and restart
 *
 * Lines whose first word starts with '#', and empty lines, are not steps.
 * matrix/plan.py reads plans by this grammar (the form of each step's
 * arguments is in its VERBS) for the judge.
 *
 * Every line this program prints starts with "lltest-init: ".  The judge
 * (matrix/judge.py) requires the success marker: a plan that stops early,
 * a hang or a panic never reaches it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MARKER "ALL DONE"

static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "lltest-init: ");
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(1, buf, n) < 0)
		return;
}

static void finish(int ok)
{
	sync();
	if (ok)
		say("%s", MARKER);
	else
		say("plan FAILED");
	reboot(RB_AUTOBOOT);
	say("reboot returned: %s", strerror(errno));
	for (;;)
		pause();
}

static long us_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long)((t1.tv_sec - t0->tv_sec) * 1000000 +
		      (t1.tv_nsec - t0->tv_nsec) / 1000);
}

static int do_insmod(char *arg)
{
	char *path = strtok(arg, " "), *params = strtok(NULL, "");
	struct timespec t0;
	int fd, ret;

	if (!path)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say("insmod %s: %s", path, strerror(errno));
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	close(fd);
	if (ret) {
		say("insmod %s: %s", path, strerror(errno));
		return -1;
	}
	say("insmod %s: ok in %ld us", path, us_since(&t0));
	return 0;
}

static int do_rmmod(const char *name);
static int do_write(char *arg);

static int do_cat(const char *path)
{
	char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		say("cat %s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	say("cat %s: %s", path, buf);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_ko(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".ko");
}

static int do_variants(char *arg)
{
	char *dir = strtok(arg, " "), *name = strtok(NULL, " ");
	char *trigger = strtok(NULL, " ");
	char path[512], sys[256], src[256], cmd[600], file[256];
	struct dirent **ents;
	int i, n, bad = 0;

	if (!dir || !name)
		return -1;
	n = scandir(dir, &ents, is_ko, by_name);
	if (n < 0) {
		say("variants %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(sys, sizeof(sys), "/sys/module/%s/linesize", name);
	snprintf(src, sizeof(src), "/sys/module/%s/linesource", name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		say("variant %s", ents[i]->d_name);
		/* tag: the file name less ".ko" */
		snprintf(cmd, sizeof(cmd), "%s tag=_%.*s", path,
			 (int)strlen(ents[i]->d_name) - 3, ents[i]->d_name);
		snprintf(file, sizeof(file), "/sys/kernel/debug/%s/%s 1",
			 name, trigger ? trigger : "");
		if (do_insmod(trigger ? cmd : path)) {
			bad = 1;
		} else {
			if (trigger && do_write(file))
				bad = 1;
			/*
			 * A kernel without module line locations (the
			 * pristine tree, a commit before them) has no
			 * linesize: the judge reads what was printed, and
			 * the module is unloaded all the same.
			 */
			do_cat(sys);
			do_cat(src);
			if (do_rmmod(name))
				bad = 1;
		}
		free(ents[i]);
	}
	free(ents);
	say("variants %s: %d loaded", dir, n);
	return bad ? -1 : 0;
}

static int do_rmmod(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK)) {
		say("rmmod %s: %s", name, strerror(errno));
		return -1;
	}
	say("rmmod %s: ok", name);
	return 0;
}

static int do_write(char *arg)
{
	char *path = strtok(arg, " "), *val = strtok(NULL, "");
	int status;
	pid_t pid;

	if (!path || !val)
		return -1;
	say("write %s %s: start", path, val);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(path, O_WRONLY);

		if (fd < 0 || write(fd, val, strlen(val)) < 0)
			_exit(errno ? errno : 1);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status))
		say("write %s: writer killed by signal %d", path, WTERMSIG(status));
	else
		say("write %s: writer exited %d", path, WEXITSTATUS(status));
	return 0;
}

/* The address of SYMBOL in /proc/kallsyms, or 0. */
static unsigned long long kallsyms_addr(const char *sym)
{
	char line[600], name[512], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) == 3 &&
		    !strcmp(name, sym)) {
			fclose(f);
			return addr;
		}
	}
	fclose(f);
	return 0;
}

/*
 * writesym FILE SYMBOL: write SYMBOL's address, from /proc/kallsyms, in
 * hex to FILE (in this process: the write must return).
 */
static int do_writesym(char *arg)
{
	char *path = strtok(arg, " "), *sym = strtok(NULL, " ");
	char val[32];
	unsigned long long addr;
	int fd, n;

	if (!path || !sym)
		return -1;
	addr = kallsyms_addr(sym);
	if (!addr) {
		say("writesym: %s not in /proc/kallsyms", sym);
		return -1;
	}
	n = snprintf(val, sizeof(val), "%llx", addr);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, n) != n) {
		say("writesym %s %s: %s", path, sym, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	say("writesym %s %s: ok", path, sym);
	return 0;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* xorshift64: the same addresses for the same seed on every arch */
static unsigned long long next_rand(unsigned long long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * textlocs FILE N SEED: write N addresses of the kernel's text, each in hex
 * to FILE.  Each is drawn with a xorshift64 generator seeded by SEED: a text
 * symbol of /proc/kallsyms in [_stext, _etext), then an offset below the
 * next symbol, at most 4 KiB (the text has megabytes of alignment padding
 * after a few symbols; drawing over the range whole would mostly hit it).
 * The seed and the range are printed, so that a run can be replayed.
 */
static int do_textlocs(char *arg)
{
	char *path = strtok(arg, " "), *n_s = strtok(NULL, " "), *seed_s = strtok(NULL, " ");
	unsigned long long lo, hi, x, *syms = NULL, addr;
	size_t nsyms = 0, cap = 0;
	char line[600], name[512], type;
	long i, n;
	FILE *f;

	if (!path || !n_s || !seed_s)
		return -1;
	n = strtol(n_s, NULL, 10);
	x = strtoull(seed_s, NULL, 10) | 1;
	lo = kallsyms_addr("_stext");
	hi = kallsyms_addr("_etext");
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) != 3 ||
		    !strchr("tTwW", type) || strchr(line, '[') || addr < lo || addr >= hi)
			continue;
		if (nsyms == cap) {
			unsigned long long *more;

			cap = cap ? 2 * cap : 4096;
			more = realloc(syms, cap * sizeof(*syms));
			if (!more)
				break;
			syms = more;
		}
		syms[nsyms++] = addr;
	}
	if (f)
		fclose(f);
	if (!lo || hi <= lo || n <= 0 || nsyms < 2) {
		say("textlocs: no text (_stext %llx, _etext %llx, %zu symbols) or N %ld",
		    lo, hi, nsyms, n);
		free(syms);
		return -1;
	}
	qsort(syms, nsyms, sizeof(*syms), cmp_ull);
	say("textlocs %s: %ld addresses in %zu text symbols of [%llx, %llx), seed %s",
	    path, n, nsyms, lo, hi, seed_s);
	for (i = 0; i < n; i++) {
		size_t k = next_rand(&x) % nsyms;
		unsigned long long end = k + 1 < nsyms ? syms[k + 1] : hi;
		unsigned long long span = end - syms[k];
		char val[32];
		int fd, len;

		if (span > 4096)
			span = 4096;
		addr = syms[k] + (span ? next_rand(&x) % span : 0);
		len = snprintf(val, sizeof(val), "%llx", addr);
		fd = open(path, O_WRONLY);
		if (fd < 0 || write(fd, val, len) != len) {
			say("textlocs %s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			free(syms);
			return -1;
		}
		close(fd);
	}
	free(syms);
	say("textlocs %s: done", path);
	return 0;
}

static volatile sig_atomic_t reader_stop;

static void reader_on_term(int sig)
{
	(void)sig;
	reader_stop = 1;
}

/* The child of cycle: reads /proc/kallsyms until SIGTERM. */
static void kallsyms_reader(void)
{
	static char buf[64 << 10];
	unsigned long reads = 0;

	signal(SIGTERM, reader_on_term);
	while (!reader_stop) {
		int fd = open("/proc/kallsyms", O_RDONLY);

		if (fd < 0)
			_exit(1);
		while (!reader_stop && read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		reads++;
	}
	say("cycle reader: %lu reads of /proc/kallsyms", reads);
	_exit(0);
}

/*
 * "N PATH NAME" of loadtime and cycle: the count, PATH opened for
 * finit_module(), and the module's NAME; -1 (said, with @cmd) if one is
 * missing or PATH cannot be opened.
 */
static int load_args(const char *cmd, char *arg, int *n, char **path,
		     char **name)
{
	char *count = strtok(arg, " ");
	int fd;

	*path = strtok(NULL, " ");
	*name = strtok(NULL, " ");
	if (!count || !*path || !*name)
		return -1;
	*n = atoi(count);
	if (*n <= 0)
		return -1;
	fd = open(*path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		say("%s %s: %s", cmd, *path, strerror(errno));
	return fd;
}

/*
 * loadtime N PATH NAME: load PATH and unload NAME N times, timing the
 * loads alone; one line with their number and total time (a clock that
 * ticks in jiffies still gives a usable mean over N loads).
 */
static int do_loadtime(char *arg)
{
	struct timespec t0;
	char *path, *name;
	long total = 0;
	int i, n, fd;

	fd = load_args("loadtime", arg, &n, &path, &name);
	if (fd < 0)
		return -1;
	for (i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (syscall(SYS_finit_module, fd, "", 0)) {
			say("loadtime %s: load %d: %s", path, i + 1, strerror(errno));
			close(fd);
			return -1;
		}
		total += us_since(&t0);
		if (syscall(SYS_delete_module, name, O_NONBLOCK)) {
			say("loadtime %s: unload %d: %s", name, i + 1, strerror(errno));
			close(fd);
			return -1;
		}
	}
	close(fd);
	say("loadtime %s: %d loads in %ld us", path, n, total);
	return 0;
}

static int do_cycle(char *arg)
{
	int i, n, fd, status, bad = 0;
	struct timespec t0;
	char *path, *name;
	pid_t pid;

	fd = load_args("cycle", arg, &n, &path, &name);
	if (fd < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -1;
	}
	if (pid == 0)
		kallsyms_reader();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n && !bad; i++) {
		if (syscall(SYS_finit_module, fd, "", 0)) {
			say("cycle %s: load %d: %s", path, i + 1, strerror(errno));
			bad = 1;
		} else if (syscall(SYS_delete_module, name, O_NONBLOCK)) {
			say("cycle %s: unload %d: %s", name, i + 1, strerror(errno));
			bad = 1;
		} else if ((i + 1) % 100 == 0 && i + 1 < n) {
			say("cycle %s: %d so far, %ld ms", path, i + 1,
			    us_since(&t0) / 1000);
		}
	}
	close(fd);
	say("cycle %s: %d loads and unloads in %ld ms", path, bad ? i - 1 : i,
	    us_since(&t0) / 1000);
	kill(pid, SIGTERM);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		bad = 1;
	return bad ? -1 : 0;
}

/*
 * sleep SECONDS on the monotonic clock, in steps of 100 ms: the step that
 * fails (it did at once on arm, glibc's sleep()) only costs a busy wait.
 */
static int do_sleep(const char *arg)
{
	struct timespec t0, step = { 0, 100 * 1000 * 1000 };
	long us = atol(arg) * 1000000L;
	int warned = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (us_since(&t0) < us)
		if (nanosleep(&step, NULL) && !warned++)
			say("sleep: nanosleep: %s (waiting on the clock)",
			    strerror(errno));
	say("slept %s s", arg);
	return 0;
}

static int do_kallsyms(void)
{
	static char buf[8 << 20];
	struct timespec t0, t1;
	size_t len = 0, lines = 0;
	const char *prev = NULL;
	ptrdiff_t prev_len = 0;
	char *p, *nl;
	ssize_t n;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = open("/proc/kallsyms", O_RDONLY);
	if (fd < 0)
		return -1;
	while (len < sizeof(buf) && (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (len == sizeof(buf))
		return -1;
	for (p = buf; p < buf + len; p++)
		lines += *p == '\n';
	say("read /proc/kallsyms: %zu bytes, %zu lines in %ld us", len, lines,
	    (long)((t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000));
	/* keep printk off the console while the listing prints */
	fd = open("/proc/sys/kernel/printk", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			say("cannot quiet printk");
		close(fd);
	}
	/*
	 * Each line without its address; a line at the address of the line
	 * before it starts with '=', since the order among symbols at one
	 * address is the link's, not something the series decides.
	 */
	say("begin /proc/kallsyms");
	for (p = buf; p < buf + len; p = nl + 1) {
		char *sp = memchr(p, ' ', buf + len - p);

		nl = memchr(p, '\n', buf + len - p);
		if (!nl || !sp || sp > nl)
			break;
		if (prev && sp - p == prev_len && !memcmp(p, prev, prev_len) &&
		    write(1, "=", 1) < 0)
			return -1;
		if (write(1, sp + 1, nl - sp) < 0)
			return -1;
		prev = p;
		prev_len = sp - p;
	}
	say("end /proc/kallsyms");
	fd = open("/proc/sys/kernel/printk", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "8", 1) < 0)
			say("cannot restore printk");
		close(fd);
	}
	return 0;
}

int main(void)
{
	char line[512];
	FILE *plan;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	say("start");

	plan = fopen("/plan", "r");
	if (!plan) {
		say("no /plan: %s", strerror(errno));
		finish(0);
	}
	while (fgets(line, sizeof(line), plan)) {
		char *cmd, *arg;
		int ret = 0;

		line[strcspn(line, "\n")] = '\0';
		cmd = strtok(line, " ");
		arg = strtok(NULL, "");
		if (!cmd || cmd[0] == '#')
			continue;
		if (!strcmp(cmd, "say"))
			say("%s", arg ? arg : "");
		else if (!strcmp(cmd, "insmod") && arg)
			ret = do_insmod(arg);
		else if (!strcmp(cmd, "rmmod") && arg)
			ret = do_rmmod(arg);
		else if (!strcmp(cmd, "write") && arg)
			ret = do_write(arg);
		else if (!strcmp(cmd, "writesym") && arg)
			ret = do_writesym(arg);
		else if (!strcmp(cmd, "textlocs") && arg)
			ret = do_textlocs(arg);
		else if (!strcmp(cmd, "kallsyms"))
			ret = do_kallsyms();
		else if (!strcmp(cmd, "cat") && arg)
			ret = do_cat(arg);
		else if (!strcmp(cmd, "variants") && arg)
			ret = do_variants(arg);
		else if (!strcmp(cmd, "cycle") && arg)
			ret = do_cycle(arg);
		else if (!strcmp(cmd, "loadtime") && arg)
			ret = do_loadtime(arg);
		else if (!strcmp(cmd, "sleep") && arg)
			ret = do_sleep(arg);
		else if (!strcmp(cmd, "done"))
			finish(1);
		else
			ret = -1;
		if (ret) {
			say("plan step failed: %s %s", cmd, arg ? arg : "");
			finish(0);
		}
	}
	say("plan ended without 'done'");
	finish(0);
	return 0;
}
