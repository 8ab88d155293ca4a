// SPDX-License-Identifier: GPL-2.0
/*
 * inlines.c - lineloc's reader of inlined subroutines: .debug_info's
 * DW_TAG_subprogram and DW_TAG_inlined_subroutine DIEs with code
 *
 * Every DIE of every unit is walked.  A subprogram or inlined subroutine
 * with addresses (DW_AT_low_pc/DW_AT_high_pc, or DW_AT_ranges) is a node;
 * an inlined subroutine's parent is the nearest such DIE around it, and
 * its call site (DW_AT_call_file, DW_AT_call_line) is a line of that
 * parent.  A node is named by DW_AT_name, or through DW_AT_abstract_origin
 * and DW_AT_specification (across units too) by the DIE they lead to.
 *
 * The ranges of all nodes are then flattened into segments: sorted
 * addresses where the innermost node changes.  The answer at an address is
 * the node of the segment that holds it, then its parents.
 *
 * A unit whose DIEs cannot be read (a form of unknown size, an abbreviation
 * that does not exist, a nesting over MAX_NEST) keeps the nodes read before
 * the point where it stopped and is counted; nothing here is an error but
 * a failed read of the file.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
/* the checked readers: this file needs only some of them */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "dwarf_cursor.h"
#pragma GCC diagnostic pop
#include "inlines.h"

#define DW_TAG_inlined_subroutine	0x1d
#define DW_TAG_subprogram		0x2e

#define DW_AT_name		0x03
#define DW_AT_low_pc		0x11
#define DW_AT_high_pc		0x12
#define DW_AT_abstract_origin	0x31
#define DW_AT_specification	0x47
#define DW_AT_ranges		0x55
#define DW_AT_call_file		0x58
#define DW_AT_call_line		0x59

#define MAX_NEST 512		/* DIE nesting deeper than this: unreadable */
#define MAX_HOPS 8		/* origin -> specification -> ... */

struct inl_abbrev {
	uint64_t code, tag;
	uint8_t children;
	size_t first, n;	/* its attributes in abbrevs.attr */
};

struct inl_abbrev_attr {
	uint64_t name, form, implicit;
};

struct inl_abbrevs {
	uint64_t off;		/* of the table read, NO_OFFSET: none */
	struct inl_abbrev *a;
	size_t n, cap;
	struct inl_abbrev_attr *attr;
	size_t nattr, acap;
	int sorted_dense;	/* a[k].code == k + 1 */
};

/* A subprogram DIE: its name, or where its name is. */
struct inl_named {
	uint64_t off;
	const char *name;
	uint64_t ref;		/* NO_OFFSET: none */
};

struct inl_range {
	uint64_t lo, hi;
	uint32_t node, depth;
};

struct inl_reader {
	struct tables *t;
	struct cus *cs;
	struct inlines *in;
	const struct cu *cu;
	struct inl_abbrevs ab;
	struct inl_named *named;
	size_t nnamed, ncap;
	struct inl_range *r;
	size_t nr, rcap;
	uint32_t node;		/* the node whose ranges are being read */
	uint64_t tomb;		/* the unit's largest address: a tombstone */
};

static int inl_cmp_abbrev(const void *a, const void *b)
{
	const struct inl_abbrev *x = a, *y = b;

	return x->code < y->code ? -1 : x->code > y->code;
}

