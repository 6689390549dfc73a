/* How hazards read in tables. */
#include "report.h"

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
