// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - lineloc's reader of compilation units: .debug_info,
 * .debug_aranges, .debug_ranges, .debug_rnglists, .debug_addr
 *
 * Each line table belongs to the unit whose DW_AT_stmt_list points at it.
 * That unit's first DIE gives DW_AT_comp_dir, which DWARF 2-4 tables need
 * for directory index 0, and the addresses the unit covers:
 * DW_AT_low_pc/DW_AT_high_pc, or DW_AT_ranges into .debug_ranges (DWARF
 * 2-4) or .debug_rnglists (DWARF 5; DW_FORM_rnglistx through
 * DW_AT_rnglists_base, addresses by index through .debug_addr and
 * DW_AT_addr_base).  A unit that .debug_aranges lists takes its ranges from
 * there instead, as llvm-symbolizer does.
 *
 * Only each unit's first DIE is read: for an executable a few KiB per unit
 * through pread(), never the whole (164 MB in Debian's vmlinux) section.
 * Values are read with the checked readers of dwarf_cursor.h.  Nothing here
 * is an error: a unit that cannot be read is "unreadable" and its line
 * table is kept whole (lineloc reports only .debug_line errors).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "dwarf_cursor.h"
#include "units.h"

#define DW_AT_stmt_list		0x10
#define DW_AT_low_pc		0x11
#define DW_AT_high_pc		0x12
#define DW_AT_comp_dir		0x1b
#define DW_AT_ranges		0x55
#define DW_AT_addr_base		0x73
#define DW_AT_str_offsets_base	0x72
#define DW_AT_rnglists_base	0x74

#define DW_RLE_end_of_list	0x00
#define DW_RLE_base_addressx	0x01
#define DW_RLE_startx_endx	0x02
#define DW_RLE_startx_length	0x03
#define DW_RLE_offset_pair	0x04
#define DW_RLE_base_address	0x05
#define DW_RLE_start_end	0x06
#define DW_RLE_start_length	0x07

/* Unit types (DWARF 5, 7.5.1) whose header has more after the abbrevs. */
#define DW_UT_type		0x02
#define DW_UT_skeleton		0x04
#define DW_UT_split_compile	0x05
#define DW_UT_split_type	0x06

#define UNIT_CHUNK 4096		/* first read of a unit; then up to 1 MiB */
#define UNIT_CHUNK_MAX 0x100000

static void sec_cursor(struct cursor *c, const struct section *s, uint64_t pos)
{
	c->buf = s->data;
	c->pos = pos;
	c->end = s->data_size;
}

/* A string at @off of @s, or NULL (never an error). */
static const char *str_or_null(struct cus *cs, const struct section *s,
			       uint64_t off)
{
	const char *p = NULL;

	if (!s || str_at(&cs->ctx, 0, s->data, s->data_size, off, &p))
		return NULL;
	return p;
}

/* The string at index @index of @cu's string offsets, or NULL. */
static const char *strx_or_null(struct cus *cs, const struct cu *cu,
				uint64_t index)
{
	struct cursor c;
	uint64_t off;

	if (!cs->str_offsets || cu->str_offsets_base == NO_OFFSET ||
	    cu->str_offsets_base > cs->str_offsets->data_size ||
	    index >= (cs->str_offsets->data_size - cu->str_offsets_base) /
		     cu->osz)
		return NULL;
	sec_cursor(&c, cs->str_offsets, cu->str_offsets_base + index * cu->osz);
	if (read_un(&cs->ctx, &c, cu->osz, &off))
		return NULL;
	return str_or_null(cs, cs->str, off);
}

/**
 * unit_value() - read one attribute value
 * @cs: the units
 * @c: at the value, moved past it
 * @cu: the unit of the DIE
 * @form: the attribute's form
 * @implicit: its value for DW_FORM_implicit_const
 * @v: the value, by form class: a reference is a .debug_info offset
 *     (V_REF); a string by index is resolved once the unit's
 *     DW_AT_str_offsets_base is known, else V_SKIP
 *
 * Return: 0, or <0 for a form with no known size or a value cut short.
 */
int unit_value(struct cus *cs, struct cursor *c, const struct cu *cu,
	       uint64_t form, uint64_t implicit, struct val *v)
{
	struct lineloc_dwarf_ctx *ctx = &cs->ctx;
	uint64_t n;
	int err;

	v->kind = V_NUM;
	v->num = 0;
	v->str = NULL;
	for (;;) {
		switch (form) {
		case DW_FORM_addr:
			v->kind = V_ADDR;
			return read_un(ctx, c, cu->asz, &v->num);
		case DW_FORM_addrx: case DW_FORM_GNU_addr_index:
			v->kind = V_INDEX;
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_addrx1: case DW_FORM_addrx2: case DW_FORM_addrx3:
		case DW_FORM_addrx4:
			v->kind = V_INDEX;
			return read_un(ctx, c, (unsigned int)(form - DW_FORM_addrx1 + 1),
				       &v->num);
		case DW_FORM_data1: case DW_FORM_flag:
			return read_un(ctx, c, 1, &v->num);
		case DW_FORM_data2:
			return read_un(ctx, c, 2, &v->num);
		case DW_FORM_data4: case DW_FORM_ref_sup4:
			return read_un(ctx, c, 4, &v->num);
		case DW_FORM_data8: case DW_FORM_ref_sig8:
		case DW_FORM_ref_sup8:
			return read_un(ctx, c, 8, &v->num);
		case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4:
		case DW_FORM_ref8:	/* from the unit's start */
			v->kind = V_REF;
			err = read_un(ctx, c, form == DW_FORM_ref1 ? 1 :
				      form == DW_FORM_ref2 ? 2 :
				      form == DW_FORM_ref4 ? 4 : 8, &v->num);
			v->num += cu->offset;
			return err;
		case DW_FORM_ref_udata:
			v->kind = V_REF;
			err = read_uleb(ctx, c, &v->num);
			v->num += cu->offset;
			return err;
		case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3:
		case DW_FORM_strx4:
			err = read_un(ctx, c, (unsigned int)(form - DW_FORM_strx1 + 1),
				      &v->num);
			v->str = err ? NULL : strx_or_null(cs, cu, v->num);
			v->kind = v->str ? V_STR : V_SKIP;
			return err;
		case DW_FORM_sdata:
			return read_sleb(ctx, c, &v->num);
		case DW_FORM_udata:
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_strx: case DW_FORM_GNU_str_index:
			err = read_uleb(ctx, c, &v->num);
			v->str = err ? NULL : strx_or_null(cs, cu, v->num);
			v->kind = v->str ? V_STR : V_SKIP;
			return err;
		case DW_FORM_loclistx:
			v->kind = V_SKIP;
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_rnglistx:
			v->kind = V_INDEX;
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_sec_offset:
			return read_un(ctx, c, cu->osz, &v->num);
		case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt:
		case DW_FORM_GNU_strp_alt:
			v->kind = V_SKIP;
			return read_un(ctx, c, cu->osz, &v->num);
		case DW_FORM_strp: case DW_FORM_line_strp:
			err = read_un(ctx, c, cu->osz, &n);
			if (err)
				return err;
			v->kind = V_STR;
			v->str = str_or_null(cs, form == DW_FORM_strp ? cs->str :
					     cs->lstr, n);
			return 0;
		case DW_FORM_string:
			v->kind = V_STR;
			return read_cstr(ctx, c, &v->str);
		case DW_FORM_ref_addr:	/* from the section's start */
			v->kind = V_REF;
			return read_un(ctx, c, cu->version == 2 ? cu->asz : cu->osz,
				       &v->num);
		case DW_FORM_data16:
			v->kind = V_SKIP;
			return skip(ctx, c, 16);
		case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4:
			v->kind = V_SKIP;
			err = read_un(ctx, c, form == DW_FORM_block1 ? 1 :
				      form == DW_FORM_block2 ? 2 : 4, &n);
			return err ? err : skip(ctx, c, n);
		case DW_FORM_block: case DW_FORM_exprloc:
			v->kind = V_SKIP;
			err = read_uleb(ctx, c, &n);
			return err ? err : skip(ctx, c, n);
		case DW_FORM_flag_present:
			v->num = 1;
			return 0;
		case DW_FORM_implicit_const:
			v->num = implicit;
			return 0;
		case DW_FORM_indirect:
			err = read_uleb(ctx, c, &form);
			if (err)
				return err;
			if (form == DW_FORM_indirect ||
			    form == DW_FORM_implicit_const)
				return -LINELOC_DW_E_FORM;
			continue;
		default:
			return -LINELOC_DW_E_FORM;
		}
	}
}

/* Find abbreviation @code in the table at @off; leave @a at its attributes. */
static int find_abbrev(struct cus *cs, uint64_t off, uint64_t code,
		       struct cursor *a)
{
	struct lineloc_dwarf_ctx *ctx = &cs->ctx;
	uint64_t ac, v, name, form;
	int err;

	if (!cs->abbrev)
		return -1;
	sec_cursor(a, cs->abbrev, off);
	for (;;) {
		err = read_uleb(ctx, a, &ac);
		if (err || !ac)
			return -1;
		err = read_uleb(ctx, a, &v);		/* tag */
		if (!err)
			err = skip(ctx, a, 1);		/* children */
		if (err)
			return -1;
		if (ac == code)
			return 0;
		do {
			err = read_uleb(ctx, a, &name);
			if (!err)
				err = read_uleb(ctx, a, &form);
			if (!err && form == DW_FORM_implicit_const)
				err = read_sleb(ctx, a, &v);
			if (err)
				return -1;
		} while (name || form);
	}
}

/*
 * The header and first DIE of the unit whose first @n bytes are at @buf
 * (@total: the unit's size).  Return 0, -1 if it cannot be read, or 1 if
 * it was cut short by @n < @total (read more and try again).
 */
static int read_unit_die(struct cus *cs, struct cu *cu, const uint8_t *buf,
			 uint64_t n, uint64_t total)
{
	struct lineloc_dwarf_ctx *ctx = &cs->ctx;
	struct cursor c = { buf, 0, n < total ? n : total }, a;
	uint64_t v, abbr_off, code, name, form, implicit;
	uint8_t ut = 1;
	struct val val;
	int err;

	err = read_un(ctx, &c, 4, &v);
	if (!err && v == 0xffffffff)
		err = read_un(ctx, &c, 8, &v);
	if (!err)
		err = read_un(ctx, &c, 2, &v);
	if (err)
		goto fail;
	if (v < 2 || v > 5)
		return -1;
	cu->version = (uint8_t)v;
	if (cu->version >= 5) {
		err = read_u8(ctx, &c, &ut);
		if (!err)
			err = read_u8(ctx, &c, &cu->asz);
		if (!err)
			err = read_un(ctx, &c, cu->osz, &abbr_off);
		if (!err && (ut == DW_UT_skeleton || ut == DW_UT_split_compile))
			err = skip(ctx, &c, 8);		/* dwo_id */
		else if (!err && (ut == DW_UT_type || ut == DW_UT_split_type))
			err = skip(ctx, &c, 8 + cu->osz); /* signature, offset */
	} else {
		err = read_un(ctx, &c, cu->osz, &abbr_off);
		if (!err)
			err = read_u8(ctx, &c, &cu->asz);
	}
	if (!err)
		err = c.pos < UINT32_MAX ? 0 : -LINELOC_DW_E_TRUNCATED;
	if (!err) {
		cu->abbrev_off = abbr_off;
		cu->die_off = (uint32_t)c.pos;
		err = read_uleb(ctx, &c, &code);
	}
	if (err)
		goto fail;
	if (!code || cu->asz < 1 || cu->asz > 8 ||
	    find_abbrev(cs, abbr_off, code, &a))
		return -1;
	for (;;) {
		implicit = 0;
		if (read_uleb(ctx, &a, &name) || read_uleb(ctx, &a, &form) ||
		    (form == DW_FORM_implicit_const &&
		     read_sleb(ctx, &a, &implicit)))
			return -1;
		if (!name && !form)
			return 0;
		err = unit_value(cs, &c, cu, form, implicit, &val);
		if (err)
			goto fail;
		switch (name) {
		case DW_AT_stmt_list:
			if (val.kind == V_NUM)
				cu->stmt_list = val.num;
			break;
		case DW_AT_comp_dir:
			if (val.str && !cu->comp_dir)
				cu->comp_dir = xstrdup(val.str);
			break;
		case DW_AT_low_pc:
			cu->has_low = val.kind == V_ADDR || val.kind == V_INDEX;
			cu->low_index = val.kind == V_INDEX;
			cu->low = val.num;
			break;
		case DW_AT_high_pc:
			cu->has_high = val.kind == V_ADDR || val.kind == V_INDEX ||
				       val.kind == V_NUM;
			cu->high_kind = (uint8_t)val.kind;
			cu->high = val.num;
			break;
		case DW_AT_ranges:
			cu->has_ranges = val.kind == V_NUM || val.kind == V_INDEX;
			cu->ranges_index = val.kind == V_INDEX;
			cu->ranges = val.num;
			break;
		case DW_AT_addr_base:
			if (val.kind == V_NUM)
				cu->addr_base = val.num;
			break;
		case DW_AT_rnglists_base:
			if (val.kind == V_NUM)
				cu->rnglists_base = val.num;
			break;
		case DW_AT_str_offsets_base:
			if (val.kind == V_NUM)
				cu->str_offsets_base = val.num;
			break;
		}
	}
fail:
	return err == -LINELOC_DW_E_TRUNCATED && n < total ? 1 : -1;
}

static int cmp_cu_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->cu != y->cu)
		return x->cu < y->cu ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

