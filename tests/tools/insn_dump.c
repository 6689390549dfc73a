/* insn_dump: instruction boundaries as straddle decodes them, to check
 * against `objdump -d`.
 *
 *   insn_dump FILE
 *       every function (elf_functions) as "func START END NAME", then one
 *       line per instruction start inside it, hex without 0x. Each
 *       function is walked from its start exactly as the scan does
 *       (src/model/scan.c, decode_function).
 *
 *   insn_dump --compare ADDRS FILE [START]
 *       ADDRS holds objdump's instruction start addresses, one hex number a
 *       line, any order. For every function, the set of ADDRS inside
 *       [START, END) must equal our set of starts. Prints one line per
 *       function that differs:
 *           mismatch NAME START END at ADDR: objdump LEN|-, ours LEN|-
 *       (ADDR the first address where the two disagree; LEN the length of
 *       the instruction each side starts there, "-" when that side has
 *       none), then "compared N functions, M mismatched". With START (hex),
 *       only the function that starts there is compared.
 *
 *   insn_dump --check FILE
 *       x86-64: every instruction of every function decoded by the quick
 *       path (decode/x86_quick.c) and by Zydis alone; one line per
 *       instruction they disagree on ("differ ADDR BYTES"), then
 *       "checked N instructions, Q quick, M differ".
 *
 * Exit 0 when it ran (mismatches or not), 2 on bad usage or input. */
#include "base/base.h"
#include "decode/decode.h"
#include "elf/elf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct walk {
	struct decoder *dec;
	struct insn *insn;
	size_t n, cap;
};

/* Same loop as scan.c's decode_function: from the start, step by length. */
static void decode_function(struct walk *w, const struct elf_image *img,
			    const struct elf_func *f)
{
	const uint8_t *p = elf_func_bytes(img, f);

	w->n = 0;
	if (!p)
		return;
	for (uint64_t off = 0; off < f->size; w->n++) {
		GROW(w->insn, w->cap, w->n + 1);
		decode_one(w->dec, p + off, f->size - off, f->addr + off, &w->insn[w->n]);
		off += w->insn[w->n].len;
	}
}

static int by_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Sorted, deduplicated addresses from a file of hex numbers. */
static uint64_t *read_addrs(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	uint64_t *v = NULL, a;
	size_t cap = 0, k = 0;
	char line[64];

	*n = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof line, f)) {
		char *end;

		a = strtoull(line, &end, 16);
		if (end == line)
			continue;
		GROW(v, cap, *n + 1);
		v[(*n)++] = a;
	}
	fclose(f);
	if (*n == 0)
		return v ? v : xmalloc(1);
	qsort(v, *n, sizeof *v, by_addr);
	for (size_t i = 1; i < *n; i++)
		if (v[i] != v[k])
			v[++k] = v[i];
	*n = k + 1;
	return v;
}

