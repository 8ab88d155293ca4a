// SPDX-License-Identifier: GPL-2.0
/*
 * linetab - build, measure and check compact line tables
 * (<linux/lineloc/table.h>)
 *
 *   linetab [options] [ROWS]      ROWS: "lineloc --rows" output, - or none
 *                                 for stdin
 *   --table-size     bytes by part, the delta-uleb64 baseline, and last
 *                    "table: R rows, B bytes, X.XX B/row"
 *   --table-check    look up every kept row start a, a - 1 and every end
 *                    of a sequence through the table and compare with the
 *                    rows; exit 1 at the first difference
 *   --latency        mean and p99 lookup time at the chosen block size
 *   --curve          size and latency for 64, 96, 128, 192, 256, 512 and
 *                    1024 rows a block
 *   --block N        rows per block (default 64, from --curve: see README)
 *   --shared-codes   code the table with the shared codes (as module
 *                    tables are) instead of its own
 *   --base ADDR      offsets are from ADDR (default: the lowest row)
 *   --seed S         seed of the random lookup addresses (default 1)
 *   --range LO HI    draw them from offsets LO..HI (default: the first to
 *                    the last entry, gaps between the regions included)
 *   --lookups N      random lookups for the latency (default 1000000)
 *   -o FILE          write the table to FILE (temporary file + rename)
 *   --table FILE     size, check or time the table in FILE (built before,
 *                    e.g. by a kernel build) instead of a new one
 *
 * The rows are read as scripts/kallsyms reads them: within a sequence the
 * last row at an address wins and a row repeating the path:line of the
 * entry kept before it adds nothing; the end of a sequence is an entry
 * without a location.  --table-check's answer is the last kept entry at
 * or below an address, computed here independently of the encoder.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/lineloc/table.h>

#include "util.h"

struct rrow {
	uint64_t addr;
	uint32_t file, line;
	int end;
};

struct kent {			/* a kept entry, for the reference answer */
	uint32_t off, file, line, end, seq;
};

static char **paths;
static size_t npaths, cap_paths;
static size_t *hash;		/* path index + 1, open addressing */
static size_t hash_size;

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static uint32_t intern(const char *s, size_t n)
{
	size_t i, j;

	if (2 * (npaths + 1) > hash_size) {
		size_t *old = hash, oldn = hash_size;

		hash_size = hash_size ? 2 * hash_size : 4096;
		hash = calloc(hash_size, sizeof(*hash));
		if (!hash)
			xmalloc(0 * (size_t)-1);
		for (j = 0; j < oldn; j++) {
			if (!old[j])
				continue;
			i = hash_str(paths[old[j] - 1],
				     strlen(paths[old[j] - 1])) &
			    (hash_size - 1);
			while (hash[i])
				i = (i + 1) & (hash_size - 1);
			hash[i] = old[j];
		}
		free(old);
	}
	i = hash_str(s, n) & (hash_size - 1);
	while (hash[i]) {
		const char *p = paths[hash[i] - 1];

		if (!strncmp(p, s, n) && !p[n])
			return hash[i] - 1;
		i = (i + 1) & (hash_size - 1);
	}
	if (npaths == cap_paths) {
		cap_paths = cap_paths ? 2 * cap_paths : 1024;
		paths = realloc(paths, cap_paths * sizeof(*paths));
		if (!paths)
			xmalloc(0 * (size_t)-1);
	}
	paths[npaths] = xmalloc(n + 1);
	memcpy(paths[npaths], s, n);
	paths[npaths][n] = 0;
	hash[i] = ++npaths;
	return npaths - 1;
}

static struct rrow *read_rows(FILE *f, const char *name, size_t *np)
{
	struct rrow *r = NULL;
	size_t n = 0, cap = 0, len = 0, lineno = 0;
	char *buf = NULL, *sp, *colon, *end;
	ssize_t got;

	while ((got = getline(&buf, &len, f)) > 0) {
		lineno++;
		if (buf[got - 1] == '\n')
			buf[--got] = 0;
		sp = strchr(buf, ' ');
		if (!sp)
			goto bad;
		*sp = 0;
		colon = strrchr(buf, ':');
		if (!colon || colon == buf)
			goto bad;
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			r = realloc(r, cap * sizeof(*r));
			if (!r)
				xmalloc(0 * (size_t)-1);
		}
		errno = 0;
		r[n].line = strtoul(colon + 1, &end, 10);
		if (*end || errno || colon[1] == 0)
			goto bad;
		r[n].addr = strtoull(sp + 1, &end, 16);
		if (end == sp + 1 || errno)
			goto bad;
		r[n].end = 0;
		if (*end == ' ') {
			if (strcmp(end + 1, "end"))
				goto bad;
			r[n].end = 1;
		} else if (*end) {
			goto bad;
		}
		r[n].file = intern(buf, colon - buf);
		n++;
	}
	if (ferror(f)) {
		fprintf(stderr, "linetab: %s: read error\n", name);
		exit(2);
	}
	free(buf);
	*np = n;
	return r;