static void add_cu_range(struct cus *cs, size_t cu, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return;
	cs->r = grow(cs->r, &cs->rcap, cs->nr + 1, sizeof(*cs->r));
	cs->r[cs->nr].lo = lo;
	cs->r[cs->nr].hi = hi;
	cs->r[cs->nr++].cu = cu;
}

/* The unit that contains .debug_info offset @off, or -1. */
static long cu_at(const struct cus *cs, uint64_t off)
{
	size_t lo;

	LOWER_BOUND(lo, cs->n, cs->cu[i].next <= off);
	return lo < cs->n && cs->cu[lo].offset <= off ? (long)lo : -1;
}

/*
 * .debug_aranges: sets of (address, length) per unit.  Like llvm-symbolizer,
 * stop at the first set that cannot be read; the sets before it stand.
 */
static void read_aranges(struct elf *e, struct cus *cs)
{
	struct section *s = elf_load(e, ".debug_aranges", 0, 0);
	struct lineloc_dwarf_ctx *ctx = &cs->ctx;
	uint64_t off = 0, len, v, cu_off, a, l, hdr;
	uint8_t asz, seg;
	struct cursor c;
	long cu;

	while (s && off < s->data_size) {
		unsigned int osz = 4;

		sec_cursor(&c, s, off);
		if (read_un(ctx, &c, 4, &len))
			return;
		if (len == 0xffffffff) {
			osz = 8;
			if (read_un(ctx, &c, 8, &len))
				return;
		} else if (len >= 0xfffffff0) {
			return;
		}
		if (len > left(&c))
			return;
		c.end = c.pos + len;
		if (read_un(ctx, &c, 2, &v) || v < 2 || v > 3 ||
		    read_un(ctx, &c, osz, &cu_off) || read_u8(ctx, &c, &asz) ||
		    read_u8(ctx, &c, &seg) || asz < 1 || asz > 8 || seg)
			return;
		/* The first tuple is aligned to twice the address size. */
		hdr = c.pos - off;
		hdr = (hdr + 2u * asz - 1) / (2u * asz) * (2u * asz);
		if (hdr > c.end - off)
			return;
		c.pos = off + hdr;
		cu = cu_at(cs, cu_off);
		if (cu >= 0 && cs->cu[cu].offset == cu_off)
			cs->cu[cu].listed = 1;
		while (left(&c) >= 2u * asz) {
			read_un(ctx, &c, asz, &a);
			read_un(ctx, &c, asz, &l);
			if (!a && !l)
				break;
			if (cu >= 0 && a + l > a)
				add_cu_range(cs, (size_t)cu, a, a + l);
		}
		off = c.end;
	}
}

