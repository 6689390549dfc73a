/* jump_dump: every indirect jump of every function and what straddle
 * resolves it to.
 *
 *   jump_dump FILE
 *       one line per indirect jump, hex without 0x:
 *           ADDR FUNC: T1 T2 ...      (the table's targets, sorted, unique)
 *           ADDR FUNC: slot           (jmp *GOT(%rip): a tail call)
 *           ADDR FUNC: unresolved
 *
 * Exit 0 when it ran, 2 on bad usage or input. */
#include "base/base.h"
#include "decode/decode.h"
#include "elf/elf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct elf_image img;
	struct elf_funcs funcs;
	struct err e;
	struct decoder *d;
	struct insn *insn = NULL;
	struct jump_targets jt = { 0 };
	size_t cap = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: jump_dump FILE\n");
		return 2;
	}
	if (elf_open_file(&img, argv[1], &e) || elf_functions(&img, &funcs, &e)) {
		fprintf(stderr, "jump_dump: %s\n", e.msg);
		return 2;
	}
	d = decoder_new(img.arch);
	for (size_t i = 0; d && i < funcs.n; i++) {
		const struct elf_func *f = &funcs.v[i];
		const uint8_t *p = elf_func_bytes(&img, f);
		size_t n = 0;

		if (!p)
			continue;
		GROW(insn, cap, f->size);
		for (uint64_t off = 0; off < f->size; off += insn[n++].len)
			decode_one(d, p + off, f->size - off, f->addr + off, &insn[n]);
		for (size_t k = 0; k < n; k++) {
			if (insn[k].kind != BR_JUMP_IND)
				continue;
			printf("%" PRIx64 " %s:", insn[k].addr, f->name);
			switch (decode_jump_table(d, &img, p, insn, n, k, &jt)) {
			case JUMP_TABLE: break;
			case JUMP_SLOT: printf(" slot"); break;
			case JUMP_UNKNOWN: printf(" unresolved"); break;
			}
			for (size_t t = 0; t < jt.n; t++)
				printf(" %" PRIx64, jt.v[t]);
			printf("\n");
		}
	}
	free(jt.v);
	free(insn);
	decoder_free(d);
	elf_funcs_free(&funcs);
	elf_close(&img);
	return d ? 0 : 2;
}
