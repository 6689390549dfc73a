/* A hazard in words, as the tables and the SARIF say it: its severity,
 * fix, placement, cost, profiles and windows, and the fix in the words of
 * the compiler that built the code. */
#include "rows.h"

#include <stdlib.h>
#include <string.h>

const char *severity_name(enum severity s)
{
	return s >= SEVERITY_HIGH ? "high" : s == SEVERITY_MEDIUM ? "medium" : "low";
}

static unsigned log2_of(unsigned a)
{
	unsigned k = 0;

	while ((1u << k) < a)
		k++;
	return k;
}

/* "`.p2align 6` (+20 B); `.p2align 5` holds only here". */
void format_fix(const struct hazard *h, char *buf, size_t n)
{
	int k = 0;

	if (h->fix_align)
		k = snprintf(buf, n, ".p2align %u (+%u B)%s", log2_of(h->fix_align), h->fix_pad,
			     h->fix_clean ? "" : ", adds another");
	else if (h->fix_layout)
		/* GCC lays the exit out as the fall-through when it predicts
		 * the loop leaves (its block reordering, -freorder-blocks-
		 * algorithm=stc at -O2); the prediction or the algorithm moves it */
		k = snprintf(buf, n, "none by alignment: move the exit out from between the pieces "
			     "(__builtin_expect, a profile, -freorder-blocks-algorithm)");
	else
		k = snprintf(buf, n, "none by alignment");
	if (h->here_align && k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "; .p2align %u (+%u B) holds only here%s",
			 log2_of(h->here_align), h->here_pad, h->here_clean ? "" : ", adds another");
}

void format_placement(const struct hazard *h, char *buf, size_t n)
{
	if (h->certain)
		snprintf(buf, n, "certain");
	else
		snprintf(buf, n, "%u of %u", h->bad_placements, h->all_placements);
}

void format_loop_placement(const struct hazard *h, bool span_uncertain, char *buf, size_t n)
{
	if (!span_uncertain)
		format_placement(h, buf, n);
	else if (h->certain)
		snprintf(buf, n, "placement certain, span uncertain");
	else
		snprintf(buf, n, "%u of %u, span uncertain", h->bad_placements, h->all_placements);
}

void format_cost(const struct hazard *h, char *buf, size_t n)
{
	if (h->slowdown > 0)
		snprintf(buf, n, "%s%.2fx", h->slowdown_at_most ? "<=" : "", h->slowdown);
	else
		snprintf(buf, n, "-");
}

double hazard_saves(const struct hazard *h, double share)
{
	return h->slowdown > 0 ? share - share / h->slowdown : share;
}

const struct hazard *costliest_hazard(const struct hazard *const *h, size_t n)
{
	const struct hazard *best = h[0];

	for (size_t i = 1; i < n; i++)
		if (h[i]->slowdown > best->slowdown)
			best = h[i];
	return best;
}

enum price_tier price_tier(const struct hazard *h)
{
	if (h->slowdown > 0 && h->slowdown <= 1 && is_priced_rule(h->rule))
		return TIER_FREE;
	return h->slowdown > 1 && !h->slowdown_at_most ? TIER_PRICED : TIER_BOUND;
}

/* The one that leads a row: the highest severity, then a certain one. */
const struct hazard *worst_hazard(const struct hazard *const *h, size_t n)
{
	const struct hazard *w = h[0];

	for (size_t i = 1; i < n; i++)
		if (h[i]->severity > w->severity ||
		    (h[i]->severity == w->severity && h[i]->certain && !w->certain))
			w = h[i];
	return w;
}

void format_profiles(const struct hazard *const *h, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && strcmp(h[j]->profile->name, h[i]->profile->name))
			j++;
		if (j == i)
			sb_addf(out, "%s%s", out->len ? "," : "", h[i]->profile->name);
	}
}