/**
 * unit_addr() - an address by index (DW_FORM_addrx and the like)
 * @cs: the units, their lists loaded
 * @cu: the unit, whose DW_AT_addr_base the index is from
 * @index: the index
 * @a: the address
 *
 * Return: 0, or -1 if .debug_addr has no such entry.
 */
int unit_addr(struct cus *cs, const struct cu *cu, uint64_t index, uint64_t *a)
{
	struct cursor c;

	if (!cs->addr || cu->addr_base == NO_OFFSET ||
	    cu->addr_base > cs->addr->data_size ||
	    index >= (cs->addr->data_size - cu->addr_base) / cu->asz)
		return -1;
	sec_cursor(&c, cs->addr, cu->addr_base + index * cu->asz);
	return read_un(&cs->ctx, &c, cu->asz, a) ? -1 : 0;
}

/* A DWARF 2-4 range list at @off of .debug_ranges. */
static int read_ranges(struct cus *cs, const struct cu *cu, uint64_t off,
		       uint64_t base, range_fn fn, void *arg)
{
	uint64_t a, b, top = cu->asz >= 8 ? UINT64_MAX :
			    ((uint64_t)1 << (8 * cu->asz)) - 1;
	struct cursor c;

	if (!cs->ranges || off >= cs->ranges->data_size)
		return -1;
	sec_cursor(&c, cs->ranges, off);
	for (;;) {
		if (read_un(&cs->ctx, &c, cu->asz, &a) ||
		    read_un(&cs->ctx, &c, cu->asz, &b))
			return -1;
		if (!a && !b)
			return 0;
		if (a == top)
			base = b;
		else if (base + a < base + b)
			fn(arg, base + a, base + b);
	}
}