bad:
	fprintf(stderr, "linetab: %s:%zu: not a line-table row\n", name, lineno);
	exit(2);
}

/* ---- the reference: kallsyms' rules, written out plainly ---- */

static int cmp_kent(const void *a, const void *b)
{
	const struct kent *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->end != y->end)
		return x->end ? -1 : 1;		/* ends before rows */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static struct kent *reference(const struct lineloc_row *rows, size_t n,
			      size_t *nk)
{
	struct kent *k = xmalloc((n + 1) * sizeof(*k));
	size_t i, m = 0;
	int have = 0, have_last = 0;
	struct kent pend = { 0 }, last = { 0 };

	for (i = 0; i < n; i++) {
		if (have && pend.off != rows[i].off) {
			if (!have_last || pend.file != last.file ||
			    pend.line != last.line) {
				pend.seq = m;
				k[m++] = pend;
				last = pend;
				have_last = 1;
			}
			have = 0;
		}
		if (rows[i].end) {
			k[m].off = rows[i].off;
			k[m].end = 1;
			k[m].file = k[m].line = 0;
			k[m].seq = m;
			m++;
			have = have_last = 0;
			continue;
		}
		pend.off = rows[i].off;
		pend.file = rows[i].file;
		pend.line = rows[i].line;
		pend.end = 0;
		have = 1;
	}
	if (have && (!have_last || pend.file != last.file ||
		     pend.line != last.line)) {
		pend.seq = m;
		k[m++] = pend;
	}
	qsort(k, m, sizeof(*k), cmp_kent);
	*nk = m;
	return k;
}

