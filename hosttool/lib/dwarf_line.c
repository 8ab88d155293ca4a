// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf_line.c - decoder for DWARF 2-5 .debug_line line-number programs
 *
 * Shape: a cursor (position, limit) over the caller's buffer, a length check
 * before every read, and one error exit per failure that records where
 * decoding stopped.  Nothing is allocated and nothing outlives a call, so
 * the same file builds into the host tool, its libFuzzer target and the
 * kernel.  See <linux/lineloc/dwarf.h> for the interface.
 */
#include <linux/lineloc/dwarf.h>
#include "dwarf_cursor.h"

#define DW_LNS_copy			0x01
#define DW_LNS_advance_pc		0x02
#define DW_LNS_advance_line		0x03
#define DW_LNS_set_file			0x04
#define DW_LNS_set_column		0x05
#define DW_LNS_negate_stmt		0x06
#define DW_LNS_set_basic_block		0x07
#define DW_LNS_const_add_pc		0x08
#define DW_LNS_fixed_advance_pc		0x09
#define DW_LNS_set_prologue_end		0x0a
#define DW_LNS_set_epilogue_begin	0x0b
#define DW_LNS_set_isa			0x0c

#define DW_LNE_end_sequence		0x01
#define DW_LNE_set_address		0x02
#define DW_LNE_define_file		0x03
#define DW_LNE_set_discriminator	0x04

#define DW_LNCT_path			0x1
#define DW_LNCT_directory_index		0x2
#define DW_LNCT_timestamp		0x3
#define DW_LNCT_size			0x4
#define DW_LNCT_MD5			0x5

/* Forms allowed in DWARF 5 directory/file entry formats. */
static bool form_ok(u64 form)
{
	switch (form) {
	case DW_FORM_string: case DW_FORM_line_strp: case DW_FORM_strp:
	case DW_FORM_udata: case DW_FORM_sdata:
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4:
	case DW_FORM_data8: case DW_FORM_data16:
	case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4:
		return true;
	}
	return false;
}

/* An unsigned field of @size bytes that a relocation may apply to. */
static int read_reloc(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		      unsigned int size, u64 *v)
{
	u64 where = c->pos;
	int err = read_un(ctx, c, size, v);

	if (err || !ctx->reloc)
		return err;
	err = ctx->reloc(ctx->reloc_arg, where, size, v);
	return err ? fail(ctx, where, LINELOC_DW_E_RELOC, (u64)err) : 0;
}

/*
 * Read one attribute value of @form: numbers into *num, strings into *str,
 * 16-byte data into *md5; blocks are skipped.
 */
static int read_form(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		     const struct lineloc_dwarf_unit *u, u64 form, u64 *num,
		     const char **str, const u8 **md5)
{
	u64 where = c->pos, n;
	int err;

	*num = 0;
	*str = 0;
	*md5 = 0;
	switch (form) {
	case DW_FORM_string:
		return read_cstr(ctx, c, str);
	case DW_FORM_line_strp:
		err = read_reloc(ctx, c, u->offset_size, &n);
		return err ? err : str_at(ctx, where, ctx->line_str,
					  ctx->line_str_size, n, str);
	case DW_FORM_strp:
		err = read_reloc(ctx, c, u->offset_size, &n);
		return err ? err : str_at(ctx, where, ctx->str,
					  ctx->str_size, n, str);
	case DW_FORM_udata:
		return read_uleb(ctx, c, num);
	case DW_FORM_sdata:
		return read_sleb(ctx, c, num);
	case DW_FORM_data1:
		return read_un(ctx, c, 1, num);
	case DW_FORM_data2:
		return read_un(ctx, c, 2, num);
	case DW_FORM_data4:
		return read_un(ctx, c, 4, num);
	case DW_FORM_data8:
		return read_un(ctx, c, 8, num);
	case DW_FORM_data16:
		if (left(c) < 16)
			return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, 0);
		*md5 = c->buf + c->pos;
		c->pos += 16;
		return 0;
	case DW_FORM_block:
		err = read_uleb(ctx, c, &n);
		break;
	case DW_FORM_block1:
		err = read_un(ctx, c, 1, &n);
		break;
	case DW_FORM_block2:
		err = read_un(ctx, c, 2, &n);
		break;
	case DW_FORM_block4:
		err = read_un(ctx, c, 4, &n);
		break;
	default:
		return fail(ctx, where, LINELOC_DW_E_FORM, form);
	}
	return err ? err : skip(ctx, c, n);
}

