/* The floor for `straddle scan`: a bare Zydis minimal-mode decode of the
 * same bytes. Every function range from
 * elf_functions is walked from its start with ZydisDecoderDecodeInstruction
 * and nothing else: no branch kinds, no CFG, no rules, no output. Bytes
 * that do not decode advance one, as in the scan.
 *
 *   zydis_walk FILE    prints "N instructions, B bytes, F functions, T s"
 *                      (T: the decode loop alone, without opening the file)
 *   zydis_walk --straddle FILE
 *                      the same walk through straddle's own decoder
 *                      (decode_run: the quick path, Zydis for the rest),
 *                      into a reused buffer: what the scan adds beyond its
 *                      decoding is the scan's time over this one.
 */
#include "base/base.h"
#include "decode/decode.h"
#include "elf/elf.h"

#include <Zydis/Zydis.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* decode_run over every function, as the scan's decode_function does. */
static uint64_t straddle_walk(const struct elf_image *img, const struct elf_funcs *funcs)
{
	struct decoder *d = decoder_new(img->arch);
	struct insn buf[4096];
	uint64_t count = 0;

	for (size_t k = 0; d && k < funcs->n; k++) {
		const struct elf_func *f = &funcs->v[k];
		const uint8_t *p = elf_func_bytes(img, f);
		size_t used;

		for (uint64_t off = 0; p && off < f->size; off += used)
			count += decode_run(d, p + off, f->size - off, f->addr + off, buf,
					    sizeof buf / sizeof buf[0], &used);
	}
	decoder_free(d);
	return count;
}

int main(int argc, char **argv)
{
	struct elf_image img;
	struct elf_funcs funcs;
	struct err e = { "" };
	ZydisDecoder z;
	uint64_t count = 0, bytes = 0;
	double t0;

	bool own = argc == 3 && strcmp(argv[1], "--straddle") == 0;

	if (argc != 2 && !own) {
		fprintf(stderr, "usage: zydis_walk [--straddle] FILE\n");
		return 2;
	}
	argv += own;
	if (elf_open_file(&img, argv[1], &e) || elf_functions(&img, &funcs, &e)) {
		fprintf(stderr, "zydis_walk: %s: %s\n", argv[1], e.msg);
		return 2;
	}
	if (img.arch != ARCH_X86_64) {
		fprintf(stderr, "zydis_walk: %s: not x86-64\n", argv[1]);
		return 2;
	}
	ZydisDecoderInit(&z, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	ZydisDecoderEnableMode(&z, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
	t0 = now();
	for (size_t k = 0; own && k < funcs.n; k++)
		bytes += funcs.v[k].size;
	if (own)
		count = straddle_walk(&img, &funcs);
	for (size_t k = 0; !own && k < funcs.n; k++) {
		const struct elf_func *f = &funcs.v[k];
		const uint8_t *p = elf_func_bytes(&img, f);
		ZydisDecodedInstruction insn;

		if (!p)
			continue;
		for (uint64_t off = 0; off < f->size; count++) {
			if (ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&z, NULL, p + off,
								       f->size - off, &insn)))
				off += insn.length;
			else
				off++;
		}
		bytes += f->size;
	}
	printf("%" PRIu64 " instructions, %" PRIu64 " bytes, %zu functions, %.3f s\n", count,
	       bytes, funcs.n, now() - t0);
	elf_funcs_free(&funcs);
	elf_close(&img);
	return 0;
}
