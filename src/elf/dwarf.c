/* Source lines through libdw: from the image's own DWARF, else from the
 * separate debug file named by its build-id (Debian's *-dbg packages put
 * them under /usr/lib/debug/.build-id/). Opened lazily: most scans print
 * a handful of lines and need no DWARF at all. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/version.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dwarf_state {
	Elf *elf;
	Dwarf *dw;
	struct elf_image debug;         /* the separate debug file, if opened */
	bool tried;
};

bool elf_debug_file_path(const struct elf_image *img, char *path, size_t size)
{
	int n;

	if (img->build_id_len < 2 || size < 64)
		return false;
	n = snprintf(path, size, "/usr/lib/debug/.build-id/%02x/", img->build_id[0]);
	for (size_t i = 1; i < img->build_id_len && n < (int)size - 8; i++)
		n += snprintf(path + n, size - (size_t)n, "%02x", img->build_id[i]);
	snprintf(path + n, size - (size_t)n, ".debug");
	return true;
}

/* Opened like any input (type checked, mapped under the SIGBUS guard), then
 * handed to libdw from memory. */
static void open_debug_file(struct elf_image *img, struct dwarf_state *st)
{
	char path[256];
	struct err e;

	if (!elf_debug_file_path(img, path, sizeof path) ||
	    elf_open_file(&st->debug, path, &e) != 0)
		return;
	if (st->elf)
		elf_end(st->elf);
	st->elf = elf_memory((char *)st->debug.data, st->debug.size);
	if (st->elf)
		st->dw = dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
}

static struct dwarf_state *dwarf_state(struct elf_image *img)
{
	struct dwarf_state *st = img->dwarf;

	if (st)
		return st;
	st = xcalloc(1, sizeof *st);
	img->dwarf = st;
	/* Relocatable objects would need their .rela.debug_* applied first. */
	if (img->type == ET_REL)
		return st;
	elf_version(EV_CURRENT);
	st->elf = elf_memory((char *)img->data, img->size);
	if (st->elf)
		st->dw = dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
	if (!st->dw)
		open_debug_file(img, st);
	return st;
}

const char *elf_source_line(struct elf_image *img, uint64_t addr, char *buf, size_t n)
{
	struct dwarf_state *st = dwarf_state(img);
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file, *base;
	int lineno = 0;

	buf[0] = 0;
	if (!st->dw || !dwarf_addrdie(st->dw, addr, &cu))
		return buf;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line || !(file = dwarf_linesrc(line, NULL, NULL)) ||
	    dwarf_lineno(line, &lineno) != 0)
		return buf;
	base = strrchr(file, '/');
	snprintf(buf, n, "%s:%d", base ? base + 1 : file, lineno);
	return buf;
}

void elf_dwarf_close(struct elf_image *img)
{
	struct dwarf_state *st = img->dwarf;

	if (!st)
		return;
	if (st->dw)
		dwarf_end(st->dw);
	if (st->elf)
		elf_end(st->elf);
	elf_close(&st->debug);
	free(st);
	img->dwarf = NULL;
}

const char *elf_library_version(void)
{
	static char v[32];

	snprintf(v, sizeof v, "elfutils %d.%03d", _ELFUTILS_VERSION / 1000, _ELFUTILS_VERSION % 1000);
	return v;
}