static int read_format(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		       struct lineloc_dwarf_format *f)
{
	u64 where = c->pos;
	unsigned int i;
	int err;

	err = read_u8(ctx, c, &f->count);
	if (err)
		return err;
	if (f->count > LINELOC_DW_MAX_FORMATS)
		return fail(ctx, where, LINELOC_DW_E_FORMAT_COUNT, f->count);
	for (i = 0; i < f->count; i++) {
		err = read_uleb(ctx, c, &f->type[i]);
		if (!err) {
			where = c->pos;
			err = read_uleb(ctx, c, &f->form[i]);
		}
		if (err)
			return err;
		if (!form_ok(f->form[i]))
			return fail(ctx, where, LINELOC_DW_E_FORM, f->form[i]);
	}
	return 0;
}

/* One DWARF 5 entry described by @f. */
static int read_entry5(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		       const struct lineloc_dwarf_unit *u,
		       const struct lineloc_dwarf_format *f,
		       struct lineloc_dwarf_entry *e)
{
	unsigned int i;
	const char *s;
	const u8 *md5;
	u64 n;
	int err;

	e->offset = c->pos;
	e->path = 0;
	e->dir_index = 0;
	e->mtime = 0;
	e->size = 0;
	e->md5 = 0;
	for (i = 0; i < f->count; i++) {
		err = read_form(ctx, c, u, f->form[i], &n, &s, &md5);
		if (err)
			return err;
		switch (f->type[i]) {
		case DW_LNCT_path:
			e->path = s;
			break;
		case DW_LNCT_directory_index:
			e->dir_index = n;
			break;
		case DW_LNCT_timestamp:
			e->mtime = n;
			break;
		case DW_LNCT_size:
			e->size = n;
			break;
		case DW_LNCT_MD5:
			e->md5 = md5;
			break;
		default:	/* vendor content types are skipped */
			break;
		}
	}
	return 0;
}

/* A v2-4 file entry after its name: directory index, mtime, length. */
static int read_file_tail(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
			  struct lineloc_dwarf_entry *e)
{
	int err;

	e->md5 = 0;
	err = read_uleb(ctx, c, &e->dir_index);
	if (!err)
		err = read_uleb(ctx, c, &e->mtime);
	if (!err)
		err = read_uleb(ctx, c, &e->size);
	return err;
}

/*
 * Walk a directory or file table from @c, calling @cb (if any) per entry,
 * and leave @c after it; *count gets the number of entries.  @count_in is
 * the v5 count from the header (ignored for v2-4, which end in a NUL).
 */
static int walk_table(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		      const struct lineloc_dwarf_unit *u,
		      enum lineloc_dwarf_table table, u64 count_in, u64 *count,
		      int (*cb)(void *arg, const struct lineloc_dwarf_entry *e),
		      void *arg)
{
	struct lineloc_dwarf_entry e;
	u64 i;
	int err, ret;

	if (u->version >= 5) {
		const struct lineloc_dwarf_format *f = table == LINELOC_DW_DIRS ?
			&u->dir_format : &u->file_format;

		/*
		 * Every allowed form takes at least one byte, so with a format
		 * the count is bounded by the bytes left; without one, a huge
		 * count would spin on nothing.
		 */
		if (count_in && !f->count)
			return fail(ctx, c->pos, LINELOC_DW_E_FORMAT_COUNT, 0);
		for (i = 0; i < count_in; i++) {
			err = read_entry5(ctx, c, u, f, &e);
			if (err)
				return err;
			e.index = i;
			ret = cb ? cb(arg, &e) : 0;
			if (ret)
				return fail(ctx, e.offset, LINELOC_DW_E_CALLBACK,
					    (u64)ret);
		}
		*count = count_in;
		return 0;
	}
	for (i = 0;; i++) {
		e.offset = c->pos;
		err = read_cstr(ctx, c, &e.path);
		if (err)
			return err;
		if (!*e.path)
			break;
		e.index = i + 1;
		e.dir_index = 0;
		e.mtime = 0;
		e.size = 0;
		e.md5 = 0;
		if (table == LINELOC_DW_FILES) {
			err = read_file_tail(ctx, c, &e);
			if (err)
				return err;
		}
		ret = cb ? cb(arg, &e) : 0;
		if (ret)
			return fail(ctx, e.offset, LINELOC_DW_E_CALLBACK, (u64)ret);
	}
	*count = i;
	return 0;
}

