/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - what every part of lineloc shares (util.c): the program's
 * globals, the buffered output, the one-line errors and the allocation
 * helpers.  Nothing here knows ELF or DWARF.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/lineloc/table.h>

/* The program's only globals; main() sets them before any file is read. */
extern const char *prog;	/* "lineloc", the start of every error line */
extern const char *in_path;	/* the input file, named by every error */
extern FILE *out;		/* stdout, or the -o temporary file */
extern char *out_tmp;		/* -o: temporary file to remove on error */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void out_flush(void);
char *out_reserve(size_t need);
void out_commit(char *end);
void out_open(const char *path);
void out_close(const char *path, int sync);
void out_mem(const char *s, size_t n);
void out_str(const char *s);
void out_dec(uint64_t v);
void out_hex(uint64_t v);

void __attribute__((noreturn, format(printf, 3, 4)))
die(const char *file, const char *where, const char *fmt, ...);
const char *sec_at(const char *sec, uint64_t off);

/* malloc() and free(), for the table encoder */
extern const struct lineloc_alloc lineloc_libc_alloc;

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *xcalloc(size_t n, size_t size);
void *xalloc_array(const char *what, uint64_t n, size_t size);
char *xstrdup(const char *s);
/*
 * LOWER_BOUND(lo, n, below): set @lo to the first index i in [0, @n) for
 * which @below, an expression of i, is false (@n if it never is); @below
 * must be true for a prefix of the indexes and false after it.
 */
#define LOWER_BOUND(lo, n, below) do {				\
	size_t lo_ = 0, hi_ = (n);				\
								\
	while (lo_ < hi_) {					\
		size_t i = lo_ + (hi_ - lo_) / 2;		\
								\
		if (below)					\
			lo_ = i + 1;				\
		else						\
			hi_ = i;				\
	}							\
	(lo) = lo_;						\
} while (0)

void xqsort(void *base, size_t n, size_t size,
	    int (*cmp)(const void *, const void *));
void *grow_array(void *p, size_t *cap, size_t need, size_t size);

/**
 * grow() - make room in an array
 * @p: the array, or NULL
 * @cap: its capacity in elements, updated
 * @need: the number of elements it must hold
 * @size: the size of an element
 *
 * Inline for the common case, where the array is large enough: it is called
 * once per row in the loops that collect rows.
 *
 * Return: the array, moved if it had to grow.
 */
static inline void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	return grow_array(p, cap, need, size);
}

#endif /* UTIL_H */