/* A DWARF 5 range list in .debug_rnglists (DW_RLE_* entries). */
static int read_rnglist(struct cus *cs, const struct cu *cu, uint64_t off,
			int is_index, uint64_t base, range_fn fn, void *arg)
{
	struct lineloc_dwarf_ctx *ctx = &cs->ctx;
	uint64_t x, y, a, b;
	struct cursor c;
	uint8_t kind;

	if (!cs->rnglists)
		return -1;
	if (is_index) {
		/* Offsets after DW_AT_rnglists_base, relative to it. */
		if (cu->rnglists_base == NO_OFFSET ||
		    cu->rnglists_base > cs->rnglists->data_size ||
		    off >= (cs->rnglists->data_size - cu->rnglists_base) /
			   cu->osz)
			return -1;
		sec_cursor(&c, cs->rnglists, cu->rnglists_base + off * cu->osz);
		if (read_un(ctx, &c, cu->osz, &off))
			return -1;
		off += cu->rnglists_base;
	}
	if (off >= cs->rnglists->data_size)
		return -1;
	sec_cursor(&c, cs->rnglists, off);
	for (;;) {
		a = 0;
		b = 0;
		if (read_u8(ctx, &c, &kind))
			return -1;
		switch (kind) {
		case DW_RLE_end_of_list:
			return 0;
		case DW_RLE_base_addressx:
			if (read_uleb(ctx, &c, &x) || unit_addr(cs, cu, x, &base))
				return -1;
			break;
		case DW_RLE_startx_endx:
			if (read_uleb(ctx, &c, &x) || read_uleb(ctx, &c, &y) ||
			    unit_addr(cs, cu, x, &a) || unit_addr(cs, cu, y, &b))
				return -1;
			break;
		case DW_RLE_startx_length:
			if (read_uleb(ctx, &c, &x) || read_uleb(ctx, &c, &y) ||
			    unit_addr(cs, cu, x, &a))
				return -1;
			b = a + y;
			break;
		case DW_RLE_offset_pair:
			if (read_uleb(ctx, &c, &x) || read_uleb(ctx, &c, &y))
				return -1;
			a = base + x;
			b = base + y;
			break;
		case DW_RLE_base_address:
			if (read_un(ctx, &c, cu->asz, &base))
				return -1;
			break;
		case DW_RLE_start_end:
			if (read_un(ctx, &c, cu->asz, &a) ||
			    read_un(ctx, &c, cu->asz, &b))
				return -1;
			break;
		case DW_RLE_start_length:
			if (read_un(ctx, &c, cu->asz, &a) ||
			    read_uleb(ctx, &c, &y))
				return -1;
			b = a + y;
			break;
		default:
			return -1;
		}
		if (a < b)
			fn(arg, a, b);
	}
}