/**
 * lineloc_dwarf_parse_header() - parse and check a line-program header
 * @ctx: sections; err_off/err_val are set on failure
 * @offset: .debug_line offset of the unit_length field
 * @u: filled in on success; @u->end is the next unit's offset
 *
 * The directory and file tables are walked once here, so a unit that
 * parses has tables that lineloc_dwarf_entries() can read back.
 *
 * Return: 0, or a negative LINELOC_DW_E_* code.
 */
int lineloc_dwarf_parse_header(struct lineloc_dwarf_ctx *ctx, u64 offset,
			       struct lineloc_dwarf_unit *u)
{
	struct cursor c = { ctx->line, offset, ctx->line_size };
	u64 len, v, hdr_end;
	u8 b;
	int err;

	u->offset = offset;
	err = read_un(ctx, &c, 4, &len);
	if (err)
		return err;
	u->offset_size = 4;
	if (len == 0xffffffff) {
		u->offset_size = 8;
		err = read_un(ctx, &c, 8, &len);
		if (err)
			return err;
	} else if (len >= 0xfffffff0) {
		return fail(ctx, offset, LINELOC_DW_E_RESERVED_LENGTH, len);
	}
	if (len > left(&c))
		return fail(ctx, offset, LINELOC_DW_E_LENGTH, len);
	u->end = c.pos + len;
	c.end = u->end;

	err = read_un(ctx, &c, 2, &v);
	if (err)
		return err;
	if (v < 2 || v > 5)
		return fail(ctx, c.pos - 2, LINELOC_DW_E_VERSION, v);
	u->version = (u16)v;
	u->address_size = 0;
	u->seg_sel_size = 0;
	if (u->version >= 5) {
		err = read_u8(ctx, &c, &u->address_size);
		if (!err)
			err = read_u8(ctx, &c, &u->seg_sel_size);
		if (err)
			return err;
		if (u->address_size < 1 || u->address_size > 8)
			return fail(ctx, c.pos - 2, LINELOC_DW_E_ADDR_SIZE,
				    u->address_size);
		if (u->seg_sel_size)
			return fail(ctx, c.pos - 1, LINELOC_DW_E_SEG_SEL,
				    u->seg_sel_size);
	}
	err = read_un(ctx, &c, u->offset_size, &u->header_length);
	if (err)
		return err;
	if (u->header_length > left(&c))
		return fail(ctx, c.pos - u->offset_size, LINELOC_DW_E_HEADER_LENGTH,
			    u->header_length);
	hdr_end = c.pos + u->header_length;
	u->program = hdr_end;
	/* The header may not overrun header_length; the program starts there. */
	c.end = hdr_end;

	err = read_u8(ctx, &c, &u->min_inst_length);
	if (err)
		return err;
	u->max_ops_per_inst = 1;
	if (u->version >= 4) {
		err = read_u8(ctx, &c, &u->max_ops_per_inst);
		if (err)
			return err;
		if (!u->max_ops_per_inst)
			return fail(ctx, c.pos - 1, LINELOC_DW_E_MAX_OPS, 0);
	}
	err = read_u8(ctx, &c, &u->default_is_stmt);
	if (!err)
		err = read_u8(ctx, &c, &b);
	if (err)
		return err;
	u->line_base = (s8)b;
	err = read_u8(ctx, &c, &u->line_range);
	if (err)
		return err;
	if (!u->line_range)
		return fail(ctx, c.pos - 1, LINELOC_DW_E_LINE_RANGE, 0);
	err = read_u8(ctx, &c, &u->opcode_base);
	if (err)
		return err;
	if (!u->opcode_base)
		return fail(ctx, c.pos - 1, LINELOC_DW_E_OPCODE_BASE, 0);
	u->std_lengths = c.pos;
	err = skip(ctx, &c, u->opcode_base - 1u);
	if (err)
		return err;