size_t hazard_windows(const struct hazard *const *h, size_t n, unsigned out[16])
{
	size_t ns = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < ns && out[j] < h[i]->window)
			j++;
		if ((j < ns && out[j] == h[i]->window) || ns == 16)
			continue;
		memmove(out + j + 1, out + j, (ns - j) * sizeof *out);
		out[j] = h[i]->window;
		ns++;
	}
	return ns;
}

void format_window_list(const struct hazard *const *h, size_t n, char *buf, size_t len)
{
	unsigned w[16];
	size_t nw = hazard_windows(h, n, w);
	int k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < nw && k >= 0 && (size_t)k < len; i++)
		k += snprintf(buf + k, len - (size_t)k, "%s%u", i ? "," : "", w[i]);
}

/* Each hazard's fix holds wherever the subject lands at its .p2align, and a
 * placement aligned to 2A is aligned to A: the largest of them holds for
 * every profile and window (one loop had .p2align 3 and .p2align 5 in two
 * rows). Its padding is that fix's own; "adds another" is known per profile,
 * so it is said when any with that alignment says it. A hazard no alignment
 * fixes leaves each profile's fix to be said. */
unsigned fix_align_all(const struct hazard *const *h, size_t n)
{
	unsigned a = 0;

	for (size_t i = 0; i < n; i++) {
		if (!h[i]->fix_align)
			return 0;
		if (h[i]->fix_align > a)
			a = h[i]->fix_align;
	}
	return a;
}

void format_fix_all(const struct hazard *const *h, size_t n, char *buf, size_t len)
{
	struct hazard best = *h[0];
	bool all_fixed = true, same_here = true;
	int k = 0;

	for (size_t i = 0; i < n; i++) {
		all_fixed &= h[i]->fix_align != 0;
		same_here &= h[i]->here_align == h[0]->here_align;
		if (h[i]->fix_align > best.fix_align)
			best = *h[i];
	}
	if (all_fixed) {
		for (size_t i = 0; i < n; i++)
			best.fix_clean &= h[i]->fix_align != best.fix_align || h[i]->fix_clean;
		if (!same_here)
			best.here_align = 0;
		format_fix(&best, buf, len);
		return;
	}
	/* the same words for each (one hazard, or none fixable alike): once */
	format_fix(h[0], buf, len);
	for (size_t i = 1; i < n; i++) {
		char one[192];

		format_fix(h[i], one, sizeof one);
		if (strcmp(one, buf))
			break;
		if (i == n - 1)
			return;
	}
	if (n == 1)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < n && k >= 0 && (size_t)k < len; i++) {
		char one[192];

		format_fix(h[i], one, sizeof one);
		k += snprintf(buf + k, len - (size_t)k, "%s%s@%u: %s", i ? "; " : "",
			      h[i]->profile->name, h[i]->window, one);
	}
}

/* The major version of "... clang version 14.0.6 ...", 0 when not there. */
static unsigned clang_major(const char *producer)
{
	const char *v = strstr(producer, "clang version ");

	return v ? (unsigned)strtoul(v + strlen("clang version "), NULL, 10) : 0;
}

/* " (this unit: -falign-loops=16)": the flag as the unit was built with
 * it (Debian's -grecord-gcc-switches puts the flags in the producer). */
static void unit_flag(const char *producer, const char *flag, char *buf, size_t n)
{
	const char *f = strstr(producer, flag);
	size_t len = f ? strcspn(f, " ") : 0;

	buf[0] = 0;
	if (f)
		snprintf(buf, n, " (this unit: %.*s)", (int)len, f);
}

/* The fix in the words of what built the code ("`.p2align N`" is right for
 * assembly; a C programmer needs the flag or attribute). GCC: -falign-loops=N
 * and -falign-functions=N align to N, skipping up to N-1 bytes when no skip
 * is given (GCC manual, Optimize Options); __attribute__((aligned(N))) on a
 * function aligns its entry. Clang: -falign-loops=N for the unit (Clang 14 on
 * this machine moved a loop from 16 to 32 B with it; -mllvm -align-loops=32
 * left it where it was), [[clang::code_align(N)]] on one loop from Clang 17
 * (Clang attribute reference). The kernel: its assembly is aligned by
 * .p2align inside SYM_FUNC_START's body, and
 * CONFIG_DEBUG_FORCE_FUNCTION_ALIGN_64B aligns every function to 64. jcc: a
 * branch of Skylake's JCC erratum rule. */
