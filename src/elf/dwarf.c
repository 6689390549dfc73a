/* Source lines through libdw: from the image's own DWARF, else from the
 * separate debug file named by its build-id (Debian's *-dbg packages put
 * them under /usr/lib/debug/.build-id/). Opened lazily: most scans print
 * a handful of lines and need no DWARF at all.
 *
 * A relocatable object (.o, .ko) holds its .debug_line unrelocated: every
 * address in it is 0 plus a relocation against a section. libdwfl applies
 * .rela.debug_* when it reports the file offline, and lays the sections
 * out at addresses of its own; an address of ours (an offset in section
 * `sec`) is that section's address there plus the offset. */
#include "elf.h"
#include "internal.h"

#include <elf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <elfutils/version.h>
#include <fcntl.h>
#include <gelf.h>
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
	Dwfl *dwfl;             /* a relocatable object's, relocated */
	Dwfl_Module *mod;
	char *dwfl_bytes;       /* libdwfl's own copy of an image in memory */
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* An image read out of a package is no file: libdwfl is given a copy of
 * its bytes, since it relocates the .debug_* sections in place, and in a
 * broken object those may overlap the code a later scan of the same image
 * decodes (found by the fuzzer: a second scan read two more instructions). */
static void open_relocated(struct elf_image *img, struct dwarf_state *st)
{
	if (strcmp(img->path, "[vdso]") == 0 || !(st->dwfl = dwfl_begin(&offline_callbacks)))
		return;
	if (img->from_file)
		st->mod = dwfl_report_offline(st->dwfl, img->path, img->path, -1);
	else {
		st->dwfl_bytes = xmalloc(img->size ? img->size : 1);
		memcpy(st->dwfl_bytes, img->data, img->size);
		st->mod = dwfl_report_offline_memory(st->dwfl, img->path, img->path,
						     st->dwfl_bytes, img->size);
	}
	dwfl_report_end(st->dwfl, NULL, NULL);
}

/* Offset `off` of section `sec` where libdwfl placed that section. */
static bool relocated_address(const struct dwarf_state *st, uint32_t sec, uint64_t off,
			      Dwarf_Addr *addr)
{
	GElf_Addr bias;
	GElf_Shdr sh;
	Elf *e = dwfl_module_getelf(st->mod, &bias);
	Elf_Scn *scn = e ? elf_getscn(e, sec) : NULL;

	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return false;
	*addr = sh.sh_addr + off + bias;
	return true;
}

static void format_line(const char *file, int lineno, char *buf, size_t n)
{
	const char *base = strrchr(file, '/');

	snprintf(buf, n, "%s:%d", base ? base + 1 : file, lineno);
}

/* DIR/.build-id/xx/yyyy.debug, the layout of Debian's -dbg and -dbgsym
 * packages and of gdb's debug-file-directory. */
static bool build_id_path(const struct elf_image *img, const char *dir, char *path, size_t size)
{
	size_t n = (size_t)snprintf(path, size, "%s/.build-id/%02x/", dir, img->build_id[0]);

	for (size_t i = 1; i < img->build_id_len && n + 3 < size; i++)
		n += (size_t)snprintf(path + n, size - n, "%02x", img->build_id[i]);
	return n + 7 <= size && snprintf(path + n, size - n, ".debug") == 6;
}

bool elf_debug_file_path(const struct elf_image *img, char *path, size_t size)
{
	const char *dirs[2] = { img->debug_dir, "/usr/lib/debug" };

	if (img->build_id_len < 2)
		return false;
	for (int i = 0; i < 2; i++)
		if (dirs[i] && build_id_path(img, dirs[i], path, size) && access(path, R_OK) == 0)
			return true;
	return false;
}

/* Opened like any input (type checked, mapped under the SIGBUS guard), then
 * handed to libdw from memory. */
static void open_debug_file(struct elf_image *img, struct dwarf_state *st)
{
	char path[4200];
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
	elf_version(EV_CURRENT);
	if (img->type == ET_REL) {
		open_relocated(img, st);
		return st;
	}
	st->elf = elf_memory((char *)img->data, img->size);
	if (st->elf)
		st->dw = dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
	if (!st->dw)
		open_debug_file(img, st);
	return st;
}

