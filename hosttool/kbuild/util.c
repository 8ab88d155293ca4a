// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - lineloc's output buffer, errors and allocation helpers
 *
 * Output goes through one buffer to stdout or to the -o temporary file.
 * Every error, a corrupt file as much as a failed allocation, is one line
 * on stderr and exit status 1 (die()), never a crash, and no -o file is
 * left behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

const char *prog = "lineloc";
const char *in_path;
FILE *out;
char *out_tmp;
/* the output buffer, written out by out_flush() */
static char obuf[1 << 16];
static size_t olen;		/* bytes used in obuf */

/* ---- output ----------------------------------------------------------- */

/**
 * out_flush() - write the output buffer
 *
 * A write error is fatal: one line on stderr, no -o file left, exit 1.
 */
void out_flush(void)
{
	if (olen && fwrite(obuf, 1, olen, out) != olen) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		if (out_tmp)
			unlink(out_tmp);
		exit(1);
	}
	olen = 0;
}

/**
 * out_reserve() - room for @need bytes at the end of the output buffer
 * @need: the most the caller writes there
 *
 * Flushes the buffer first if it has less room.  The caller writes at the
 * pointer returned and then passes the end of what it wrote to
 * out_commit(), with no other output between.
 *
 * Return: where to write, or NULL when @need exceeds the whole buffer.
 */
char *out_reserve(size_t need)
{
	if (need > sizeof(obuf))
		return NULL;
	if (olen + need > sizeof(obuf))
		out_flush();
	return obuf + olen;
}

/**
 * out_commit() - keep what was written after out_reserve()
 * @end: the end of it
 */
void out_commit(char *end)
{
	olen = (size_t)(end - obuf);
}

/**
 * out_mem() - append bytes to the output
 * @s: the bytes
 * @n: their number; more than the buffer holds are written directly
 */
void out_mem(const char *s, size_t n)
{
	if (olen + n > sizeof(obuf)) {
		out_flush();
		if (n > sizeof(obuf)) {
			if (fwrite(s, 1, n, out) != n)
				olen = sizeof(obuf) + 1;	/* caught below */
			return;
		}
	}
	memcpy(obuf + olen, s, n);
	olen += n;
}

/**
 * out_str() - append a string to the output
 * @s: the NUL-terminated string
 */
void out_str(const char *s)
{
	out_mem(s, strlen(s));
}

/**
 * out_dec() - append a number in decimal to the output
 * @v: the number
 */