	u->dir_format.count = 0;
	u->file_format.count = 0;
	v = 0;
	if (u->version >= 5) {
		err = read_format(ctx, &c, &u->dir_format);
		if (!err)
			err = read_uleb(ctx, &c, &v);
		if (err)
			return err;
	}
	u->dirs = c.pos;
	err = walk_table(ctx, &c, u, LINELOC_DW_DIRS, v, &u->dir_count, 0, 0);
	if (err)
		return err;
	v = 0;
	if (u->version >= 5) {
		err = read_format(ctx, &c, &u->file_format);
		if (!err)
			err = read_uleb(ctx, &c, &v);
		if (err)
			return err;
	}
	u->files = c.pos;
	return walk_table(ctx, &c, u, LINELOC_DW_FILES, v, &u->file_count, 0, 0);
}

/**
 * lineloc_dwarf_entries() - hand each directory or file entry to a callback
 * @ctx: sections; err_off/err_val are set on failure
 * @u: a unit that lineloc_dwarf_parse_header() accepted
 * @table: LINELOC_DW_DIRS or LINELOC_DW_FILES
 * @cb: called for each entry, in order; non-zero stops the walk
 * @arg: passed to @cb
 *
 * Return: 0, or a negative LINELOC_DW_E_* code (LINELOC_DW_E_CALLBACK if
 * @cb stopped it).
 */
int lineloc_dwarf_entries(struct lineloc_dwarf_ctx *ctx,
			  const struct lineloc_dwarf_unit *u,
			  enum lineloc_dwarf_table table,
			  int (*cb)(void *arg, const struct lineloc_dwarf_entry *e),
			  void *arg)
{
	struct cursor c = { ctx->line, table == LINELOC_DW_DIRS ? u->dirs : u->files,
			    u->program };
	u64 n;

	if (u->program > ctx->line_size)
		return fail(ctx, u->offset, LINELOC_DW_E_LENGTH, 0);
	return walk_table(ctx, &c, u, table,
			  table == LINELOC_DW_DIRS ? u->dir_count : u->file_count,
			  &n, cb, arg);
}

/* Line-number state machine registers (DWARF 5, 6.2.2). */
struct regs {
	struct lineloc_dwarf_row r;
	u64 addr_mask;
};

static void reset(struct regs *s, const struct lineloc_dwarf_unit *u)
{
	s->r.address = 0;
	s->r.op_index = 0;
	s->r.file = 1;
	s->r.line = 1;
	s->r.column = 0;
	s->r.is_stmt = u->default_is_stmt != 0;
	s->r.basic_block = false;
	s->r.end_sequence = false;
	s->r.prologue_end = false;
	s->r.epilogue_begin = false;
	s->r.isa = 0;
	s->r.discriminator = 0;
	s->r.set_address_offset = ~(u64)0;
}

/*
 * @n / @d for a divisor below 256, 16 bits at a time so that every step is
 * a 32-bit division: 32-bit kernels have no 64-bit division helper.
 */
static u64 div_u8(u64 n, u8 d, u32 *rem)
{
	u64 q = 0;
	u32 r = 0, cur;
	int i;

	for (i = 48; i >= 0; i -= 16) {
		cur = (r << 16) | (u32)((n >> i) & 0xffff);
		q = (q << 16) | (cur / d);
		r = cur % d;
	}
	*rem = r;
	return q;
}

/*
 * Advance by @adv operations.  With one operation per instruction (every
 * target but VLIW ones) op_index stays 0 and this is a multiply-add.
 */
static void advance(struct regs *s, const struct lineloc_dwarf_unit *u, u64 adv)
{
	u32 op_index;

	if (u->max_ops_per_inst == 1) {
		s->r.address += u->min_inst_length * adv;
	} else {
		adv = div_u8(s->r.op_index + adv, u->max_ops_per_inst,
			     &op_index);
		s->r.address += u->min_inst_length * adv;
		s->r.op_index = op_index;
	}
	s->r.address &= s->addr_mask;
}

static int emit(struct lineloc_dwarf_ctx *ctx, struct regs *s,
		const struct lineloc_dwarf_ops *ops, void *arg, u64 off)
{
	int ret;

	s->r.offset = off;
	ret = ops->row ? ops->row(arg, &s->r) : 0;
	if (ret)
		return fail(ctx, off, LINELOC_DW_E_CALLBACK, (u64)ret);
	s->r.discriminator = 0;
	s->r.basic_block = false;
	s->r.prologue_end = false;
	s->r.epilogue_begin = false;
	return 0;
}