/* The last kept entry at or below @off, or NULL. */
static const struct kent *ref_lookup(const struct kent *k, size_t n,
				     uint32_t off)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {		/* first entry above @off */
		mid = lo + (hi - lo) / 2;
		if (k[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &k[lo - 1] : NULL;
}

/* ---- the 2026 scheme on the same entries, for comparison ---- */

static size_t uleb_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static size_t sleb_len(int64_t v)
{
	size_t n = 1;

	while (v < -64 || v > 63) {
		v >>= 7;
		n++;
	}
	return n;
}

/*
 * Blocks of 64 entries: an index of (u32 offset, u32 data offset) per
 * block; in a block the first entry's file and line absolute, then per
 * entry ULEB128 address delta, ULEB128 file (0 = end of sequence, else
 * index + 1; with @file_delta an SLEB128 delta of that instead), SLEB128
 * line delta.  Paths: NUL-terminated strings and a u32 offset each.  The
 * entries are the kept ones, one per address (the last).
 */
static size_t delta_uleb64(const struct kent *k, size_t n, int file_delta)
{
	size_t bytes = 0, i, blk = 0;
	uint32_t prev_off = 0, prev_line = 0;
	int64_t prev_file = 0;
	char *used = calloc(npaths ? npaths : 1, 1);

	for (i = 0; i < n; i++) {
		if (i + 1 < n && k[i + 1].off == k[i].off)
			continue;
		if (blk % 64 == 0) {
			bytes += 8;
			bytes += uleb_len(k[i].end ? 0 : k[i].file + 1);
			bytes += uleb_len(k[i].line);
		} else {
			bytes += uleb_len(k[i].off - prev_off);
			if (!file_delta)
				bytes += uleb_len(k[i].end ? 0 : k[i].file + 1);
			else
				bytes += sleb_len(k[i].end ? 0 : (int64_t)k[i].file + 1 - prev_file);
			bytes += sleb_len((int64_t)k[i].line - prev_line);
		}
		if (!k[i].end) {
			used[k[i].file] = 1;
			prev_line = k[i].line;
			prev_file = k[i].file + 1;
		}
		prev_off = k[i].off;
		blk++;
	}
	for (i = 0; i < npaths; i++)
		if (used[i])
			bytes += strlen(paths[i]) + 1 + 4;
	free(used);
	return bytes;
}

/* ---- building and measuring ---- */

static bool shared;	/* --shared-codes */

static u8 *build(const struct lineloc_row *rows, size_t n, uint32_t block,
		 size_t *size, struct lineloc_stats *st)
{
	struct lineloc_enc_opts opt = { .block_rows = block, .shared = shared };
	u8 *tab;
	int ret;

	ret = lineloc_encode(rows, n, (const char *const *)paths, npaths,
			     &opt, &lineloc_libc_alloc, &tab, size, st);
	if (ret) {
		fprintf(stderr, "linetab: encoder error %d\n", ret);
		exit(2);
	}
	ret = lineloc_check_header(tab, *size);
	if (ret) {
		fprintf(stderr, "linetab: the new table fails its check: %d\n",
			ret);
		exit(2);
	}
	return tab;
}

static uint64_t rng;

static uint64_t next_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * @n random offsets in [@lo, @hi] that a row covers (the reference rows
 * @k answer them): a lookup is timed where it has work to do, not in the
 * gaps (the one between the text and the init text is most of [lo, hi]).
 * Mean: one clock_gettime() pair around all @n lookups, the fastest of
 * three such passes (this host is a VM: a neighbour's burst lands in one
 * pass, not in the decoder).  p99: the same addresses again, each lookup
 * timed alone, less the median cost of an empty clock_gettime() pair.
 */
static void latency(const u8 *tab, size_t size, const struct kent *k,
		    size_t nk, uint32_t lo, uint32_t hi, uint64_t seed,
		    size_t n, double *mean, double *p99)
{
	uint32_t *addr = xmalloc(n * sizeof(*addr));
	uint64_t *t = xmalloc((n > 100001 ? n : 100001) * sizeof(*t));
	uint64_t t0, t1, sink = 0, over;
	struct lineloc_loc loc;
	size_t i;
	int pass;

	for (i = 0; i < nk && k[i].end; i++)
		;
	if (i == nk) {		/* no row covers anything: nothing to time */
		*mean = *p99 = 0;
		free(addr);
		free(t);
		return;
	}
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (i = 0; i < n; ) {
		const struct kent *r;

		addr[i] = lo + next_rand() % ((uint64_t)hi - lo + 1);
		r = ref_lookup(k, nk, addr[i]);
		if (r && !r->end)
			i++;
	}
	for (i = 0; i < n / 10; i++)	/* warm up */
		sink += lineloc_lookup(tab, size, addr[i], &loc);
	for (pass = 0; pass < 3; pass++) {
		t0 = now_ns();
		for (i = 0; i < n; i++)
			sink += lineloc_lookup(tab, size, addr[i], &loc) +
				loc.line;
		t1 = now_ns();
		if (!pass || (double)(t1 - t0) / n < *mean)
			*mean = (double)(t1 - t0) / n;
	}
	for (i = 0; i < 100001; i++) {
		t0 = now_ns();
		t[i] = now_ns() - t0;
	}
	qsort(t, 100001, sizeof(*t), cmp_u64);
	over = t[50000];
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		sink += lineloc_lookup(tab, size, addr[i], &loc);
		t1 = now_ns();
		t[i] = t1 - t0 > over ? t1 - t0 - over : 0;
	}
	qsort(t, n, sizeof(*t), cmp_u64);
	*p99 = (double)t[n * 99 / 100];
	if (sink == 42)
		fputc(' ', stderr);
	free(addr);
	free(t);
}

/* Does the table answer @off as the rows do? */
static int check_one(const u8 *tab, size_t size, const struct kent *k,
		     size_t nk, uint32_t off, uint64_t base)
{
	const struct kent *r = ref_lookup(k, nk, off);
	struct lineloc_loc loc;
	int ret = lineloc_lookup(tab, size, off, &loc);
	const char *p;
	size_t pl;

	if (!r || r->end) {
		if (ret == LINELOC_UNKNOWN)
			return 0;
		if (ret == 0)
			printf("table-check: 0x%" PRIx64 ": table says %.*s%.*s:%u, rows say unknown\n",
			       base + off, (int)loc.dir_len, loc.dir,
			       (int)loc.name_len, loc.name, loc.line);
		else
			printf("table-check: 0x%" PRIx64 ": table error %d, rows say unknown\n",
			       base + off, ret);
		return 1;
	}
	p = paths[r->file];
	pl = strlen(p);
	if (ret == 0 && loc.line == r->line &&
	    loc.dir_len + loc.name_len == pl &&
	    !memcmp(p, loc.dir, loc.dir_len) &&
	    !memcmp(p + loc.dir_len, loc.name, loc.name_len))
		return 0;
	if (ret == 0)
		printf("table-check: 0x%" PRIx64 ": table says %.*s%.*s:%u, rows say %s:%u\n",
		       base + off, (int)loc.dir_len, loc.dir,
		       (int)loc.name_len, loc.name, loc.line, p, r->line);
	else
		printf("table-check: 0x%" PRIx64 ": table says %s (%d), rows say %s:%u\n",
		       base + off, ret == LINELOC_UNKNOWN ? "unknown" : "error",
		       ret, p, r->line);
	return 1;
}

static u8 *read_table(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 20, n = 0, got;
	u8 *t = xmalloc(cap);
	int ret;

	if (!f) {
		perror(path);
		exit(2);
	}
	while ((got = fread(t + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			t = realloc(t, cap);
			if (!t)
				xmalloc(0 * (size_t)-1);
		}
	}
	if (ferror(f)) {
		perror(path);
		exit(2);
	}
	fclose(f);
	ret = lineloc_check_header(t, n);
	if (ret) {
		fprintf(stderr, "linetab: %s: bad table (%d)\n", path, ret);
		exit(2);
	}
	*size = n;
	return t;
}

static int write_atomic(const char *path, const u8 *tab, size_t size)
{
	char *tmp = xmalloc(strlen(path) + 16);
	FILE *f;

	sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f || fwrite(tab, 1, size, f) != size || fflush(f) ||
	    fsync(fileno(f)) || fclose(f)) {
		perror(tmp);
		if (f)
			unlink(tmp);
		return 1;
	}
	if (rename(tmp, path)) {
		perror(path);
		unlink(tmp);
		return 1;
	}
	free(tmp);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: linetab [--table-size] [--table-check] [--latency] [--curve]\n"
		"               [--block N] [--base ADDR] [--seed S] [--lookups N]\n"
		"               [--range LO HI]\n"
		"               [-o FILE] [--table FILE] [ROWS|-]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int do_size = 0, do_check = 0, do_curve = 0, do_lat = 0, have_base = 0;
	int have_range = 0;
	uint32_t rlo = 0, rhi = 0;
	const char *out = NULL, *in = NULL, *given = NULL;
	uint32_t block = 64, lo, hi;
	uint64_t base = UINT64_MAX, seed = 1;
	size_t nlookups = 1000000, n, i, nk, size;
	struct lineloc_row *rows;
	struct lineloc_stats st;
	struct rrow *rr;
	struct kent *k;
	double mean, p99;
	FILE *f = stdin;
	u8 *tab;

	for (i = 1; i < (size_t)argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--table-size"))
			do_size = 1;
		else if (!strcmp(a, "--table-check"))
			do_check = 1;
		else if (!strcmp(a, "--curve"))
			do_curve = 1;
		else if (!strcmp(a, "--latency"))
			do_lat = 1;
		else if (!strcmp(a, "--shared-codes"))
			shared = true;
		else if (!strcmp(a, "--block") && i + 1 < (size_t)argc)
			block = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--base") && i + 1 < (size_t)argc) {
			base = strtoull(argv[++i], NULL, 0);
			have_base = 1;
		} else if (!strcmp(a, "--seed") && i + 1 < (size_t)argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(a, "--range") && i + 2 < (size_t)argc) {
			rlo = strtoul(argv[++i], NULL, 0);
			rhi = strtoul(argv[++i], NULL, 0);
			have_range = 1;
			if (rlo > rhi)
				usage();
		} else if (!strcmp(a, "--lookups") && i + 1 < (size_t)argc)
			nlookups = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(a, "--table") && i + 1 < (size_t)argc)
			given = argv[++i];
		else if (!strcmp(a, "-o") && i + 1 < (size_t)argc)
			out = argv[++i];
		else if (a[0] == '-' && a[1])
			usage();
		else if (!in)
			in = a;
		else
			usage();
	}
	if (!do_size && !do_check && !do_curve && !do_lat && !out)
		usage();
	if (!nlookups)
		nlookups = 1;
	if (block < 1 || block > LINELOC_MAX_BLOCK) {
		fprintf(stderr, "linetab: --block: 1 .. %u\n", LINELOC_MAX_BLOCK);
		return 2;
	}
	if (in && strcmp(in, "-")) {
		f = fopen(in, "r");
		if (!f) {
			perror(in);
			return 2;
		}
	} else {
		in = "<stdin>";
	}
	rr = read_rows(f, in, &n);
	if (f != stdin)
		fclose(f);
	if (!have_base)
		for (i = 0; i < n; i++)
			if (rr[i].addr < base)
				base = rr[i].addr;
	rows = xmalloc((n + 1) * sizeof(*rows));
	for (i = 0; i < n; i++) {
		if (rr[i].addr < base || rr[i].addr - base > UINT32_MAX) {
			fprintf(stderr, "linetab: row at 0x%" PRIx64 " is out of the 4 GiB above the base 0x%" PRIx64 "\n",
				rr[i].addr, base);
			return 2;
		}
		rows[i].off = rr[i].addr - base;
		rows[i].file = rr[i].file;
		rows[i].line = rr[i].line;
		rows[i].end = rr[i].end;
	}
	free(rr);
	k = reference(rows, n, &nk);

	tab = build(rows, n, block, &size, &st);
	if (out && write_atomic(out, tab, size))
		return 2;
	if (given) {		/* check, time or size a table built before */
		free(tab);
		tab = read_table(given, &size);
		st.total = size;
	}
	if (do_size) {
		size_t du = delta_uleb64(k, nk, 0), dd = delta_uleb64(k, nk, 1);

		printf("rows: %zu read, %u kept (kallsyms rules), %u entries in the table (%u ends), %u paths, base 0x%" PRIx64 "\n",
		       n, st.kept, st.entries, st.ends, st.files, base);
		printf("parts: header %zu, code tables %zu (decode tables of %u bits), index %zu (%u blocks of %u), data %zu, dictionary %zu (%u pairs), paths %zu\n",
		       st.header, st.codes, st.lut_bits, st.index, st.blocks, block,
		       st.data, st.dict_bytes, st.dict, st.paths);
		printf("data by field: row symbols %.0f B, address deltas %.0f B, lines after an MTF switch %.0f B, lines of new files %.0f B, new file indexes %.0f B, dictionary indexes %.0f B, padding %.0f B\n",
		       st.bits[LINELOC_F_ROW] / 8.0, st.bits[LINELOC_F_ADDR] / 8.0,
		       st.bits[LINELOC_F_MTF_LINE] / 8.0,
		       st.bits[LINELOC_F_NEW_LINE] / 8.0,
		       st.bits[LINELOC_F_NEW_FILE] / 8.0,
		       st.bits[LINELOC_F_DICT] / 8.0,
		       st.bits[LINELOC_F_PAD] / 8.0);
		printf("delta-uleb64 with the file as an SLEB128 delta: %zu bytes, %.2f B/row\n",
		       dd, (double)dd / (nk ? nk : 1));
		printf("delta-uleb64: %zu bytes, %.2f B/row (blocks of 64, ULEB128/SLEB128 deltas, same entries)\n",
		       du, (double)du / (nk ? nk : 1));
		if (given)
			printf("(the table given: %s)\n", given);
		printf("table: %u rows, %zu bytes, %.2f B/row\n", st.kept,
		       size, (double)size / (st.kept ? st.kept : 1));
	}
	if (do_check) {
		size_t checked = 0;

		for (i = 0; i < nk; i++) {
			if (check_one(tab, size, k, nk, k[i].off, base))
				return 1;
			checked++;
			if (k[i].off) {
				if (check_one(tab, size, k, nk, k[i].off - 1,
					      base))
					return 1;
				checked++;
			}
		}
		if (nk && k[nk - 1].off < UINT32_MAX) {
			if (check_one(tab, size, k, nk, k[nk - 1].off + 1, base))
				return 1;
			checked++;
		}
		printf("table-check: %zu lookups (every row start, start - 1, every end), all agree\n",
		       checked);
	}
	lo = nk ? k[0].off : 0;
	hi = nk ? k[nk - 1].off : 0;
	if (have_range) {
		lo = rlo;
		hi = rhi;
	}
	if (do_lat) {
		latency(tab, size, k, nk, lo, hi, seed, nlookups, &mean, &p99);
		printf("lookup: block %u, %zu random offsets covered by rows in [0x%x, 0x%x], seed %" PRIu64 ": mean %.0f ns (best of 3 passes), p99 %.0f ns\n",
		       block, nlookups, lo, hi, seed, mean, p99);
	}
	free(tab);
	if (do_curve) {
		static const uint32_t bs[] = { 64, 96, 128, 192, 256, 512,
					       1024 };

		printf("curve: %zu random offsets covered by rows in [0x%x, 0x%x], seed %" PRIu64 "\n",
		       nlookups, lo, hi, seed);
		printf("%6s %10s %6s %9s %8s\n", "block", "bytes", "B/row",
		       "mean_ns", "p99_ns");
		for (i = 0; i < sizeof(bs) / sizeof(bs[0]); i++) {
			tab = build(rows, n, bs[i], &size, &st);
			latency(tab, size, k, nk, lo, hi, seed, nlookups,
				&mean, &p99);
			printf("%6u %10zu %6.2f %9.0f %8.0f\n", bs[i], size,
			       (double)size / (st.kept ? st.kept : 1), mean,
			       p99);
			free(tab);
		}
	}
	free(k);
	free(rows);
	return 0;
}
