/* How hazards read in tables. */
#include "report.h"

const char *severity_name(unsigned s)
{
	return s >= 3 ? "high" : s == 2 ? "medium" : "low";
}

void format_fix(const struct hazard *h, char *buf, size_t n)
{
	unsigned log2 = 0;

	if (!h->fix_align) {
		snprintf(buf, n, "none by alignment");
		return;
	}
	while ((1u << log2) < h->fix_align)
		log2++;
	snprintf(buf, n, ".p2align %u (+%u B)%s", log2, h->fix_pad,
		 h->fix_clean ? "" : ", adds another");
}

void format_placement(const struct hazard *h, char *buf, size_t n)
{
	if (h->certain)
		snprintf(buf, n, "certain");
	else
		snprintf(buf, n, "%u of %u", h->bad_placements, h->all_placements);
}