static u64 mask_for(unsigned int size)
{
	return size >= 8 ? ~(u64)0 : ((u64)1 << (size * 8)) - 1;
}

static int extended(struct lineloc_dwarf_ctx *ctx, struct cursor *c,
		    const struct lineloc_dwarf_unit *u, struct regs *s,
		    const struct lineloc_dwarf_ops *ops, void *arg, u64 op_off,
		    u64 *next_file)
{
	struct lineloc_dwarf_entry e;
	struct cursor x;
	u64 len, v;
	u8 sub;
	int err;

	err = read_uleb(ctx, c, &len);
	if (err)
		return err;
	if (!len)
		return fail(ctx, op_off, LINELOC_DW_E_EXT_LENGTH, 0);
	if (len > left(c))
		return fail(ctx, c->pos, LINELOC_DW_E_TRUNCATED, len);
	/* Everything the opcode reads stays within its declared length. */
	x = *c;
	x.end = c->pos + len;
	c->pos += len;
	err = read_u8(ctx, &x, &sub);
	if (err)
		return err;
	switch (sub) {
	case DW_LNE_end_sequence:
		s->r.end_sequence = true;
		err = emit(ctx, s, ops, arg, op_off);
		if (err)
			return err;
		reset(s, u);
		break;
	case DW_LNE_set_address:
		/* The operand is unaligned; its size is what is left. */
		v = len - 1;
		if (v < 1 || v > 8 || (u->address_size && v != u->address_size))
			return fail(ctx, x.pos, LINELOC_DW_E_ADDR_SIZE, v);
		s->r.set_address_offset = x.pos;
		err = read_reloc(ctx, &x, (unsigned int)v, &s->r.address);
		if (err)
			return err;
		s->addr_mask = mask_for((unsigned int)v);
		s->r.op_index = 0;
		break;
	case DW_LNE_define_file:
		e.offset = x.pos;
		err = read_cstr(ctx, &x, &e.path);
		if (!err)
			err = read_file_tail(ctx, &x, &e);
		if (err)
			return err;
		e.index = (*next_file)++;
		err = ops->define_file ? ops->define_file(arg, &e) : 0;
		if (err)
			return fail(ctx, e.offset, LINELOC_DW_E_CALLBACK, (u64)err);
		break;
	case DW_LNE_set_discriminator:
		err = read_uleb(ctx, &x, &s->r.discriminator);
		if (err)
			return err;
		break;
	default:	/* unknown: skipped by its length */
		break;
	}
	return 0;
}

/**
 * lineloc_dwarf_run() - run the line-number program of a unit
 * @ctx: sections; err_off/err_val are set on failure
 * @u: a unit that lineloc_dwarf_parse_header() accepted
 * @ops: @ops->row gets every row in program order, end_sequence rows
 *	included; @ops->define_file gets DW_LNE_define_file entries
 * @arg: passed to @ops' callbacks
 *
 * Return: 0, or a negative LINELOC_DW_E_* code.
 */