/* First index of v[0..n) with v[i] >= a. */
static size_t lower_bound(const uint64_t *v, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void print_len(const char *who, bool has, uint64_t len)
{
	if (has)
		printf("%s %" PRIu64, who, len);
	else
		printf("%s -", who);
}

/* Compare one function; returns true when it agrees. The length of
 * objdump's instruction at an address is the distance to its next start
 * (or to the end of the function for the last one). */
static bool compare(const struct walk *w, const struct elf_func *f,
		    const uint64_t *od, size_t nod)
{
	uint64_t end = f->addr + f->size;
	size_t i = lower_bound(od, nod, f->addr), j = 0;

	while (i < nod && od[i] < end && j < w->n && od[i] == w->insn[j].addr) {
		i++;
		j++;
	}
	bool od_more = i < nod && od[i] < end, ours_more = j < w->n;

	if (!od_more && !ours_more)
		return true;
	uint64_t at = !od_more ? w->insn[j].addr : !ours_more ? od[i] :
		      od[i] < w->insn[j].addr ? od[i] : w->insn[j].addr;
	bool od_has = od_more && od[i] == at, ours_has = ours_more && w->insn[j].addr == at;
	uint64_t od_len = 0;

	if (od_has)
		od_len = (i + 1 < nod && od[i + 1] < end ? od[i + 1] : end) - at;
	printf("mismatch %s %" PRIx64 " %" PRIx64 " at %" PRIx64 ": ", f->name, f->addr, end, at);
	print_len("objdump", od_has, od_len);
	printf(", ");
	print_len("ours", ours_has, ours_has ? w->insn[j].len : 0);
	printf("\n");
	return false;
}

/* The quick path against Zydis at each instruction start of f. */
static void check_function(const struct walk *w, const struct elf_image *img,
			   const struct elf_func *f, size_t *quick, size_t *differ)
{
	const uint8_t *p = elf_func_bytes(img, f);

	for (size_t i = 0; p && i < w->n; i++) {
		uint64_t off = w->insn[i].addr - f->addr;
		bool q;

		if (!decode_quick_agrees(w->dec, p + off, f->size - off, &q)) {
			(*differ)++;
			printf("differ %" PRIx64, w->insn[i].addr);
			for (uint64_t k = off; k < f->size && k < off + 15; k++)
				printf(" %02x", p[k]);
			printf("\n");
		}
		*quick += q;
	}
}

int main(int argc, char **argv)
{
	const char *addrs_path = NULL, *path;
	struct elf_image img;
	struct elf_funcs funcs;
	struct walk w = { 0 };
	struct err e = { "" };
	uint64_t *od = NULL, only = 0;
	size_t nod = 0, compared = 0, bad = 0;
	bool has_only = false, check = false;
	size_t checked = 0, quick = 0, differ = 0;

	if ((argc == 4 || argc == 5) && strcmp(argv[1], "--compare") == 0) {
		addrs_path = argv[2];
		path = argv[3];
		if (argc == 5) {
			has_only = true;
			only = strtoull(argv[4], NULL, 16);
		}
	} else if (argc == 3 && strcmp(argv[1], "--check") == 0) {
		check = true;
		path = argv[2];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: insn_dump [--compare ADDRS FILE [START] | --check FILE] | FILE\n");
		return 2;
	}
	if (addrs_path && !(od = read_addrs(addrs_path, &nod))) {
		fprintf(stderr, "insn_dump: %s: cannot read\n", addrs_path);
		return 2;
	}
	if (elf_open_file(&img, path, &e) || elf_functions(&img, &funcs, &e)) {
		fprintf(stderr, "insn_dump: %s: %s\n", path, e.msg);
		elf_close(&img);
		free(od);
		return 2;
	}
	w.dec = decoder_new(img.arch);
	if (!w.dec) {
		fprintf(stderr, "insn_dump: %s: no decoder for %s\n", path, arch_name(img.arch));
		elf_funcs_free(&funcs);
		elf_close(&img);
		free(od);
		return 2;
	}
	for (size_t k = 0; k < funcs.n; k++) {
		const struct elf_func *f = &funcs.v[k];

		if (has_only && f->addr != only)
			continue;
		decode_function(&w, &img, f);
		if (check) {
			check_function(&w, &img, f, &quick, &differ);
			checked += w.n;
			continue;
		}
		if (od) {
			compared++;
			bad += !compare(&w, f, od, nod);
			continue;
		}
		printf("func %" PRIx64 " %" PRIx64 " %s\n", f->addr, f->addr + f->size, f->name);
		for (size_t i = 0; i < w.n; i++)
			printf("%" PRIx64 "\n", w.insn[i].addr);
	}
	if (od)
		printf("compared %zu functions, %zu mismatched\n", compared, bad);
	if (check)
		printf("checked %zu instructions, %zu quick, %zu differ\n", checked, quick, differ);
	decoder_free(w.dec);
	free(w.insn);
	free(od);
	elf_funcs_free(&funcs);
	elf_close(&img);
	return 0;
}