/* The abbreviation table at @off of .debug_abbrev; 0 or -1. */
static int inl_load_abbrevs(struct inl_reader *rd, uint64_t off)
{
	struct lineloc_dwarf_ctx *ctx = &rd->cs->ctx;
	struct inl_abbrevs *ab = &rd->ab;
	uint64_t code, name, form, implicit;
	struct cursor c;
	size_t k;

	if (ab->off == off)
		return 0;
	ab->off = NO_OFFSET;
	ab->n = 0;
	ab->nattr = 0;
	if (!rd->cs->abbrev || off >= rd->cs->abbrev->data_size)
		return -1;
	c.buf = rd->cs->abbrev->data;
	c.pos = off;
	c.end = rd->cs->abbrev->data_size;
	for (;;) {
		struct inl_abbrev *a;

		if (read_uleb(ctx, &c, &code))
			return -1;
		if (!code)
			break;
		ab->a = grow(ab->a, &ab->cap, ab->n + 1, sizeof(*ab->a));
		a = &ab->a[ab->n++];
		a->code = code;
		a->first = ab->nattr;
		if (read_uleb(ctx, &c, &a->tag) || read_u8(ctx, &c, &a->children))
			return -1;
		for (;;) {
			implicit = 0;
			if (read_uleb(ctx, &c, &name) || read_uleb(ctx, &c, &form) ||
			    (form == DW_FORM_implicit_const &&
			     read_sleb(ctx, &c, &implicit)))
				return -1;
			if (!name && !form)
				break;
			ab->attr = grow(ab->attr, &ab->acap, ab->nattr + 1,
					sizeof(*ab->attr));
			ab->attr[ab->nattr].name = name;
			ab->attr[ab->nattr].form = form;
			ab->attr[ab->nattr++].implicit = implicit;
		}
		a->n = ab->nattr - a->first;
	}
	xqsort(ab->a, ab->n, sizeof(*ab->a), inl_cmp_abbrev);
	ab->sorted_dense = 1;
	for (k = 0; k < ab->n; k++)
		if (ab->a[k].code != k + 1)
			ab->sorted_dense = 0;
	ab->off = off;
	return 0;
}

static const struct inl_abbrev *inl_find_abbrev(const struct inl_abbrevs *ab,
						uint64_t code)
{
	size_t lo;

	if (ab->sorted_dense)
		return code && code <= ab->n ? &ab->a[code - 1] : NULL;
	LOWER_BOUND(lo, ab->n, ab->a[i].code < code);
	return lo < ab->n && ab->a[lo].code == code ? &ab->a[lo] : NULL;
}

static void inl_add_range(void *arg, uint64_t lo, uint64_t hi)
{
	struct inl_reader *rd = arg;

	/* Code that was discarded at link time starts at 0 or a tombstone. */
	if (!lo || lo >= rd->tomb - 1)
		return;
	rd->r = grow(rd->r, &rd->rcap, rd->nr + 1, sizeof(*rd->r));
	rd->r[rd->nr].lo = lo;
	rd->r[rd->nr].hi = hi;
	rd->r[rd->nr].node = rd->node;
	rd->r[rd->nr++].depth = rd->in->node[rd->node].depth;
}

/* What one DIE says that matters here. */
struct inl_die {
	const char *name;
	uint64_t ref;
	uint64_t low, high, ranges, call_file, call_line;
	uint8_t has_low, low_index, has_high, high_kind, has_ranges;
	uint8_t ranges_index;
};

/* The line table of unit @cu: its index in @t->units, or -1. */
static long inl_line_table(const struct tables *t, const struct cu *cu)
{
	size_t lo;

	if (cu->stmt_list == NO_OFFSET)
		return -1;
	LOWER_BOUND(lo, t->nunits, t->units[i].h.offset < cu->stmt_list);
	return lo < t->nunits && t->units[lo].h.offset == cu->stmt_list ?
	       (long)lo : -1;
}

/* A node for @d, the DIE at @off of tag @tag inside node @parent. */
static void inl_add_node(struct inl_reader *rd, const struct inl_die *d,
			 uint64_t off, uint64_t tag, uint32_t parent, long lt,
			 uint64_t base)
{
	struct inlines *in = rd->in;
	struct inl_node *n;
	uint64_t low = d->low, high = d->high;
	size_t before = rd->nr;

	if (in->n >= INL_NONE - 1)
		die(rd->t->elf.path, ".debug_info", "too many functions");
	in->node = grow(in->node, &in->cap, in->n + 1, sizeof(*in->node));
	n = &in->node[in->n];
	memset(n, 0, sizeof(*n));
	n->name = d->name;
	n->origin = d->name ? NO_OFFSET : d->ref != NO_OFFSET ? d->ref : off;
	n->call_file = NOFILE;
	if (tag == DW_TAG_inlined_subroutine) {
		n->parent = parent;
		n->depth = parent == INL_NONE ? 1 : in->node[parent].depth + 1;
		n->call_line = (uint32_t)d->call_line;
		if (lt >= 0 && d->call_file < rd->t->units[lt].nfiles)
			n->call_file = rd->t->units[lt].files[d->call_file];
		in->inlined++;
	} else {
		n->parent = INL_NONE;
	}
	if (n->depth > in->max_depth)
		in->max_depth = n->depth;
	rd->node = (uint32_t)in->n++;
	if (d->has_low && d->low_index && unit_addr(rd->cs, rd->cu, low, &low))
		return;
	if (d->has_low && d->has_high) {
		if (d->high_kind == V_INDEX &&
		    unit_addr(rd->cs, rd->cu, high, &high))
			return;
		if (d->high_kind == V_NUM)
			high += low;
		if (low < high)
			inl_add_range(rd, low, high);
	} else if (d->has_ranges) {
		if (unit_ranges(rd->cs, rd->cu, d->ranges, d->ranges_index,
				base, inl_add_range, rd))
			rd->nr = before;
	}
	in->nranges += rd->nr - before;
}

