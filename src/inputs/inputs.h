/* inputs: the operands of scan and diff as the ELF images they scan, the
 * way a distribution ships them. An operand is
 *
 *   an ELF file (a kernel module .ko among them), or "vdso";
 *   a compressed kernel module (.ko.xz, .ko.zst, .ko.gz: Debian's since 6.x);
 *   a directory: every ELF file under it, symbolic links followed, each
 *     file once however many names reach it;
 *   a Debian package (.deb, .udeb, .ddeb): the ELF files of its data.tar,
 *     read with libarchive, named PACKAGE:/path/in/it;
 *   one member of a package, PACKAGE:/path/in/it.
 *
 * The order of a run is the operands' as given, and in a directory or a
 * package the members' by name (strcmp of the path inside it): one order,
 * so that shards merged (results/merge.c) are the run unsharded. In a
 * directory or package a file that is not ELF straddle reads (ELF64 of
 * x86-64 or AArch64) is no input; an operand given by name is, and says
 * why it cannot be scanned.
 *
 * --shard K/N: a run's units (an operand that is one file, each file of a
 * directory, each package whole: diff's, each member pair) split by a
 * stable hash of their names, K from 0 (a Kubernetes completion index). */
#ifndef STRADDLE_INPUTS_H
#define STRADDLE_INPUTS_H

#include "../base/base.h"
#include "../elf/elf.h"

/* ---- shards ---- */

struct shard {
	uint32_t index, count;          /* count 0: the whole run */
};

#define SHARD_MAX 65536

/* "K/N", 0 <= K < N <= SHARD_MAX; -1 with the reason in e. */
int shard_parse(const char *spec, struct shard *s, struct err *e);
/* Does shard s take the unit named `name`? FNV-1a (64 bits) of its bytes
 * mod N: the same on every machine, so a build farm's hosts agree. */
bool shard_takes(const struct shard *s, const char *name);

/* What a shard's document says of itself, so that a merge can tell a
 * missing or foreign shard: its place, the units it took and the run's. */
struct shard_info {
	struct shard shard;
	size_t units, units_total;
};

/* ---- a run's files, one at a time (scan) ---- */

/* The operands given, then those one a line of the file at path ("-":
 * standard input), for a run of more packages than a command line holds
 * (Debian's amd64 main: ~60,000 paths, past ARG_MAX); empty lines
 * skipped. *ops copies, inputs_list_free them; -1 with e. */
int inputs_list(const char *path, const char *const *given, size_t ngiven, char ***ops, size_t *n,
		struct err *e);
void inputs_list_free(char **ops, size_t n);

struct operand;

struct inputs {
	struct operand *op;
	size_t nop;
	struct shard shard;
	const char *debug_dir;          /* given to each image (elf_image.debug_dir) */
	size_t units, units_total;      /* the shard's, and the whole run's */
	/* the iteration: operand, member of it, and the image last handed out */
	size_t at, member;
	struct elf_image img;
	char *name, *error;
};

/* Every operand checked before anything is scanned: a package that is no
 * ar archive holding debian-binary first, a member that is not in its
 * package or not ELF, a directory that is none: -1 with one line in e
 * (its first words name the operand). Directories are walked here (the
 * run's units are counted in every shard); packages are read when their
 * turn comes. */
int inputs_open(struct inputs *in, char *const *ops, size_t n, const struct shard *s,
		const char *debug_dir, struct err *e);

/* One file of the run. */
struct input_file {
	const char *name;               /* as its rows name it */
	size_t operand;                 /* which operand it came from, from 0 */
	struct elf_image *img;          /* open, or NULL: */
	const char *error;              /* why it could not be read */
};

/* The next file of the shard, in the run's order: 1, or 0 at the end. The
 * image is the caller's until the next call (which closes it). */
int inputs_next(struct inputs *in, struct input_file *f);
void inputs_close(struct inputs *in);

/* One operand that is one file (an ELF file, a compressed module, a
 * member PACKAGE:/path) opened as inputs_next opens it, the image the
 * caller's (elf_close). A directory, a package whole or "vdso" is refused.
 * 0, or -1 with one line in e naming it. */
int inputs_open_one(const char *op, struct elf_image *img, struct err *e);

/* ---- pairs of two operands' files (diff) ---- */

/* Is the operand a directory or a package (its files are matched by
 * name), rather than one ELF file? */
bool input_is_many(const char *op);

struct input_pair {
	const char *member;             /* the path inside both operands */
	struct input_file old, new;     /* img NULL and error NULL: not on that side */
};

struct pairs {
	struct operand *side[2];        /* old, new */
	struct shard shard;
	const char *debug_dir;
	size_t units, units_total;
	size_t i, j;                    /* the next member of each side */
	struct elf_image img[2];
	char *name[2], *error[2];
};

/* Two directories or packages (or one of each), checked as inputs_open
 * checks operands, and their members matched by the path inside them. */
int pairs_open(struct pairs *p, const char *old, const char *new, const struct shard *s,
	       const char *debug_dir, struct err *e);
/* The next pair of the shard in member order, at least one side an ELF
 * file: 1, or 0 at the end; images the caller's until the next call. */
int pairs_next(struct pairs *p, struct input_pair *out);
void pairs_close(struct pairs *p);

#endif
