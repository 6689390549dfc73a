/* Shared by the files of the inputs layer only. */
#ifndef STRADDLE_INPUTS_INTERNAL_H
#define STRADDLE_INPUTS_INTERNAL_H

#include "inputs.h"

enum operand_kind { OP_FILE, OP_VDSO, OP_MODULE, OP_TREE, OP_PACKAGE, OP_MEMBER };

/* A file inside a directory or a package. */
struct member {
	char *rel;                      /* its path inside: "usr/bin/ls" */
	char *path;                     /* a directory's: the file to open */
	void *bytes;                    /* a package's, read out of it (taken ones) */
	size_t size;
	bool taken;                     /* in the shard */
	bool inflated;                  /* bytes decompressed already (a .ko.xz) */
	char *error;                    /* a directory that could not be read */
};

struct operand {
	enum operand_kind kind;
	char *arg;                      /* as given; a directory's without a trailing '/' */
	char *package, *rel;            /* OP_MEMBER: the package and the path in it */
	struct member *m;               /* sorted by rel (a package's once read) */
	size_t n, cap;
	bool taken;                     /* a unit itself (not a directory): in the shard */
	bool read;                      /* a package's members are in m */
	char *error;                    /* a package that could not be read */
};

/* e's message after "WHAT: " (err_set cannot read the message it writes);
 * returns -1. */
int err_prefix(struct err *e, const char *what);

struct member *operand_add(struct operand *op, const char *rel);
/* m sorted by rel (strcmp): the one order of members. */
void operand_sort(struct operand *op);
void operand_free(struct operand *op);

/* Every regular file under the directory op->arg, each once (tree.c). */
void tree_walk(struct operand *op);

/* "!<arch>\n" and debian-binary first: what dpkg-deb writes (deb(5)). */
int package_check(const char *path, struct err *e);

/* The regular files of a package's data.tar in archive order: want sees
 * each one's path inside ("usr/bin/ls") and first bytes and says whether
 * to read it whole; got takes the bytes (malloc's). -1 when the package
 * cannot be read, the reason in e. */
struct package_visit {
	bool (*want)(void *ctx, const char *rel, const uint8_t *head, size_t n);
	void (*got)(void *ctx, const char *rel, void *bytes, size_t n);
	void *ctx;
};
int package_read(const char *path, const struct package_visit *v, struct err *e);

/* A name ending .ko.xz, .ko.zst or .ko.gz. */
bool is_compressed_module(const char *name);
/* Such a module's bytes decompressed: *out malloc's. */
int module_decompress(const void *p, size_t n, void **out, size_t *nout, struct err *e);
/* A file's bytes whole (a compressed module's, decompressed). */
int module_read(const char *path, void **out, size_t *nout, struct err *e);

#endif