/* Walk the DIEs of unit @k; 0, or -1 where it stopped. */
static int inl_read_unit(struct inl_reader *rd, size_t k,
			 const struct section *info)
{
	struct cus *cs = rd->cs;
	struct lineloc_dwarf_ctx *ctx = &cs->ctx;
	const struct cu *cu = &cs->cu[k];
	uint32_t stack[MAX_NEST];
	uint64_t base = 0, code;
	long lt = inl_line_table(rd->t, cu);
	size_t nest = 0;
	struct cursor c;
	size_t j;

	rd->cu = cu;
	rd->tomb = cu->asz >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * cu->asz)) - 1;
	if (cu->how == CU_UNREADABLE || cu->next > info->data_size ||
	    inl_load_abbrevs(rd, cu->abbrev_off))
		return -1;
	if (cu->has_low && !cu->low_index)
		base = cu->low;
	else if (cu->has_low && unit_addr(cs, cu, cu->low, &base))
		base = 0;
	c.buf = info->data;
	c.pos = cu->offset + cu->die_off;
	c.end = cu->next;
	while (c.pos < c.end) {
		const struct inl_abbrev *a;
		uint64_t off = c.pos;
		uint32_t parent = nest ? stack[nest - 1] : INL_NONE;
		struct inl_die d;

		if (read_uleb(ctx, &c, &code))
			return -1;
		if (!code) {		/* the end of a list of children */
			if (nest)
				nest--;
			continue;
		}
		a = inl_find_abbrev(&rd->ab, code);
		if (!a)
			return -1;
		memset(&d, 0, sizeof(d));
		d.ref = NO_OFFSET;
		for (j = a->first; j < a->first + a->n; j++) {
			const struct inl_abbrev_attr *at = &rd->ab.attr[j];
			struct val v;

			if (unit_value(cs, &c, cu, at->form, at->implicit, &v))
				return -1;
			switch (at->name) {
			case DW_AT_name:
				if (v.kind == V_STR)
					d.name = v.str;
				break;
			case DW_AT_abstract_origin:
			case DW_AT_specification:
				if (v.kind == V_REF)
					d.ref = v.num;
				break;
			case DW_AT_low_pc:
				d.has_low = v.kind == V_ADDR || v.kind == V_INDEX;
				d.low_index = v.kind == V_INDEX;
				d.low = v.num;
				break;
			case DW_AT_high_pc:
				d.has_high = v.kind == V_ADDR || v.kind == V_INDEX ||
					     v.kind == V_NUM;
				d.high_kind = (uint8_t)v.kind;
				d.high = v.num;
				break;
			case DW_AT_ranges:
				d.has_ranges = v.kind == V_NUM || v.kind == V_INDEX;
				d.ranges_index = v.kind == V_INDEX;
				d.ranges = v.num;
				break;
			case DW_AT_call_file:
				if (v.kind == V_NUM)
					d.call_file = v.num;
				break;
			case DW_AT_call_line:
				if (v.kind == V_NUM)
					d.call_line = v.num > UINT32_MAX ?
						      UINT32_MAX : v.num;
				break;
			}
		}
		if (a->tag == DW_TAG_subprogram) {
			rd->named = grow(rd->named, &rd->ncap, rd->nnamed + 1,
					 sizeof(*rd->named));
			rd->named[rd->nnamed].off = off;
			rd->named[rd->nnamed].name = d.name;
			rd->named[rd->nnamed++].ref = d.ref;
		}
		if ((a->tag == DW_TAG_subprogram ||
		     a->tag == DW_TAG_inlined_subroutine) &&
		    ((d.has_low && d.has_high) || d.has_ranges)) {
			inl_add_node(rd, &d, off, a->tag, parent, lt, base);
			parent = rd->node;
		}
		if (a->children) {
			if (nest == MAX_NEST)
				return -1;
			stack[nest++] = parent;
		}
	}
	return 0;
}

