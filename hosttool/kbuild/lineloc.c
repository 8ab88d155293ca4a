// SPDX-License-Identifier: GPL-2.0
/*
 * lineloc - the line tables of CONFIG_KALLSYMS_LINE_LOCATIONS, at build time
 *
 *   lineloc [--strip PREFIX]... -o OUT --kernel-table VMLINUX
 *	read VMLINUX's DWARF .debug_line and write its compact line tables,
 *	in their container (<linux/lineloc/vmlinux.h>), to OUT
 *   lineloc --check-anchors VMLINUX FINAL
 *	fail unless FINAL's text symbols lie where VMLINUX's did
 *
 * scripts/link-vmlinux.sh runs both.  ELF32 and ELF64 of either byte order
 * are read on any host; every address and offset is 64-bit.  Rows are
 * clipped to the address ranges of the compilation unit that owns their
 * line table (units.c), and paths are stripped of the source and object
 * trees (tables.c).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"
#include "tables.h"
#include "ktable.h"

static const char usage[] =
	"usage: lineloc [--strip PREFIX]... -o OUT --kernel-table VMLINUX\n"
	"       lineloc --check-anchors VMLINUX FINAL\n";

static void __attribute__((noreturn)) usage_error(const char *what)
{
	fprintf(stderr, "%s: %s\n%s", prog, what, usage);
	exit(1);
}

enum {
	OPT_STRIP = 0x100,
	OPT_KERNEL_TABLE,
	OPT_CHECK_ANCHORS,
};

static const struct option longopts[] = {
	{ "strip",		required_argument,	NULL, OPT_STRIP },
	{ "kernel-table",	required_argument,	NULL, OPT_KERNEL_TABLE },
	{ "check-anchors",	required_argument,	NULL, OPT_CHECK_ANCHORS },
	{ NULL,			0,			NULL, 0 },
};

int main(int argc, char **argv)
{
	const char *table = NULL, *anchors = NULL, *outpath = NULL;
	static struct tables t;
	int c, stripped = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_STRIP:
			add_strip(&t, optarg);
			stripped = 1;
			break;
		case OPT_KERNEL_TABLE:
			table = optarg;
			break;
		case OPT_CHECK_ANCHORS:
			anchors = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		default:
			usage_error("unknown option or missing argument");
		}
	}
	if (!table == !anchors)
		usage_error("--kernel-table or --check-anchors, one of them");
	if (anchors) {
		if (optind + 1 != argc)
			usage_error("--check-anchors VMLINUX FINAL: two files");
		out = stdout;
		do_check_anchors(anchors, argv[optind]);
		out_flush();
		return fflush(stdout) || ferror(stdout);
	}
	if (optind != argc || !outpath)
		usage_error("--kernel-table VMLINUX: one file, and -o OUT");
	in_path = table;
	out_open(outpath);
	load_tables(&t, table, stripped ? STRIP_GIVEN : STRIP_AUTO, 0);
	do_kernel_table(&t, KTABLE_BLOCK);
	out_close(outpath, 0);
	return 0;
}
