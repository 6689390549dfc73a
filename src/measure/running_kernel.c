/* The running kernel, as a record needs it to place kernel samples later:
 * its release, its build-id (/sys/kernel/notes, to tell whether a vmlinux
 * is this kernel), where _text is (KASLR moves it) and its text symbols
 * from /proc/kallsyms, which is all there is without the image. */
#include "sample.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* The GNU build-id note among the kernel's notes. */
static void read_build_id(char *out)
{
	uint8_t buf[4096];
	size_t n, off = 0;
	FILE *f = fopen("/sys/kernel/notes", "rb");

	out[0] = 0;
	if (!f)
		return;
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t nsz, dsz, type;
		size_t desc;

		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc = off + 12 + ((nsz + 3u) & ~3u);
		if (desc > n || dsz > n - desc || dsz > 64)
			return;
		if (type == 3 /* NT_GNU_BUILD_ID */ && nsz == 4 && memcmp(buf + off + 12, "GNU", 4) == 0) {
			for (uint32_t i = 0; i < dsz; i++)
				snprintf(out + 2 * i, 3, "%02x", buf[desc + i]);
			return;
		}
		off = desc + ((dsz + 3u) & ~3u);
	}
}

static int by_addr(const void *a, const void *b)
{
	const struct hot_ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

void running_kernel_describe(struct hot_run *h)
{
	struct utsname u;
	char line[512], name[256];
	FILE *f;

	if (uname(&u) == 0)
		snprintf(h->kernel_release, sizeof h->kernel_release, "%s", u.release);
	read_build_id(h->kernel_build_id);
	if (!(f = fopen("/proc/kallsyms", "r")))
		return;
	while (fgets(line, sizeof line, f)) {
		unsigned long long addr;
		char type;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || addr == 0)
			continue;               /* addresses hidden (kptr_restrict) */
		if (strcmp(name, "_text") == 0)
			h->kernel_text = addr;
		if (type != 't' && type != 'T')
			continue;
		GROW(h->ksym, h->ksym_cap, h->nksym + 1);
		h->ksym[h->nksym++] = (struct hot_ksym){ xstrdup(name), addr, 0 };
	}
	fclose(f);
	qsort(h->ksym, h->nksym, sizeof *h->ksym, by_addr);
}