static bool relocated_location(const struct dwarf_state *st, uint32_t sec, uint64_t off,
			       const char **file, int *lineno)
{
	Dwarf_Addr addr;
	Dwfl_Line *line;

	return st->mod && relocated_address(st, sec, off, &addr) &&
	       (line = dwfl_module_getsrc(st->mod, addr)) &&
	       (*file = dwfl_lineinfo(line, NULL, lineno, NULL, NULL, NULL));
}

/* Clang writes no .debug_aranges (dwarf_addrdie reads them): the unit
 * whose ranges hold the address, one unit after another. */
static bool unit_by_ranges(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t header;

	while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + header, cu) && dwarf_haspc(cu, addr) == 1)
			return true;
		off = next;
	}
	return false;
}

/* The compile unit holding an address of `sec`, and the address in it. */
static bool unit_die(struct elf_image *img, uint32_t sec, uint64_t addr, Dwarf_Die *cu)
{
	struct dwarf_state *st = dwarf_state(img);
	Dwarf_Addr bias = 0, a = addr;
	Dwarf_Die *die;

	if (img->type != ET_REL)
		return st->dw && (dwarf_addrdie(st->dw, addr, cu) || unit_by_ranges(st->dw, addr, cu));
	if (!st->mod || !relocated_address(st, sec, addr, &a) ||
	    !(die = dwfl_module_addrdie(st->mod, a, &bias)))
		return false;
	*cu = *die;
	return true;
}

/* The source file (as DWARF names it) and line of an address; the file
 * string lives as long as the image's DWARF. */
static bool source_location(struct elf_image *img, uint32_t sec, uint64_t addr,
			    const char **file, int *lineno)
{
	struct dwarf_state *st = dwarf_state(img);
	Dwarf_Die cu;
	Dwarf_Line *line;

	*lineno = 0;
	if (img->type == ET_REL)
		return relocated_location(st, sec, addr, file, lineno);
	return unit_die(img, sec, addr, &cu) && (line = dwarf_getsrc_die(&cu, addr)) &&
	       (*file = dwarf_linesrc(line, NULL, NULL)) && dwarf_lineno(line, lineno) == 0;
}

const char *elf_source_line(struct elf_image *img, uint32_t sec, uint64_t addr, char *buf,
			    size_t n)
{
	const char *file;
	int lineno;

	buf[0] = 0;
	if (source_location(img, sec, addr, &file, &lineno))
		format_line(file, lineno, buf, n);
	return buf;
}

/* A relative file name is relative to its unit's DW_AT_comp_dir
 * (DWARF 5, 2.14): as-built paths (gcc -g dir/x.S) then read as files. */
bool elf_source_file(struct elf_image *img, uint32_t sec, uint64_t addr, char *file, size_t n,
		     int *lineno)
{
	const char *f, *dir = NULL;
	Dwarf_Die cu;
	Dwarf_Attribute at;

	if (!source_location(img, sec, addr, &f, lineno))
		return false;
	if (f[0] != '/' && unit_die(img, sec, addr, &cu) && dwarf_attr(&cu, DW_AT_comp_dir, &at))
		dir = dwarf_formstring(&at);
	if (dir && *dir)
		snprintf(file, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", f);
	else
		snprintf(file, n, "%s", f);
	return true;
}

const char *elf_producer(struct elf_image *img, uint32_t sec, uint64_t addr, char *buf, size_t n)
{
	Dwarf_Die cu;
	Dwarf_Attribute at;
	const char *s;

	buf[0] = 0;
	if (unit_die(img, sec, addr, &cu) && dwarf_attr(&cu, DW_AT_producer, &at) &&
	    (s = dwarf_formstring(&at)))
		snprintf(buf, n, "%s", s);
	return buf;
}

void elf_dwarf_close(struct elf_image *img)
{
	struct dwarf_state *st = img->dwarf;

	if (!st)
		return;
	if (st->dwfl)
		dwfl_end(st->dwfl);
	free(st->dwfl_bytes);
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