void format_compiler_fix(const char *producer, unsigned align, bool loop, bool jcc, bool kernel,
			 char *buf, size_t n)
{
	bool gcc = !strncmp(producer, "GNU ", 4) && strncmp(producer, "GNU AS", 6);
	bool clang = strstr(producer, "clang version") != NULL;
	bool as = !strncmp(producer, "GNU AS", 6);
	unsigned major = clang_major(producer);
	char have[96];

	buf[0] = 0;
	if (!align)
		return;
	if (as && kernel)
		snprintf(buf, n, loop ? "kernel assembly: .p2align %u before the loop, inside the "
					"SYM_FUNC_START body" :
			 "kernel assembly: .p2align %u before SYM_FUNC_START%s", log2_of(align),
			 !loop && align == 64 ? ", or CONFIG_DEBUG_FORCE_FUNCTION_ALIGN_64B" : "");
	else if (as)
		snprintf(buf, n, "assembly: .p2align %u before the %s", log2_of(align),
			 loop ? "loop" : "function");
	else if (gcc && loop) {
		unit_flag(producer, "-falign-loops", have, sizeof have);
		snprintf(buf, n, "GCC: -falign-loops=%u for the unit%s", align, have);
		if (kernel)
			snprintf(buf + strlen(buf), n - strlen(buf),
				 " (kernel: CFLAGS_file.o += -falign-loops=%u)", align);
	} else if (clang && loop) {
		snprintf(buf, n, "Clang: -falign-loops=%u for the unit, or "
			 "[[clang::code_align(%u)]] on the loop (Clang 17+%s)", align, align,
			 major && major < 17 ? "; this unit's is older" : "");
	} else if (gcc || clang) {
		unit_flag(producer, "-falign-functions", have, sizeof have);
		snprintf(buf, n, "%s: __attribute__((aligned(%u))) on the function, or "
			 "-falign-functions=%u for the unit%s%s", gcc ? "GCC" : "Clang", align, align,
			 have, kernel && align == 64 ? "; kernel: CONFIG_DEBUG_FORCE_FUNCTION_ALIGN_64B" : "");
	}
	/* The JCC erratum has the assembler's own fix, padding every branch
	 * off 32 B boundaries (binutils 2.34+ and Clang; Intel's erratum
	 * paper): the kernel's x86 Makefile does not use it, so not there. */
	if (jcc && (gcc || clang || as) && !kernel && strlen(buf) + 80 < n)
		snprintf(buf + strlen(buf), n - strlen(buf), "; or every branch: %s",
			 clang ? "-mbranches-within-32B-boundaries" : "-Wa,-mbranches-within-32B-boundaries");
}

/* vmlinux and modules: the kernel's exported-symbol table or .modinfo. */
bool image_is_kernel(const struct elf_image *img)
{
	for (size_t i = 0; i < img->nsec; i++)
		if (img->sec[i].name && (!strcmp(img->sec[i].name, "__ksymtab") ||
					 !strcmp(img->sec[i].name, ".modinfo")))
			return true;
	return false;
}

void compiler_fix(struct elf_image *img, uint32_t sec, uint64_t addr, unsigned align, bool loop,
		  const struct hazard *lead, char *buf, size_t n)
{
	char producer[1024];
	bool jcc = lead->branch && lead->profile &&
		   lead->profile->branch_rule == BRANCH_RULE_JCC_ERRATUM;

	format_compiler_fix(elf_producer(img, sec, addr, producer, sizeof producer), align, loop, jcc,
			    image_is_kernel(img), buf, n);
}
