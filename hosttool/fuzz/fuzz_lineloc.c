// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lineloc's ELF reader and everything after it: the
 * section headers and names, SHF_COMPRESSED sections, the relocations of a
 * relocatable object, .debug_info's units and ranges, its DIEs (the
 * inlined calls), the line tables,
 * paths, clipping, and the compact tables built from them.  The input is
 * one mode byte, then an ELF file:
 *   mode % 8: 0 --rows, 1 --rows --all-rows, 2 --stats (and
 *             --inline-stats of an executable), 3 -e (a few addresses,
 *             -a -i -f in an executable, -j .text in a relocatable object),
 *             4 -i --kernel-table, 5 --table-check, 6 --via-table -e
 *             -a -i -f, 7 --table-size.
 * The file goes to a memfd and lineloc opens it by its /proc/self/fd path,
 * as it opens any file; the output goes to /dev/null, and so do its error
 * lines unless LINELOC_FUZZ_STDERR is set.
 *
 * lineloc is a program: its errors end in exit(1) with memory and files
 * left to the kernel, and some of its state is static.  To run it over
 * and over in one process, its sources are included here (one translation
 * unit) with exit(), open() and the allocator renamed: exit() jumps back
 * here, every allocation and file is tracked and released after each
 * input, and its static data (placed in sections of its own) is put back
 * as it was before the first input.  Nothing in lineloc's sources changes
 * for this.
 *
 * Build: make -f hosttool/hosttool.mk hosttool/fuzz/fuzz_lineloc
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- what lineloc calls instead of exit(), open() and the allocator --- */

static jmp_buf fz_jump;
static int fz_jump_set;

static void __attribute__((noreturn)) fz_exit(int status)
{
	if (!fz_jump_set)
		abort();	/* exit() outside a run: a harness bug */
	longjmp(fz_jump, status ? status : 256);
}

#define FZ_MAX_FDS 64
static int fz_fds[FZ_MAX_FDS];
static int fz_nfds;

static int fz_open(const char *path, int flags, ...)
{
	int fd = open(path, flags);

	if (fd >= 0) {
		if (fz_nfds == FZ_MAX_FDS)
			abort();
		fz_fds[fz_nfds++] = fd;
	}
	return fd;
}

/* Every live allocation, in a list behind a 16-byte header. */
struct fz_block {
	struct fz_block *prev, *next;
};
_Static_assert(sizeof(struct fz_block) <= 16, "header");
#define FZ_HDR 16
static struct fz_block fz_live = { &fz_live, &fz_live };

static void *fz_link(struct fz_block *b)
{
	if (!b)
		return NULL;
	b->next = fz_live.next;
	b->prev = &fz_live;
	fz_live.next->prev = b;
	fz_live.next = b;
	return (char *)b + FZ_HDR;
}

static struct fz_block *fz_unlink(void *p)
{
	struct fz_block *b = (struct fz_block *)((char *)p - FZ_HDR);

	b->prev->next = b->next;
	b->next->prev = b->prev;
	return b;
}

static void *fz_malloc(size_t n)
{
	if (n > SIZE_MAX - FZ_HDR)
		return NULL;
	return fz_link(malloc(n + FZ_HDR));
}

static void *fz_calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > (SIZE_MAX - FZ_HDR) / size)
		return NULL;
	p = fz_malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

static void fz_free(void *p)
{
	if (p)
		free(fz_unlink(p));
}

static void *fz_realloc(void *p, size_t n)
{
	struct fz_block *b, *nb;

	if (!p)
		return fz_malloc(n);
	if (n > SIZE_MAX - FZ_HDR)
		return NULL;
	b = fz_unlink(p);
	nb = realloc(b, n + FZ_HDR);
	if (!nb) {
		fz_link(b);	/* realloc() failed: the old block lives on */
		return NULL;
	}
	return fz_link(nb);
}

static void fz_release(void)
{
	while (fz_live.next != &fz_live)
		free(fz_unlink((char *)fz_live.next + FZ_HDR));
	while (fz_nfds)
		close(fz_fds[--fz_nfds]);
}

/* ---- lineloc itself, its static data in sections of its own ---------- */

/* lineloc's error lines: to /dev/null, or stderr with LINELOC_FUZZ_STDERR=1 */
static FILE *fz_stderr;
#undef stderr
#define stderr fz_stderr
#define exit(s) fz_exit(s)
#define open fz_open
/*
 * Object-like: <linux/lineloc/table.h>'s allocator has members named
 * malloc and free, renamed alike everywhere in this unit (the layout is
 * the same).
 */
#define malloc fz_malloc
#define calloc fz_calloc
#define realloc fz_realloc
#define free fz_free