/* The name of the DIE at @off, through its origin or specification. */
static const char *inl_name_at(const struct inl_reader *rd, uint64_t off)
{
	int hops;

	for (hops = 0; hops < MAX_HOPS && off != NO_OFFSET; hops++) {
		size_t lo;

		LOWER_BOUND(lo, rd->nnamed, rd->named[i].off < off);
		if (lo == rd->nnamed || rd->named[lo].off != off)
			return NULL;
		if (rd->named[lo].name)
			return rd->named[lo].name;
		off = rd->named[lo].ref;
	}
	return NULL;
}

static int inl_cmp_range(const void *a, const void *b)
{
	const struct inl_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->depth != y->depth)		/* outer first */
		return x->depth < y->depth ? -1 : 1;
	if (x->hi != y->hi)			/* longer first */
		return x->hi > y->hi ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static void inl_emit(struct inlines *in, uint64_t addr, uint32_t node)
{
	if (in->nseg && in->seg[in->nseg - 1].addr == addr)
		in->nseg--;		/* a later word for the same address */
	if (in->nseg && in->seg[in->nseg - 1].node == node)
		return;
	in->seg = grow(in->seg, &in->segcap, in->nseg + 1, sizeof(*in->seg));
	in->seg[in->nseg].addr = addr;
	in->seg[in->nseg++].node = node;
}

/*
 * The segments: a sweep over the ranges sorted by start, outer first,
 * with a stack of the ranges open.  Nested ranges make the top of the
 * stack the innermost; where ranges overlap without nesting (bad DWARF),
 * the one opened last wins until it ends.
 */
static void inl_flatten(struct inl_reader *rd)
{
	struct inlines *in = rd->in;
	size_t *st = xalloc_array("ranges", rd->nr ? rd->nr : 1, sizeof(*st));
	size_t ns = 0, k;

	xqsort(rd->r, rd->nr, sizeof(*rd->r), inl_cmp_range);
	for (k = 0; k <= rd->nr; k++) {
		uint64_t at = k < rd->nr ? rd->r[k].lo : UINT64_MAX;

		/* close what ends before @at, innermost first */
		while (ns && rd->r[st[ns - 1]].hi <= at) {
			uint64_t h = rd->r[st[--ns]].hi;

			while (ns && rd->r[st[ns - 1]].hi <= h)
				ns--;
			inl_emit(in, h, ns ? rd->r[st[ns - 1]].node : INL_NONE);
		}
		if (k == rd->nr)
			break;
		st[ns++] = k;
		inl_emit(in, at, rd->r[k].node);
	}
	free(st);
}

/**
 * read_inlines() - read the function instances of an executable
 * @t: its tables, loaded
 * @in: the instances and segments, filled in
 */
void read_inlines(struct tables *t, struct inlines *in)
{
	struct inl_reader rd;
	struct section *info;
	size_t k;

	memset(in, 0, sizeof(*in));
	memset(&rd, 0, sizeof(rd));
	if (t->elf.type == ET_REL)
		die(t->elf.path, NULL,
		    "inlined calls of a relocatable object: not yet");
	rd.t = t;
	rd.in = in;
	rd.cs = tables_units(t);
	rd.ab.off = NO_OFFSET;
	info = elf_load(&t->elf, ".debug_info", 0, 0);
	if (!info)
		return;
	units_load_lists(&t->elf, rd.cs);
	for (k = 0; k < rd.cs->n; k++)
		if (inl_read_unit(&rd, k, info))
			in->units_unreadable++;
	for (k = 0; k < in->n; k++) {
		struct inl_node *n = &in->node[k];

		if (!n->name)
			n->name = inl_name_at(&rd, n->origin);
		in->unnamed += !n->name;
	}
	inl_flatten(&rd);
	free(rd.r);
	free(rd.named);
	free(rd.ab.a);
	free(rd.ab.attr);
}

/**
 * inl_at() - the innermost function instance at an address
 * @in: the instances, read
 * @addr: the address
 *
 * Return: its index in @in->node, or INL_NONE.
 */
uint32_t inl_at(const struct inlines *in, uint64_t addr)
{
	size_t lo;

	LOWER_BOUND(lo, in->nseg, in->seg[i].addr <= addr);
	return lo ? in->seg[lo - 1].node : INL_NONE;
}
