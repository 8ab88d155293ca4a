// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf_reloc.c - the relocations of a relocatable object's debug section
 *
 * See <linux/lineloc/reloc.h>.  ELF32 and ELF64 of either byte order; every entry is
 * checked once by lineloc_rel_check(), after which lineloc_rel_entry() and
 * lineloc_rel_find() only read what was checked.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/lineloc/reloc.h>
#include <linux/math64.h>

#define LINELOC_SHN_LORESERVE	0xff00

static u64 rd(const struct lineloc_rel *r, const u8 *p, unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (u64)p[r->big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

/**
 * lineloc_rel_type_size() - the size of the field a relocation type writes
 * @machine: the object's e_machine
 * @type: the relocation type
 *
 * Whether the addend is in the entry or in place is a property of the
 * section (SHT_RELA, SHT_REL), not of the type.
 *
 * Return: 2, 4 or 8, 0 for the machine's NONE, -1 for a type the resolver
 * refuses.
 */
int lineloc_rel_type_size(u16 machine, u32 type)
{
	switch (machine) {
	case LINELOC_EM_X86_64:
		switch (type) {
		case LINELOC_R_X86_64_NONE:
			return 0;
		case LINELOC_R_X86_64_64:
			return 8;
		case LINELOC_R_X86_64_32:
		case LINELOC_R_X86_64_32S:
			return 4;
		}
		break;
	case LINELOC_EM_386:
		switch (type) {
		case LINELOC_R_386_NONE:
			return 0;
		case LINELOC_R_386_32:
			return 4;
		}
		break;
	case LINELOC_EM_ARM:
		switch (type) {
		case LINELOC_R_ARM_NONE:
			return 0;
		case LINELOC_R_ARM_ABS32:
			return 4;
		}
		break;
	case LINELOC_EM_AARCH64:
		switch (type) {
		case LINELOC_R_AARCH64_NONE:
		case LINELOC_R_AARCH64_NONE_OLD:
			return 0;
		case LINELOC_R_AARCH64_ABS64:
			return 8;
		case LINELOC_R_AARCH64_ABS32:
			return 4;
		}
		break;
	case LINELOC_EM_RISCV:
		switch (type) {
		case LINELOC_R_RISCV_NONE:
			return 0;
		case LINELOC_R_RISCV_ADD16:
		case LINELOC_R_RISCV_SUB16:
			return 2;
		case LINELOC_R_RISCV_32:
		case LINELOC_R_RISCV_ADD32:
		case LINELOC_R_RISCV_SUB32:
			return 4;
		case LINELOC_R_RISCV_64:
		case LINELOC_R_RISCV_ADD64:
		case LINELOC_R_RISCV_SUB64:
			return 8;
		}
		break;
	}
	return -1;
}

/**
 * lineloc_rel_type_op() - what a relocation type does to its field
 * @machine: the object's e_machine
 * @type: a type that lineloc_rel_type_size() takes
 *
 * Return: LINELOC_REL_ADD or LINELOC_REL_SUB for the halves of a
 * difference (riscv's ADDn and SUBn), else LINELOC_REL_ABS.
 */
int lineloc_rel_type_op(u16 machine, u32 type)
{
	if (machine != LINELOC_EM_RISCV)
		return LINELOC_REL_ABS;
	switch (type) {
	case LINELOC_R_RISCV_ADD16:
	case LINELOC_R_RISCV_ADD32:
	case LINELOC_R_RISCV_ADD64:
		return LINELOC_REL_ADD;
	case LINELOC_R_RISCV_SUB16:
	case LINELOC_R_RISCV_SUB32:
	case LINELOC_R_RISCV_SUB64:
		return LINELOC_REL_SUB;
	}
	return LINELOC_REL_ABS;
}

static u64 ent_size(const struct lineloc_rel *r)
{
	if (r->is64)
		return r->rela ? 24 : 16;
	return r->rela ? 12 : 8;
}

static int fail(struct lineloc_rel *r, int err, u64 off, u64 val)
{
	r->err_off = off;
	r->err_val = val;
	return -err;
}

/* Entry @i: offset, type, symbol index, addend (RELA only). */
static void raw_entry(const struct lineloc_rel *r, u64 i, u64 *off, u32 *type,
		      u64 *symi, u64 *addend)
{
	const u8 *p = r->rel + i * ent_size(r);
	u64 info;

	if (r->is64) {
		*off = rd(r, p, 8);
		info = rd(r, p + 8, 8);
		*type = (u32)info;
		*symi = info >> 32;
		*addend = r->rela ? rd(r, p + 16, 8) : 0;
	} else {
		*off = rd(r, p, 4);
		info = rd(r, p + 4, 4);
		*type = (u32)(info & 0xff);
		*symi = info >> 8;
		*addend = r->rela ? (u64)(s64)(s32)rd(r, p + 8, 4) : 0;
	}
}

/* st_shndx and st_value of symbol @symi, which the caller has bounded. */
static void sym_at(const struct lineloc_rel *r, u64 symi, u32 *shndx,
		   u64 *value)
{
	const u8 *p = r->sym + symi * (r->is64 ? 24 : 16);

	if (r->is64) {
		*shndx = (u32)rd(r, p + 6, 2);
		*value = rd(r, p + 8, 8);
	} else {
		*shndx = (u32)rd(r, p + 14, 2);
		*value = rd(r, p + 4, 4);
	}
}

/**
 * lineloc_rel_check() - check every entry of a relocation section
 * @r: the section, with all fields but @count, @err_off and @err_val set
 *
 * Each entry must have a type of the machine's that the resolver takes,
 * lie wholly inside the target section without overlapping the one before,
 * come after it, and name a symbol of the table that is defined in one of
 * the object's sections.  The halves of a difference come as a pair: an
 * ADD, then a SUB of the same size at the same offset, their symbols in
 * one section (their difference is then the same wherever the section
 * goes).
 *
 * Return: 0 with @r->count set, or a negative LINELOC_REL_E_* code with the
 * entry's offset in @r->err_off and the offending value in @r->err_val.
 */
int lineloc_rel_check(struct lineloc_rel *r)
{
	u64 esz = ent_size(r), ssz = r->is64 ? 24 : 16, i, n, nsym;
	u64 next = 0;		/* first offset the next field may use */
	u64 last = 0;
	u32 rem;

	r->count = 0;
	/* every machine the resolver knows has a NONE, numbered 0 */
	if (lineloc_rel_type_size(r->machine, 0) < 0)
		return fail(r, LINELOC_REL_E_MACHINE, 0, r->machine);
	n = div_u64_rem(r->rel_size, (u32)esz, &rem);
	if (rem)
		return fail(r, LINELOC_REL_E_SHAPE, r->rel_size, esz);
	nsym = div_u64_rem(r->sym_size, (u32)ssz, &rem);
	for (i = 0; i < n; i++) {
		u64 off, symi, addend, value, off2;
		u32 type, shndx, shndx2, type2;
		int size, op;

		raw_entry(r, i, &off, &type, &symi, &addend);
		size = lineloc_rel_type_size(r->machine, type);
		if (size < 0)
			return fail(r, LINELOC_REL_E_TYPE, i * esz, type);
		if (off < last)
			return fail(r, LINELOC_REL_E_ORDER, i * esz, off);
		last = off;
		if (!size)
			continue;
		op = lineloc_rel_type_op(r->machine, type);
		if (op == LINELOC_REL_SUB)	/* not after its ADD */
			return fail(r, LINELOC_REL_E_PAIR, i * esz, type);
		if (off > r->target_size || (u64)size > r->target_size - off)
			return fail(r, LINELOC_REL_E_OFFSET, i * esz, off);
		if (off < next)
			return fail(r, LINELOC_REL_E_ORDER, i * esz, off);
		next = off + (u64)size;
		if (symi >= nsym)
			return fail(r, LINELOC_REL_E_SYMBOL, i * esz, symi);
		sym_at(r, symi, &shndx, &value);
		if (!shndx || shndx >= r->shnum || shndx >= LINELOC_SHN_LORESERVE)
			return fail(r, LINELOC_REL_E_SYMSEC, i * esz, shndx);
		if (op != LINELOC_REL_ADD)
			continue;
		/* the SUB of the pair: next, same offset and size */
		if (i + 1 >= n)
			return fail(r, LINELOC_REL_E_PAIR, i * esz, type);
		i++;
		raw_entry(r, i, &off2, &type2, &symi, &addend);
		if (off2 != off ||
		    lineloc_rel_type_op(r->machine, type2) != LINELOC_REL_SUB ||
		    lineloc_rel_type_size(r->machine, type2) != size)
			return fail(r, LINELOC_REL_E_PAIR, i * esz, type2);
		if (symi >= nsym)
			return fail(r, LINELOC_REL_E_SYMBOL, i * esz, symi);
		sym_at(r, symi, &shndx2, &value);
		if (shndx2 != shndx)
			return fail(r, LINELOC_REL_E_PAIRSEC, i * esz, shndx2);
	}
	r->count = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_rel_check);

/**
 * lineloc_rel_entry() - resolve entry @i of a checked section
 * @r: the section, checked by lineloc_rel_check()
 * @i: the entry, below @r->count
 * @v: the field and its value
 *
 * An ADD entry resolves its pair: the field's contents, plus its symbol
 * and addend, less the SUB's (both symbols in one section, so no bias).
 *
 * Return: 0, or 1 if the entry is a NONE relocation or the SUB of a pair
 * (@v then unset).
 */
int lineloc_rel_entry(const struct lineloc_rel *r, u64 i,
		      struct lineloc_rel_value *v)
{
	u64 off, symi, addend, value;
	u32 type, shndx;
	int size, op;

	raw_entry(r, i, &off, &type, &symi, &addend);
	size = lineloc_rel_type_size(r->machine, type);
	op = lineloc_rel_type_op(r->machine, type);
	if (size <= 0 || op == LINELOC_REL_SUB)
		return 1;
	sym_at(r, symi, &shndx, &value);
	if (op == LINELOC_REL_ADD) {
		u64 off2, symi2, addend2, value2;
		u32 type2, shndx2;

		raw_entry(r, i + 1, &off2, &type2, &symi2, &addend2);
		sym_at(r, symi2, &shndx2, &value2);
		if (!r->rela) {
			addend = 0;
			addend2 = 0;
		}
		value = rd(r, r->target + off, (unsigned int)size) +
			(value + addend) - (value2 + addend2);
	} else {
		if (!r->rela)	/* REL: the addend is the field's contents */
			addend = rd(r, r->target + off, (unsigned int)size);
		if (r->bias)
			value -= r->bias(r->bias_arg, shndx);
		value += addend;
	}
	if (size == 2)
		value &= 0xffffU;
	else if (size == 4 || !r->is64)
		value &= 0xffffffffU;
	v->offset = off;
	v->size = (u32)size;
	v->shndx = shndx;
	v->value = value;
	return 0;
}

/**
 * lineloc_rel_find() - the relocated value of the field at an offset
 * @r: the section, checked by lineloc_rel_check()
 * @offset: offset of the field in the target section
 * @v: the field and its value
 *
 * O(log n): the entries are in order of offset.
 *
 * Return: 0, or 1 if no relocation applies at @offset.
 */
int lineloc_rel_find(const struct lineloc_rel *r, u64 offset,
		     struct lineloc_rel_value *v)
{
	u64 lo = 0, hi = r->count, off, symi, addend;
	u32 type;

	while (lo < hi) {
		u64 mid = lo + ((hi - lo) >> 1);

		raw_entry(r, mid, &off, &type, &symi, &addend);
		if (off < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < r->count; lo++) {
		raw_entry(r, lo, &off, &type, &symi, &addend);
		if (off != offset)
			return 1;
		if (!lineloc_rel_entry(r, lo, v))
			return 0;
	}
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(lineloc_rel_find);

const char *lineloc_rel_strerror(int err)
{
	static const char *const msg[LINELOC_REL_E_MAX] = {
		[LINELOC_REL_E_SHAPE] = "size is not a multiple of the entry size",
		[LINELOC_REL_E_TYPE] = "relocation type not taken in a debug section",
		[LINELOC_REL_E_OFFSET] = "relocation outside the section",
		[LINELOC_REL_E_SYMBOL] = "symbol index past the symbol table",
		[LINELOC_REL_E_SYMSEC] = "symbol not defined in a section",
		[LINELOC_REL_E_ORDER] = "relocations not in order of offset",
		[LINELOC_REL_E_MACHINE] = "machine not supported",
		[LINELOC_REL_E_PAIR] = "difference relocation without its pair",
		[LINELOC_REL_E_PAIRSEC] = "difference of symbols in two sections",
	};

	if (err < 0)
		err = -err;
	return err > 0 && err < LINELOC_REL_E_MAX && msg[err] ? msg[err] :
	       "unknown error";
}