#pragma clang section bss = "fz_lineloc_bss" data = "fz_lineloc_data"
#include "../kbuild/util.c"
#include "../kbuild/elfread.c"
#include "../elfrel.c"
#include "../kbuild/units.c"
#include "../kbuild/paths.c"
#include "../kbuild/tables.c"
#include "../kbuild/rows.c"
#include "../modes.c"
#include "../kbuild/inlines.c"
#include "../kbuild/ktable.c"
#include "../ktable_check.c"
#include "../kbuild/modsec.c"
#include "../modtable.c"
/* the encoder's allocator too; its put32() is not ktable.c's */
#define put32 lt_enc_put32
#include "../lib/linetab_enc.c"
#undef put32
#pragma clang section bss = "" data = ""

#undef stderr
#define stderr stderr
#undef exit
#undef open
#undef malloc
#undef calloc
#undef realloc
#undef free

/* Linker-made bounds of the two sections. */
extern char __start_fz_lineloc_data[], __stop_fz_lineloc_data[];
extern char __start_fz_lineloc_bss[], __stop_fz_lineloc_bss[];
static char *fz_data_copy;

/* ---- the target ------------------------------------------------------ */

static int fz_memfd = -1;
static char fz_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t n = (size_t)(__stop_fz_lineloc_data - __start_fz_lineloc_data);
	int null = open("/dev/null", O_WRONLY);

	(void)argc;
	(void)argv;
	fz_data_copy = malloc(n ? n : 1);
	if (!fz_data_copy || null < 0 || dup2(null, 1) < 0)
		abort();
	close(null);
	fz_stderr = getenv("LINELOC_FUZZ_STDERR") ? stderr : fopen("/dev/null", "w");
	if (!fz_stderr)
		abort();
	memcpy(fz_data_copy, __start_fz_lineloc_data, n);
	fz_memfd = memfd_create("fuzz-lineloc.elf", 0);
	if (fz_memfd < 0)
		abort();
	snprintf(fz_path, sizeof(fz_path), "/proc/self/fd/%d", fz_memfd);
	return 0;
}

static void fz_reset_statics(void)
{
	memcpy(__start_fz_lineloc_data, fz_data_copy,
	       (size_t)(__stop_fz_lineloc_data - __start_fz_lineloc_data));
	memset(__start_fz_lineloc_bss, 0,
	       (size_t)(__stop_fz_lineloc_bss - __start_fz_lineloc_bss));
	elf_prepare = elfrel_prepare;	/* as lineloc's main() sets it */
}

static void fz_run(unsigned int mode)
{
	static char *addrs[] = {
		"0", "1", "10", "40", "1000", "ffffffff81000000",
		"c0008000", "ffff800008000000",
	};
	int naddrs = (int)(sizeof(addrs) / sizeof(addrs[0]));
	static struct tables t;
	static struct elf e;

	memset(&t, 0, sizeof(t));
	memset(&e, 0, sizeof(e));
	in_path = fz_path;
	out = stdout;
	if (mode == 6 || mode == 7) {
		elf_open(&e, fz_path);
		if (e.type == ET_REL) {
			if (mode == 6)
				do_via_module(&e, ".text", KTABLE_BLOCK, addrs,
					      naddrs);
			else
				do_module_table_size(&e, KTABLE_BLOCK);
			out_flush();
			return;
		}
	}
	load_tables(&t, fz_path, STRIP_AUTO, mode == 1);
	switch (mode) {
	case 0:
	case 1:
		do_rows(&t);
		break;
	case 2:
		do_stats(&t);
		if (t.elf.type != ET_REL)
			do_inline_stats(&t);
		break;
	case 3:
		/* an executable's chains of inlined calls, names, addresses */
		do_addrs(&t, t.elf.type == ET_REL ? ".text" : NULL,
			 t.elf.type == ET_REL ? 0 :
			 ADDR_INLINES | ADDR_NAMES | ADDR_SHOW, addrs, naddrs);
		break;
	case 4:
		do_kernel_table(&t, KTABLE_BLOCK, 1);	/* with chains */
		break;
	case 5:
		do_table_check(&t, KTABLE_BLOCK);
		break;
	case 6:
		do_via_table(&t, KTABLE_BLOCK,
			     ADDR_INLINES | ADDR_NAMES | ADDR_SHOW, addrs, naddrs);
		break;
	default:
		do_table_size(&t, KTABLE_BLOCK, 0);	/* no timing */
	}
	out_flush();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile unsigned int mode;

	if (size < 1)
		return 0;
	mode = data[0] % 8;
	if (ftruncate(fz_memfd, 0) ||
	    pwrite(fz_memfd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();
	fz_reset_statics();
	if (!setjmp(fz_jump)) {
		fz_jump_set = 1;
		fz_run(mode);
	}
	fz_jump_set = 0;
	fflush(stdout);
	fz_release();
	return 0;
}
