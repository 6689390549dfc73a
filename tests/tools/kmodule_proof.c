/* kmodule_proof: two routines of Debian 6.1's modules run from their own
 * bytes (a module linked in memory, kernels/routine.c) against what their
 * source says, for `make kernel-proofs` (scripts/kernel_proofs.sh). Their
 * contracts are not a clear's or a copy's, so kernels --check cannot hold
 * them to one; this does.
 *
 *	kmodule_proof crc32c FILE  crc32c-intel.ko's crc32c_intel_update(desc,
 *	                           data, len), the running CRC at desc+8 (the
 *	                           shash descriptor's context), against a
 *	                           bitwise CRC32C at every length 0..300 and
 *	                           every offset 0..63; the check value of
 *	                           "123456789"
 *	kmodule_proof i915 FILE    i915.ko's copy_perf_config_registers_or_number
 *	                           (kregs, n, user_regs, &user_n): n 8-byte
 *	                           entries stored 4 bytes at a time, its
 *	                           __ex_table's UACCESS entries making a fault
 *	                           -EFAULT: the user array ending at every byte
 *	                           before an unmapped page, n 1..40, 10 offsets
 *
 * FILE may be PACKAGE:/path/in/it. Last line "N agree, N differ"; exit 1
 * when any differs, 2 when the routine cannot be run. */
#include "kernels/kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned long agree, differ;

/* Counted; true when a failure is to be shown (the first five). */
static bool tally(int good)
{
	if (good) {
		agree++;
		return false;
	}
	return differ++ < 5;
}

static uint32_t crc32c_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78 : crc >> 1;
	}
	return crc;
}

static uint32_t crc_of(struct routine *rt, const struct placement *p, uint32_t init,
		       const void *data, size_t len)
{
	uint8_t desc[16] = { 0 };
	uint32_t got;

	memcpy(desc + 8, &init, 4);
	if (kernel_run(&rt->k, p, desc, data, len) != 0)
		return ~crc32c_bitwise(init, data, len);        /* returned no 0: differs */
	memcpy(&got, desc + 8, 4);
	return got;
}

static int crc32c(struct routine *rt)
{
	static struct placement p;
	uint8_t data[320];
	struct err e;

	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 131 + 7);
	for (uint32_t off = 0; off < 64; off++) {
		if (kernel_place(&rt->k, off, &p, &e))
			return fprintf(stderr, "kmodule_proof: %s\n", e.msg), 2;
		for (size_t len = 0; len <= 300; len++) {
			uint32_t init = ~(uint32_t)len;
			const uint8_t *src = data + len % 7;

			if (tally(crc_of(rt, &p, init, src, len) == crc32c_bitwise(init, src, len)))
				printf("FAIL offset %u, len %zu\n", off, len);
		}
		if (off == 0)
			printf("crc32c(\"123456789\") = %#x (its check value 0xe3069283)\n",
			       ~crc_of(rt, &p, ~0u, "123456789", 9));
		arena_free(&p);
	}
	return 0;
}

/* One call: the array's end k bytes before the page. x86 stores fault
 * whole, so exactly the 4-byte stores that end by the page are done. */
static int one_copy(struct routine *rt, const struct placement *p, uint8_t *edge,
		    const uint32_t *kregs, uint32_t n, size_t k, uint32_t *user_n)
{
	uint8_t *dst = edge - k;
	size_t done = k / 4 * 4 < 8 * n ? k / 4 * 4 : 8 * n;
	int32_t want = k >= 8 * n ? 0 : -14, r;
	int good;

	memset(edge - 8 * n, 0xee, 8 * n);
	*user_n = 5;
	r = (int32_t)kernel_run(&rt->k, p, dst, kregs, n);
	good = r == want && *user_n == n && memcmp(dst, kregs, done) == 0;
	for (size_t i = done; i < k && i < 8 * n && good; i++)
		good = dst[i] == 0xee;
	return good;
}

static int i915(struct routine *rt)
{
	static struct placement p;
	static uint32_t kregs[80], user_n;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *m = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long faults = 0;
	struct err e;

	if (m == MAP_FAILED || mprotect(m + page, (size_t)page, PROT_NONE))
		return fprintf(stderr, "kmodule_proof: no guard page\n"), 2;
	rt->call.set[0].value = (uintptr_t)&user_n;     /* rcx: &user_n_regs */
	for (int i = 0; i < 80; i++)
		kregs[i] = 0x11111111u * (uint32_t)(i % 15 + 1);
	for (uint32_t off = 0; off < 64; off += 7) {
		if (kernel_place(&rt->k, off, &p, &e))
			return fprintf(stderr, "kmodule_proof: %s\n", e.msg), 2;
		for (uint32_t n = 1; n <= 40; n++)
			for (size_t k = 0; k <= 8 * n; k++) {
				faults += k < 8 * n;
				if (tally(one_copy(rt, &p, m + page, kregs, n, k, &user_n)))
					printf("FAIL offset %u, %u entries, %zu bytes before the page\n",
					       off, n, k);
			}
		arena_free(&p);
	}
	printf("%lu calls made a fault\n", faults);
	munmap(m, 2 * (size_t)page);
	return 0;
}

int main(int argc, char **argv)
{
	bool crc = argc == 3 && strcmp(argv[1], "crc32c") == 0;
	struct routine_opts o = { argc == 3 ? argv[2] : "",
		crc ? "crc32c_intel_update" : "copy_perf_config_registers_or_number",
		crc ? "csum,src=rsi,len=rdx,ret=rax,dst=rdi" :
		      "csum,src=rdi,len=rsi,dst=rdx,ret=rax,rcx=0", NULL, NULL, NULL, 0 };
	struct routine *rt;
	struct err e;
	int rc;

	if (argc != 3 || (!crc && strcmp(argv[1], "i915") != 0)) {
		fprintf(stderr, "usage: kmodule_proof crc32c|i915 FILE\n");
		return 2;
	}
	if (routine_open(&o, &rt, &e))
		return fprintf(stderr, "kmodule_proof: %s\n", e.msg), 2;
	rc = crc ? crc32c(rt) : i915(rt);
	routine_free(rt);
	if (rc)
		return rc;
	printf("%s: %lu agree, %lu differ\n", o.func, agree, differ);
	return differ != 0;
}
