/* SPDX-License-Identifier: GPL-2.0 */
/*
 * units.h - lineloc's reader of compilation units (units.c): the first DIE
 * of every unit in .debug_info and the address ranges each unit covers.
 */
#ifndef UNITS_H
#define UNITS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/lineloc/dwarf.h>
#include "elfread.h"

struct cursor;		/* dwarf_cursor.h */

#define NO_OFFSET UINT64_MAX

/* Where a unit's address ranges come from. */
enum cu_how { CU_NONE, CU_ARANGES, CU_DIE, CU_UNREADABLE };

struct cu {
	uint64_t offset, next;	/* .debug_info offsets of it and the next */
	uint64_t stmt_list;	/* NO_OFFSET: none */
	char *comp_dir;
	uint8_t version, asz, osz;
	uint8_t has_low, low_index, has_high, high_kind, has_ranges;
	uint8_t ranges_index, listed;
	uint64_t low, high, ranges;
	uint64_t addr_base, rnglists_base;	/* NO_OFFSET: absent */
	uint64_t str_offsets_base;		/* NO_OFFSET: absent */
	uint64_t abbrev_off;	/* its abbreviations in .debug_abbrev */
	uint32_t die_off;	/* its first DIE, from its start */
	enum cu_how how;
};

/* An address range [lo, hi) of unit @cu (an index into struct cus). */
struct cu_range {
	uint64_t lo, hi;
	size_t cu;
};

struct cus {
	struct cu *cu;
	size_t n, cap;
	int complete;		/* every unit read as far as DW_AT_stmt_list */
	int lists_loaded;	/* .debug_addr, .debug_ranges, .debug_rnglists */
	struct cu_range *r;
	size_t nr, rcap;
	struct lineloc_dwarf_ctx ctx;	/* byte order; errors land here */
	struct section *abbrev, *str, *lstr, *addr, *rnglists, *ranges;
	struct section *str_offsets;
};

/* The value of one attribute, by form class (unit_value()). */
enum val_kind { V_SKIP, V_NUM, V_ADDR, V_INDEX, V_STR, V_REF };

struct val {
	enum val_kind kind;
	uint64_t num;		/* V_REF: a .debug_info offset */
	const char *str;
};

/* Receives one address range [lo, hi) of a range list. */
typedef void (*range_fn)(void *arg, uint64_t lo, uint64_t hi);

void read_units(struct elf *e, struct cus *cs);
void units_load_lists(struct elf *e, struct cus *cs);
int unit_value(struct cus *cs, struct cursor *c, const struct cu *cu,
	       uint64_t form, uint64_t implicit, struct val *v);
int unit_addr(struct cus *cs, const struct cu *cu, uint64_t index,
	      uint64_t *a);
int unit_ranges(struct cus *cs, const struct cu *cu, uint64_t list,
		int is_index, uint64_t base, range_fn fn, void *arg);
size_t *units_by_stmt(const struct cus *cs);
size_t first_for_stmt(const struct cus *cs, const size_t *ix, uint64_t stmt);
size_t first_range(const struct cus *cs, size_t cu);

#endif /* UNITS_H */
