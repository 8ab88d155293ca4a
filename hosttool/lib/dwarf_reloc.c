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
 * Return: 4 or 8, 0 for the machine's NONE, -1 for a type the resolver
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
	}
	return -1;
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
 * the object's sections.
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
		u64 off, symi, addend, value;
		u32 type, shndx;
		int size;

		raw_entry(r, i, &off, &type, &symi, &addend);
		size = lineloc_rel_type_size(r->machine, type);
		if (size < 0)
			return fail(r, LINELOC_REL_E_TYPE, i * esz, type);
		if (off < last)
			return fail(r, LINELOC_REL_E_ORDER, i * esz, off);
		last = off;
		if (!size)
			continue;
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
 * Return: 0, or 1 if the entry is a NONE relocation (@v then unset).
 */
int lineloc_rel_entry(const struct lineloc_rel *r, u64 i,
		      struct lineloc_rel_value *v)
{
	u64 off, symi, addend, value;
	u32 type, shndx;
	int size;

	raw_entry(r, i, &off, &type, &symi, &addend);
	size = lineloc_rel_type_size(r->machine, type);
	if (size <= 0)
		return 1;
	sym_at(r, symi, &shndx, &value);
	if (!r->rela)		/* REL: the addend is the field's contents */
		addend = rd(r, r->target + off, (unsigned int)size);
	if (r->bias)
		value -= r->bias(r->bias_arg, shndx);
	value += addend;
	if (size == 4 || !r->is64)
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
	};

	if (err < 0)
		err = -err;
	return err > 0 && err < LINELOC_REL_E_MAX && msg[err] ? msg[err] :
	       "unknown error";
}
