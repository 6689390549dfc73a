/* place_plan: the plan `straddle place` would give one arm, written
 * without running anything, for code straddle place cannot run itself
 * (AArch64 under qemu-user: tests/cmd/t_place_arm64.sh).
 *
 *   place_plan FILE GLOB OFFSET PLAN
 *       moves every movable function of FILE matching GLOB: its first
 *       loop (or, with none, its entry) at OFFSET of a 64 B line, or with
 *       OFFSET `random` (then SEED) each at its own random offset (a
 *       multiple of 4 on AArch64). Prints one line per moved function,
 *           moved NAME ADDR ANCHOR OFFSET SIZE
 *       (hex without 0x but OFFSET, the anchor the byte placed), one per
 *       refused one,
 *           refused NAME ADDR at WHERE: REASON
 *       then
 *           moved N refused M stubs S
 *       (S: short branches out, through a stub after their copy)
 *       and a line "refused COUNT REASON" per reason.
 *
 *   place_plan FILE GLOB OFFSET PLAN IMAGE BIAS ARENA
 *       and the first moved function's block (its copy and stubs) as the
 *       preload library writes it with the object at BIAS and the arena at
 *       ARENA (hex), into IMAGE; prints "image ADDR" (where it starts).
 *
 * Exit 0 when it wrote the plan, 2 on bad usage or input or when nothing
 * is movable. */
#include "base/base.h"
#include "relocate/relocate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return *s;
}

/* Where f's anchor (first loop, else entry) goes. */
static struct reloc_place place_of(struct reloc_file *rf, const struct reloc_func *f,
				   const char *spec, uint64_t *rng)
{
	struct reloc_loop *l;
	size_t n = strcmp(spec, "random") ? reloc_loops(rf, f, &l) : 0;
	uint32_t step = rf->img.arch == ARCH_AARCH64 ? 4 : 1;
	struct reloc_place p = { f, f->addr, 0, 64 };

	if (n)
		p.anchor = l[0].start;
	if (!strcmp(spec, "random"))
		p.offset = (uint32_t)(next(rng) % (64 / step)) * step;
	else
		p.offset = (uint32_t)strtoul(spec, NULL, 0), free(l);
	return p;
}

/* The block of pl[0] as reloc_image lays it out at arena[0] = ARENA. */
static int write_image(struct reloc_file *rf, const struct reloc_place *pl, size_t n, char **arg)
{
	uint64_t bias = strtoull(arg[1], NULL, 16), arena = strtoull(arg[2], NULL, 16);
	uint64_t *start = xcalloc(n + 1, sizeof *start);
	uint8_t *image = NULL;
	size_t size;
	struct err e;
	FILE *f;
	int rc = 2;

	if (reloc_image(rf, pl, n, bias, arena, &image, &size, start, &e))
		fprintf(stderr, "place_plan: %s\n", e.msg);
	else if (!(f = fopen(arg[0], "w")) ||
		 fwrite(image + start[0], 1, pl[0].f->block, f) != pl[0].f->block || fclose(f))
		fprintf(stderr, "place_plan: %s: cannot write\n", arg[0]);
	else
		printf("image %" PRIx64 "\n", arena + start[0]), rc = 0;
	free(image);
	free(start);
	return rc;
}

int main(int argc, char **argv)
{
	struct reloc_file rf;
	struct err e;
	struct reloc_place *pl;
	size_t n = 0, refused = 0, stubs = 0;
	uint64_t rng = 88172645463325252ull;
	const char *plan_path;
	FILE *out;

	if (argc < 5 || (!strcmp(argv[3], "random") ? argc != 6 : argc != 5 && argc != 8)) {
		fprintf(stderr, "usage: place_plan FILE GLOB OFFSET|random [SEED] PLAN "
			"[IMAGE BIAS ARENA]\n");
		return 2;
	}
	plan_path = argv[argc == 6 ? 5 : 4];
	if (argc == 6)
		rng ^= strtoull(argv[4], NULL, 0) * 0x9e3779b97f4a7c15ull;
	if (reloc_open(&rf, argv[1], &e)) {
		fprintf(stderr, "place_plan: %s\n", e.msg);
		return 2;
	}
	reloc_choose(&rf, argv[2]);
	pl = xcalloc(rf.nfn + 1, sizeof *pl);
	for (size_t i = 0; i < rf.nfn; i++) {
		if (rf.fn[i].refused != RELOC_OK) {
			printf("refused %s %" PRIx64 " at %" PRIx64 ": %s\n", rf.fn[i].name, rf.fn[i].addr,
			       rf.fn[i].refused_at, reloc_refusal_name(rf.fn[i].refused));
			refused++;
			continue;
		}
		pl[n] = place_of(&rf, &rf.fn[i], argv[3], &rng);
		stubs += rf.fn[i].nstub;
		printf("moved %s %" PRIx64 " %" PRIx64 " %u %" PRIx64 "\n", rf.fn[i].name, rf.fn[i].addr,
		       pl[n].anchor, pl[n].offset, rf.fn[i].size);
		n++;
	}
	printf("moved %zu refused %zu stubs %zu\n", n, refused, stubs);
	for (int r = 1; r < RELOC_NREFUSALS; r++)
		if (rf.refused[r])
			printf("refused %zu %s\n", rf.refused[r], reloc_refusal_name((enum reloc_refusal)r));
	struct reloc_plan_part part = { &rf, pl, n };
	int rc = 2;

	if (!n)
		fprintf(stderr, "place_plan: %s: nothing movable\n", argv[1]);
	else if (!(out = fopen(plan_path, "w")))
		fprintf(stderr, "place_plan: %s: cannot write\n", plan_path);
	else if (reloc_plan_write(&part, 1, out, &e) || fclose(out))
		fprintf(stderr, "place_plan: %s\n", e.msg);
	else
		rc = argc == 8 ? write_image(&rf, pl, n, argv + 5) : 0;
	free(pl);
	reloc_close(&rf);
	return rc;
}
