/* How hazards read in tables. */
#include "report.h"

#include <string.h>

const char *severity_name(unsigned s)
{
	return s >= 3 ? "high" : s == 2 ? "medium" : "low";
}

static unsigned log2_of(unsigned a)
{
	unsigned k = 0;

	while ((1u << k) < a)
		k++;
	return k;
}

/* "`.p2align 6` (+20 B); `.p2align 5` holds only here" (DESIGN: the fix
 * holds wherever the loop lands with that alignment). */
void format_fix(const struct hazard *h, char *buf, size_t n)
{
	int k = 0;

	if (h->fix_align)
		k = snprintf(buf, n, ".p2align %u (+%u B)%s", log2_of(h->fix_align), h->fix_pad,
			     h->fix_clean ? "" : ", adds another");
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

		while (j < i && h[j]->profile != h[i]->profile)
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

/* Each hazard's fix holds wherever the subject lands at its .p2align, and
 * a placement aligned to 2A is aligned to A: the largest of them holds
 * for every profile and window (issue 24: one loop had .p2align 3 and
 * .p2align 5 in two rows). Its padding is that fix's own; "adds another"
 * is known per profile, so it is said when any with that alignment says
 * it. A hazard no alignment fixes leaves each profile's fix to be said. */
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
	buf[0] = 0;
	for (size_t i = 0; i < n && k >= 0 && (size_t)k < len; i++) {
		char one[96];

		format_fix(h[i], one, sizeof one);
		k += snprintf(buf + k, len - (size_t)k, "%s%s@%u: %s", i ? "; " : "",
			      h[i]->profile->name, h[i]->window, one);
	}
}