int lineloc_dwarf_run(struct lineloc_dwarf_ctx *ctx,
		      const struct lineloc_dwarf_unit *u,
		      const struct lineloc_dwarf_ops *ops, void *arg)
{
	struct cursor c = { ctx->line, u->program, u->end };
	struct cursor lens = { ctx->line, u->std_lengths, u->program };
	struct regs s;
	u64 op_off, v, next_file;
	unsigned int adj, i;
	u8 op, nargs;
	int err;

	if (u->end > ctx->line_size || u->program > u->end ||
	    !u->line_range || !u->opcode_base || !u->max_ops_per_inst)
		return fail(ctx, u->offset, LINELOC_DW_E_LENGTH, 0);
	s.addr_mask = mask_for(u->address_size ? u->address_size : 8);
	reset(&s, u);
	next_file = u->version >= 5 ? u->file_count : u->file_count + 1;

	while (c.pos < c.end) {
		op_off = c.pos;
		op = c.buf[c.pos++];

		if (op >= u->opcode_base) {
			/* Special opcode: the bulk of every program. */
			adj = op - u->opcode_base;
			advance(&s, u, adj / u->line_range);
			s.r.line += (u64)(s64)(u->line_base +
					       (int)(adj % u->line_range));
			err = emit(ctx, &s, ops, arg, op_off);
			if (err)
				return err;
			continue;
		}
		err = 0;
		switch (op) {
		case 0:
			err = extended(ctx, &c, u, &s, ops, arg, op_off,
				       &next_file);
			break;
		case DW_LNS_copy:
			err = emit(ctx, &s, ops, arg, op_off);
			break;
		case DW_LNS_advance_pc:
			err = read_uleb(ctx, &c, &v);
			if (!err)
				advance(&s, u, v);
			break;
		case DW_LNS_advance_line:
			err = read_sleb(ctx, &c, &v);
			if (!err)
				s.r.line += v;
			break;
		case DW_LNS_set_file:
			err = read_uleb(ctx, &c, &s.r.file);
			break;
		case DW_LNS_set_column:
			err = read_uleb(ctx, &c, &s.r.column);
			break;
		case DW_LNS_negate_stmt:
			s.r.is_stmt = !s.r.is_stmt;
			break;
		case DW_LNS_set_basic_block:
			s.r.basic_block = true;
			break;
		case DW_LNS_const_add_pc:
			advance(&s, u, (255u - u->opcode_base) / u->line_range);
			break;
		case DW_LNS_fixed_advance_pc:
			/* a difference of two labels: relocated in riscv objects */
			err = read_reloc(ctx, &c, 2, &v);
			if (!err) {
				s.r.address = (s.r.address + v) & s.addr_mask;
				s.r.op_index = 0;
			}
			break;
		case DW_LNS_set_prologue_end:
			s.r.prologue_end = true;
			break;
		case DW_LNS_set_epilogue_begin:
			s.r.epilogue_begin = true;
			break;
		case DW_LNS_set_isa:
			err = read_uleb(ctx, &c, &s.r.isa);
			break;
		default:
			/* Unknown standard opcode: skip its ULEB operands. */
			lens.pos = u->std_lengths + op - 1;
			err = read_u8(ctx, &lens, &nargs);
			for (i = 0; !err && i < nargs; i++)
				err = read_uleb(ctx, &c, &v);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/**
 * lineloc_dwarf_strerror() - a short description of a LINELOC_DW_E_* code
 * @err: the code, negative or positive
 *
 * Return: a static string; "unknown error" for a code it does not know.
 */
const char *lineloc_dwarf_strerror(int err)
{
	static const char *const msg[LINELOC_DW_E_MAX] = {
		[LINELOC_DW_E_TRUNCATED] = "truncated: read past the end of the unit",
		[LINELOC_DW_E_LENGTH] = "unit length past the end of the section",
		[LINELOC_DW_E_RESERVED_LENGTH] = "reserved unit length value",
		[LINELOC_DW_E_VERSION] = "unsupported line table version",
		[LINELOC_DW_E_HEADER_LENGTH] = "header_length past the end of the unit",
		[LINELOC_DW_E_LINE_RANGE] = "line_range is 0",
		[LINELOC_DW_E_OPCODE_BASE] = "opcode_base is 0",
		[LINELOC_DW_E_MAX_OPS] = "maximum_operations_per_instruction is 0",
		[LINELOC_DW_E_ADDR_SIZE] = "bad address size",
		[LINELOC_DW_E_SEG_SEL] = "segment selectors are not supported",
		[LINELOC_DW_E_FORM] = "unsupported form in entry format",
		[LINELOC_DW_E_FORMAT_COUNT] = "bad entry format count",
		[LINELOC_DW_E_STR_OFFSET] = "string offset past the end of its section",
		[LINELOC_DW_E_STR_UNTERMINATED] = "unterminated string",
		[LINELOC_DW_E_NO_STR_SECTION] = "string form but no string section",
		[LINELOC_DW_E_EXT_LENGTH] = "extended opcode with length 0",
		[LINELOC_DW_E_CALLBACK] = "stopped by callback",
		[LINELOC_DW_E_RELOC] = "relocation refused",
	};

	if (err < 0)
		err = -err;
	if (err <= 0 || err >= LINELOC_DW_E_MAX || !msg[err])
		return "unknown error";
	return msg[err];
}
