/* Helpers shared by the files of the elf layer only. */
#ifndef STRADDLE_ELF_INTERNAL_H
#define STRADDLE_ELF_INTERNAL_H

#include "elf.h"

/* [off, off+len) lies inside the image. */
bool elf_range_ok(const struct elf_image *img, uint64_t off, uint64_t len);

/* NUL-terminated string at `off` of string-table section `strtab`, or ""
 * when the offset is outside it or the string runs off its end. */
const char *elf_string(const struct elf_image *img, const struct elf_section *strtab,
		       uint64_t off);

/* A section by name, or NULL. */
const struct elf_section *elf_section_named(const struct elf_image *img, const char *name);

/* Functions described by .eh_frame FDEs: appended to *v. */
void elf_fde_ranges(const struct elf_image *img, struct elf_func **v, size_t *n,
		    size_t *cap);

/* DIR/.build-id/xx/yyyy.debug for the image's build-id, DIR the first of
 * img->debug_dir and /usr/lib/debug where that file is; false when the
 * image has no build-id or neither has the file. */
bool elf_debug_file_path(const struct elf_image *img, char *path, size_t size);

/* The SIGBUS guard of a mapping (guard.c): a slot, or -1 when all are
 * taken; tripped when a page of it was lost to a truncation. */
int elf_guard_add(const void *p, size_t n);
bool elf_guard_tripped(int slot);
void elf_guard_remove(int slot);

/* Release the libdw state opened by elf_source_line. */
void elf_dwarf_close(struct elf_image *img);

#endif