/**
 * unit_ranges() - read a range list of a DIE of a unit
 * @cs: the units, their lists loaded
 * @cu: the unit
 * @list: the DW_AT_ranges value: an offset in .debug_ranges (DWARF 2-4) or
 *	  .debug_rnglists (DWARF 5), or an index (DW_FORM_rnglistx)
 * @is_index: whether @list is an index
 * @base: the base address: the unit's DW_AT_low_pc, or 0
 * @fn: called with each non-empty range, in list order
 * @arg: its first argument
 *
 * Return: 0, or -1 for a list that cannot be read (@fn may have been
 * called for the ranges before the point where it could not).
 */
int unit_ranges(struct cus *cs, const struct cu *cu, uint64_t list,
		int is_index, uint64_t base, range_fn fn, void *arg)
{
	if (cu->version >= 5)
		return read_rnglist(cs, cu, list, is_index, base, fn, arg);
	return is_index ? -1 : read_ranges(cs, cu, list, base, fn, arg);
}

struct cu_ranges_arg {
	struct cus *cs;
	size_t cu;
};

static void add_unit_range(void *arg, uint64_t lo, uint64_t hi)
{
	struct cu_ranges_arg *r = arg;

	add_cu_range(r->cs, r->cu, lo, hi);
}

/*
 * The ranges of a unit that .debug_aranges does not list, from its DIE:
 * DW_AT_low_pc with DW_AT_high_pc (an address, or a length from low_pc),
 * else DW_AT_ranges, based at DW_AT_low_pc if there is one.
 */
