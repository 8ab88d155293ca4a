// SPDX-License-Identifier: GPL-2.0
/*
 * ltprobe - what linetab_dec.c answers on a table file (the host-tool
 * suite's oracles part: damaged compact tables, suite/oracle_checks.py)
 *
 *   ltprobe TABLE [OFF...]
 *
 * Prints "check R" (lineloc_check_header()), then per hex OFF
 * "lookup OFF R" and, when R is 0, " DIRNAME:LINE"; R is the decoder's
 * return value as is (0, 1 for LINELOC_UNKNOWN, or -LINELOC_E_*).
 * Exit status 0 unless the file cannot be read or an argument is bad.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/lineloc/table.h>

int main(int argc, char **argv)
{
	struct lineloc_loc loc;
	size_t cap = 1 << 16, n = 0, got;
	unsigned char *t;
	FILE *f;
	int i, ret;

	if (argc < 2) {
		fprintf(stderr, "usage: ltprobe TABLE [OFF...]\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	t = malloc(cap);
	if (!f || !t) {
		perror(argv[1]);
		return 2;
	}
	while ((got = fread(t + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			t = realloc(t, cap);
			if (!t) {
				perror("realloc");
				return 2;
			}
		}
	}
	if (ferror(f)) {
		perror(argv[1]);
		return 2;
	}
	fclose(f);
	printf("check %d\n", lineloc_check_header(t, n));
	for (i = 2; i < argc; i++) {
		char *end;
		unsigned long off = strtoul(argv[i], &end, 16);

		if (*end || end == argv[i] || off > 0xffffffffUL) {
			fprintf(stderr, "ltprobe: bad offset %s\n", argv[i]);
			return 2;
		}
		ret = lineloc_lookup(t, n, (u32)off, &loc);
		printf("lookup %lx %d", off, ret);
		if (!ret)
			printf(" %.*s%.*s:%u", (int)loc.dir_len, loc.dir,
			       (int)loc.name_len, loc.name, (unsigned int)loc.line);
		printf("\n");
	}
	free(t);
	return 0;
}
