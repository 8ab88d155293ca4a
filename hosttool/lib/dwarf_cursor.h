/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dwarf_cursor.h - bounds-checked readers shared by the DWARF decoders
 *
 * A cursor (position, limit) over the caller's buffer; every read checks
 * the bytes left first and, on failure, records the offset (and a value) in
 * struct lineloc_dwarf_ctx and returns a negative LINELOC_DW_E_* code.
 * No allocation, no libc.  Used by dwarf_line.c (the line programs: host
 * tool, fuzz target, kernel) and by units.c, lineloc's reader of unit DIEs
 * and address ranges.
 */
#ifndef DWARF_CURSOR_H
#define DWARF_CURSOR_H

#include <linux/lineloc/dwarf.h>

/* Attribute forms (DWARF 5, 7.5.6); the line programs use a few of them. */
#define DW_FORM_addr			0x01
#define DW_FORM_block2			0x03
#define DW_FORM_block4			0x04
#define DW_FORM_data2			0x05
#define DW_FORM_data4			0x06
#define DW_FORM_data8			0x07
#define DW_FORM_string			0x08
#define DW_FORM_block			0x09
#define DW_FORM_block1			0x0a
#define DW_FORM_data1			0x0b
#define DW_FORM_flag			0x0c
#define DW_FORM_sdata			0x0d
#define DW_FORM_strp			0x0e
#define DW_FORM_udata			0x0f
#define DW_FORM_ref_addr		0x10
#define DW_FORM_ref1			0x11
#define DW_FORM_ref2			0x12
#define DW_FORM_ref4			0x13
#define DW_FORM_ref8			0x14
#define DW_FORM_ref_udata		0x15
#define DW_FORM_indirect		0x16
#define DW_FORM_sec_offset		0x17
#define DW_FORM_exprloc			0x18
#define DW_FORM_flag_present		0x19
#define DW_FORM_strx			0x1a
#define DW_FORM_addrx			0x1b
#define DW_FORM_ref_sup4		0x1c
#define DW_FORM_strp_sup		0x1d
#define DW_FORM_data16			0x1e
#define DW_FORM_line_strp		0x1f
#define DW_FORM_ref_sig8		0x20
#define DW_FORM_implicit_const		0x21
#define DW_FORM_loclistx		0x22
#define DW_FORM_rnglistx		0x23
#define DW_FORM_ref_sup8		0x24
#define DW_FORM_strx1			0x25
#define DW_FORM_strx2			0x26
#define DW_FORM_strx3			0x27
#define DW_FORM_strx4			0x28
#define DW_FORM_addrx1			0x29
#define DW_FORM_addrx2			0x2a
#define DW_FORM_addrx3			0x2b
#define DW_FORM_addrx4			0x2c
#define DW_FORM_GNU_addr_index		0x1f01
#define DW_FORM_GNU_str_index		0x1f02
#define DW_FORM_GNU_ref_alt		0x1f20
#define DW_FORM_GNU_strp_alt		0x1f21

/*
 * The readers are plain static, not inline, so that dwarf_line.c compiles
 * to the same code as when they lived in it; each includer uses them all.
 */

/* A read position and the limit no read may cross (unit or section end). */
struct cursor {
	const u8 *buf;
	u64 pos;
	u64 end;
};

static int fail(struct lineloc_dwarf_ctx *ctx, u64 off, int err, u64 val)
{
	ctx->err_off = off;
	ctx->err_val = val;
	return -err;
}

/* Bytes left before the limit; every read checks it first. */
static inline u64 left(const struct cursor *c)
{
	return c->pos < c->end ? c->end - c->pos : 0;
}

static int read_u8(struct lineloc_dwarf_ctx *ctx, struct cursor *c, u8 *v)
{
	if (left(c) < 1)
		return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, 0);
	*v = c->buf[c->pos++];
	return 0;
}

/* Fixed-size unsigned of @n (1..8) bytes in the object's byte order. */
static int read_un(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		   unsigned int n, u64 *v)
{
	const u8 *p;
	u64 x = 0;
	unsigned int i;

	if (left(c) < n)
		return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, 0);
	p = c->buf + c->pos;
	if (ctx->big_endian)
		for (i = 0; i < n; i++)
			x = (x << 8) | p[i];
	else
		for (i = n; i-- > 0;)
			x = (x << 8) | p[i];
	c->pos += n;
	*v = x;
	return 0;
}

/*
 * ULEB128.  The common case in line programs is one byte (file, column and
 * small advances), so that is tested first.  Bits beyond 64 are dropped
 * rather than shifted (undefined in C); the encoding must still end inside
 * the limit.
 */
static int read_uleb(struct lineloc_dwarf_ctx *ctx, struct cursor *c, u64 *v)
{
	u64 x = 0;
	unsigned int shift = 0;
	u8 b;

	if (left(c) >= 1 && !(c->buf[c->pos] & 0x80)) {
		*v = c->buf[c->pos++];
		return 0;
	}
	do {
		if (left(c) < 1)
			return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, 0);
		b = c->buf[c->pos++];
		if (shift < 64)
			x |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*v = x;
	return 0;
}

/* SLEB128, returned as two's complement in a u64 to keep arithmetic defined. */
static int read_sleb(struct lineloc_dwarf_ctx *ctx, struct cursor *c, u64 *v)
{
	u64 x = 0;
	unsigned int shift = 0;
	u8 b;

	do {
		if (left(c) < 1)
			return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, 0);
		b = c->buf[c->pos++];
		if (shift < 64)
			x |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		x |= ~(u64)0 << shift;
	*v = x;
	return 0;
}

static int skip(struct lineloc_dwarf_ctx *ctx, struct cursor *c, u64 n)
{
	if (left(c) < n)
		return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, 0);
	c->pos += n;
	return 0;
}

/* An inline NUL-terminated string that must end before the limit. */
static int read_cstr(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		     const char **s)
{
	u64 i;

	for (i = c->pos; i < c->end; i++) {
		if (!c->buf[i]) {
			*s = (const char *)c->buf + c->pos;
			c->pos = i + 1;
			return 0;
		}
	}
	return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, 0);
}

/* A string at @off in a string section, checked to be terminated inside it. */
static int str_at(struct lineloc_dwarf_ctx *ctx, u64 where, const u8 *sec,
		  u64 size, u64 off, const char **s)
{
	u64 i;

	if (!sec)
		return fail(ctx, where, LINELOC_DW_E_NO_STR_SECTION, 0);
	if (off >= size)
		return fail(ctx, where, LINELOC_DW_E_STR_OFFSET, off);
	for (i = off; i < size; i++) {
		if (!sec[i]) {
			*s = (const char *)sec + off;
			return 0;
		}
	}
	return fail(ctx, where, LINELOC_DW_E_STR_UNTERMINATED, off);
}

#endif /* DWARF_CURSOR_H */