static enum cu_how die_ranges(struct cus *cs, size_t i)
{
	struct cu *cu = &cs->cu[i];
	struct cu_ranges_arg arg = { cs, i };
	uint64_t low = 0, high;
	size_t nr = cs->nr;
	int ok;

	if (cu->has_low && cu->low_index && unit_addr(cs, cu, cu->low, &low))
		return CU_UNREADABLE;
	if (cu->has_low && !cu->low_index)
		low = cu->low;
	if (cu->has_low && cu->has_high) {
		high = cu->high;
		if (cu->high_kind == V_INDEX && unit_addr(cs, cu, high, &high))
			return CU_UNREADABLE;
		if (cu->high_kind == V_NUM)
			high += low;
		add_cu_range(cs, i, low, high);
		return CU_DIE;
	}
	if (!cu->has_ranges)
		return CU_NONE;
	ok = !unit_ranges(cs, cu, cu->ranges, cu->ranges_index, low,
			  add_unit_range, &arg);
	if (ok)
		return CU_DIE;
	cs->nr = nr;		/* a list that cannot be read counts for nothing */
	return CU_UNREADABLE;
}

/**
 * read_units() - read the units of .debug_info and their address ranges
 * @e: the file
 * @cs: the units, filled in
 *
 * Every unit's header and first DIE, then the address ranges:
 * .debug_aranges first, the DIEs for the units it does not list.  Nothing
 * here is an error but a failed read of the file: a unit that cannot be
 * read is CU_UNREADABLE, and @cs->complete says whether every unit was read
 * as far as its DW_AT_stmt_list.  Without .debug_info @cs has no units.
 */
void read_units(struct elf *e, struct cus *cs)
{
	struct section *info;
	uint64_t off = 0, size;
	uint8_t chunk[UNIT_CHUNK];
	struct cursor c;
	int i, whole;
	size_t k;

	memset(cs, 0, sizeof(*cs));
	cs->ctx.big_endian = e->big;
	cs->complete = 1;
	i = elf_find(e, ".debug_info");
	if (i < 0)
		return;
	cs->abbrev = elf_load(e, ".debug_abbrev", 0, 0);
	cs->str = elf_load(e, ".debug_str", 0, 0);
	cs->lstr = elf_load(e, ".debug_line_str", 0, 0);
	info = &e->sec[i];
	whole = e->type == ET_REL || (info->flags & SHF_COMPRESSED);
	if (whole)
		info = elf_load(e, ".debug_info", 0, 0);
	else
		elf_check_in_file(e, (uint32_t)i, ".debug_info");
	size = whole ? info->data_size : info->size;

	while (off < size) {
		uint64_t len, total, n = size - off;
		uint8_t *big = NULL;
		const uint8_t *p;
		unsigned int hl = 4;
		struct cu *cu;
		int rc;

		/* The unit length, to know where the next one starts. */
		if (n < 4)
			break;
		if (whole) {
			p = info->data + off;
		} else {
			n = n < sizeof(chunk) ? n : sizeof(chunk);
			elf_read_at(e, info->off + off, chunk, n, ".debug_info");
			p = chunk;
		}
		c.buf = p;
		c.pos = 0;
		c.end = n;
		read_un(&cs->ctx, &c, 4, &len);		/* n >= 4 */
		if (len == 0xffffffff) {
			if (n < 12)
				break;
			hl = 12;
			read_un(&cs->ctx, &c, 8, &len);
		} else if (len >= 0xfffffff0) {
			break;
		}
		if (len > size - off - hl)
			break;
		total = hl + len;
		cs->cu = grow(cs->cu, &cs->cap, cs->n + 1, sizeof(*cs->cu));
		cu = &cs->cu[cs->n++];
		memset(cu, 0, sizeof(*cu));
		cu->offset = off;
		cu->next = off + total;
		cu->osz = hl == 12 ? 8 : 4;
		cu->stmt_list = NO_OFFSET;
		cu->addr_base = NO_OFFSET;
		cu->rnglists_base = NO_OFFSET;
		cu->str_offsets_base = NO_OFFSET;
		rc = read_unit_die(cs, cu, p, n, total);
		if (rc > 0) {
			/* The first DIE is longer than the chunk: read more. */
			n = total < UNIT_CHUNK_MAX ? total : UNIT_CHUNK_MAX;
			big = xmalloc((size_t)n);
			elf_read_at(e, info->off + off, big, n, ".debug_info");
			rc = read_unit_die(cs, cu, big, n, total);
			free(big);
		}
		if (rc) {
			cu->how = CU_UNREADABLE;
			if (cu->stmt_list == NO_OFFSET)
				cs->complete = 0;
		}
		off += total;
	}
	if (off < size)
		cs->complete = 0;	/* a unit length that cannot be right */

	read_aranges(e, cs);
	for (k = 0; k < cs->n; k++) {
		struct cu *cu = &cs->cu[k];

		if (cu->listed) {
			cu->how = CU_ARANGES;
			continue;
		}
		if (cu->how == CU_UNREADABLE)
			continue;
		/* Only for units that .debug_aranges does not list. */
		units_load_lists(e, cs);
		cu->how = die_ranges(cs, k);
	}
	xqsort(cs->r, cs->nr, sizeof(*cs->r), cmp_cu_range);
}