void out_dec(uint64_t v)
{
	char b[24];
	int i = sizeof(b);

	do {
		b[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	out_mem(b + i, sizeof(b) - i);
}

/**
 * out_hex() - append a number in hex, with "0x", to the output
 * @v: the number
 */
void out_hex(uint64_t v)
{
	char b[24];
	int i = sizeof(b);

	do {
		b[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	b[--i] = 'x';
	b[--i] = '0';
	out_mem(b + i, sizeof(b) - i);
}

/* ---- errors and allocation ------------------------------------------ */

/**
 * die() - report an error and exit
 * @file: the file the error is about, or NULL
 * @where: where in it ("SECTION+0xOFF", see sec_at()), or NULL
 * @fmt: printf() format of the message
 *
 * Any error ends here: the output so far is flushed, then one line on
 * stderr ("lineloc: FILE: WHERE: message"), no partial -o file, exit
 * status 1.
 */
void die(const char *file, const char *where, const char *fmt, ...)
{
	va_list ap;

	if (out)
		out_flush();
	if (out == stdout)
		fflush(stdout);
	if (out_tmp)
		unlink(out_tmp);
	fprintf(stderr, "%s: ", prog);
	if (file)
		fprintf(stderr, "%s: ", file);
	if (where)
		fprintf(stderr, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static char where_buf[512];

/**
 * sec_at() - name a place in a section for die()
 * @sec: the section's name
 * @off: the offset in it
 *
 * Return: "SECTION+0xOFF", in a static buffer that the next call reuses.
 */
const char *sec_at(const char *sec, uint64_t off)
{
	snprintf(where_buf, sizeof(where_buf), "%s+0x%" PRIx64, sec, off);
	return where_buf;
}

/*
 * Allocation failures are one error line like any other.  Sizes taken from
 * the file are bounded by what the file can hold before they get here.
 */

/**
 * xmalloc() - malloc() that dies on failure
 * @n: bytes, 0 allowed
 *
 * Return: the memory, never NULL.
 */
void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(in_path, NULL, "out of memory (%zu bytes)", n);
	return p;
}

/**
 * xrealloc() - realloc() that dies on failure
 * @p: the memory, or NULL
 * @n: its new size in bytes, 0 allowed
 *
 * Return: the memory, never NULL.
 */
void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(in_path, NULL, "out of memory (%zu bytes)", n);
	return p;
}

/**
 * xcalloc() - calloc() that dies on failure
 * @n: number of elements, 0 allowed
 * @size: size of an element
 *
 * Return: the zeroed memory, never NULL.
 */
void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die(in_path, NULL, "out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/**
 * xalloc_array() - allocate an array whose length comes from the file
 * @what: what the elements are, for the error
 * @n: number of elements
 * @size: size of an element
 *
 * On a 32-bit host @n * @size may not fit in a size_t: that is an error
 * naming @what, not a wrapped size.
 *
 * Return: the memory, never NULL.
 */
void *xalloc_array(const char *what, uint64_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		die(in_path, NULL, "%s: %" PRIu64 " entries are too many for this host",
		    what, n);
	return xmalloc((size_t)n * size);
}

/**
 * xstrdup() - strdup() that dies on failure
 * @s: the string
 *
 * Return: a copy of @s.
 */
char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/**
 * xqsort() - qsort() that accepts an empty (NULL) array
 * @base: the array
 * @n: number of elements
 * @size: size of an element
 * @cmp: comparison function, as for qsort()
 */
void xqsort(void *base, size_t n, size_t size,
	    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/**
 * grow_array() - grow an array to hold at least @need elements
 * @p: the array, or NULL
 * @cap: its capacity in elements, updated
 * @need: the number of elements it must hold, more than *@cap
 * @size: the size of an element
 *
 * The slow path of grow(): the capacity doubles, so that appending one
 * element at a time costs amortised constant time.
 *
 * Return: the array, moved.
 */
void *grow_array(void *p, size_t *cap, size_t need, size_t size)
{
	if (need > SIZE_MAX / 2 / size)
		die(in_path, NULL, "out of memory (%zu entries of %zu bytes)",
		    need, size);
	*cap = need < 16 ? 16 : need * 2;
	return xrealloc(p, *cap * size);
}

/**
 * out_open() - send the output to a temporary file beside @path
 * @path: where the output goes once complete (out_close())
 *
 * On an error before out_close(), die() removes the temporary file: there
 * is never a partial @path.
 */
void out_open(const char *path)
{
	size_t n = strlen(path) + 16;
	int fd;

	out_tmp = xmalloc(n);
	snprintf(out_tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(out_tmp);
	if (fd < 0) {
		free(out_tmp);
		out_tmp = NULL;
		die(path, NULL, "cannot create temporary file: %s",
		    strerror(errno));
	}
	out = fdopen(fd, "w");
	if (!out)
		die(path, NULL, "%s", strerror(errno));
}

/**
 * out_close() - flush the output and give it its name
 * @path: the name given to out_open(), or NULL for stdout
 * @sync: fsync() the file before the rename
 */
void out_close(const char *path, int sync)
{
	out_flush();
	if (path) {
		mode_t um = umask(0);

		umask(um);
		if (fflush(out) || fchmod(fileno(out), 0666 & ~um) ||
		    (sync && fsync(fileno(out))) || fclose(out))
			die(path, NULL, "write error: %s", strerror(errno));
		out = NULL;
		if (rename(out_tmp, path))
			die(path, NULL, "rename: %s", strerror(errno));
	} else if (fflush(stdout) || ferror(stdout)) {
		out = NULL;
		die(NULL, NULL, "write error: %s", strerror(errno));
	}
}

static void *libc_alloc(void *arg, size_t size)
{
	(void)arg;
	return malloc(size ? size : 1);
}

static void libc_free(void *arg, void *ptr)
{
	(void)arg;
	free(ptr);
}

const struct lineloc_alloc lineloc_libc_alloc = {
	libc_alloc, libc_free, NULL
};
