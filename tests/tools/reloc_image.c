/* reloc_image FILE FUNC OFFSET ARENA OUT: the bytes straddle's plan puts in
 * the arena for FUNC of FILE, its entry at OFFSET of a line, with the
 * object at bias 0 and the arena at ARENA (hex), every fix-up applied: the
 * copy's block (code, stubs, tables) written to OUT, and its address
 * printed. t_place.sh holds it against the assembler's build of the same
 * function at that address. */
#include "relocate/relocate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct reloc_file rf;
	struct err e;
	uint8_t *image;
	size_t size;
	uint64_t start, arena;
	FILE *out;

	if (argc != 6)
		return fprintf(stderr, "usage: reloc_image FILE FUNC OFFSET ARENA OUT\n"), 2;
	arena = strtoull(argv[4], NULL, 16);
	if (reloc_open(&rf, argv[1], &e))
		return fprintf(stderr, "%s\n", e.msg), 2;
	if (reloc_choose(&rf, argv[2]) != 1 || rf.fn[0].refused)
		return fprintf(stderr, "%s: not one movable function\n", argv[2]), 2;
	struct reloc_place p = { &rf.fn[0], rf.fn[0].addr, (uint32_t)atoi(argv[3]), 64 };
	if (reloc_image(&rf, &p, 1, 0, arena, &image, &size, &start, &e))
		return fprintf(stderr, "%s\n", e.msg), 2;
	out = fopen(argv[5], "wb");
	if (!out || fwrite(image + start, 1, rf.fn[0].block_size, out) != rf.fn[0].block_size ||
	    fclose(out))
		return fprintf(stderr, "%s: cannot write\n", argv[5]), 2;
	printf("%#llx %llu\n", (unsigned long long)(arena + start),
	       (unsigned long long)rf.fn[0].block_size);
	free(image);
	reloc_close(&rf);
	return 0;
}