/**
 * units_load_lists() - load the sections that DIEs point into
 * @e: the file
 * @cs: its units
 *
 * .debug_addr, .debug_ranges, .debug_rnglists and .debug_str_offsets, once.
 */
void units_load_lists(struct elf *e, struct cus *cs)
{
	if (cs->lists_loaded)
		return;
	cs->lists_loaded = 1;
	cs->addr = elf_load(e, ".debug_addr", 0, 0);
	cs->ranges = elf_load(e, ".debug_ranges", 0, 0);
	cs->rnglists = elf_load(e, ".debug_rnglists", 0, 0);
	cs->str_offsets = elf_load(e, ".debug_str_offsets", 0, 0);
}

static const struct cus *sort_cus;

static int cmp_by_stmt(const void *a, const void *b)
{
	const struct cu *x = &sort_cus->cu[*(const size_t *)a];
	const struct cu *y = &sort_cus->cu[*(const size_t *)b];

	if (x->stmt_list != y->stmt_list)
		return x->stmt_list < y->stmt_list ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/**
 * units_by_stmt() - the units in the order of their line tables
 * @cs: the units
 *
 * Return: an array of the @cs->n unit indexes sorted by DW_AT_stmt_list,
 * then by offset.
 */
size_t *units_by_stmt(const struct cus *cs)
{
	size_t *ix = xalloc_array("units", cs->n, sizeof(*ix)), k;

	for (k = 0; k < cs->n; k++)
		ix[k] = k;
	sort_cus = cs;
	xqsort(ix, cs->n, sizeof(*ix), cmp_by_stmt);
	return ix;
}

/**
 * first_for_stmt() - find the units of a line table
 * @cs: the units
 * @ix: their indexes, from units_by_stmt()
 * @stmt: the .debug_line offset of the line table
 *
 * Return: the position in @ix of the first unit whose DW_AT_stmt_list is
 * @stmt; the others follow it.  @cs->n if there is none.
 */
size_t first_for_stmt(const struct cus *cs, const size_t *ix, uint64_t stmt)
{
	size_t lo;

	LOWER_BOUND(lo, cs->n, cs->cu[ix[i]].stmt_list < stmt);
	return lo;
}

/**
 * first_range() - find the address ranges of a unit
 * @cs: the units
 * @cu: the unit's index
 *
 * Return: the position in @cs->r of the first range of unit @cu; the
 * others follow it.
 */
size_t first_range(const struct cus *cs, size_t cu)
{
	size_t lo;

	LOWER_BOUND(lo, cs->nr, cs->r[i].cu < cu);
	return lo;
}
