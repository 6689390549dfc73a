/* The images this process runs with: its vDSO (seed 003: the functions whose
 * alignment was lost) and its C library. */
#include "elf.h"

#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

/* The vDSO's mapping from /proc/self/maps; its size bounds the image. */
static size_t vdso_mapping_size(uintptr_t start)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	size_t size = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == start &&
		    strstr(line, "[vdso]")) {
			size = hi - lo;
			break;
		}
	}
	fclose(f);
	return size;
}

int elf_open_vdso(struct elf_image *img, struct err *e)
{
	uintptr_t start = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	size_t size;

	memset(img, 0, sizeof *img);
	if (!start) {
		img->path = xstrdup("[vdso]");
		return err_set(e, "this process has no vDSO (AT_SYSINFO_EHDR is 0)");
	}
	size = vdso_mapping_size(start);
	if (!size) {
		img->path = xstrdup("[vdso]");
		return err_set(e, "the vDSO mapping is not in /proc/self/maps");
	}
	return elf_open_memory(img, (const void *)start, size, "[vdso]", e);
}

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	const char **out = data;
	const char *base;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name)
		return 0;
	base = strrchr(info->dlpi_name, '/');
	base = base ? base + 1 : info->dlpi_name;
	if (strncmp(base, "libc.so", 7) == 0) {
		*out = info->dlpi_name;
		return 1;
	}
	return 0;
}

const char *elf_libc_path(void)
{
	const char *path = NULL;

	dl_iterate_phdr(find_libc, &path);
	return path;
}
