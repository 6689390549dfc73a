/* kernels' text: the built-in kernels, the features each wants and what
 * this CPU lacks. */
#include "report.h"

/* "ERMS FSRS (missing)", or "-". */
static void format_features(unsigned want, unsigned have, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < KFEAT_COUNT; i++) {
		unsigned bit = 1u << i;

		if (want & bit)
			len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s%s",
						len ? " " : "", kernel_feature_name(bit),
						have & bit ? "" : " (missing)");
	}
	if (!len)
		snprintf(buf, n, "-");
}

void report_kernels(FILE *out, unsigned have)
{
	static const char *const cols[] = { "kernel", "seed", "kind", "arch", "runs", ">bytes",
		"hot loop", "wants", "what" };
	struct table t;
	char feat[128];

	table_init(&t, 9, cols);
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel *k = kernel_at(i);
		char bytes[16] = "-", loop[32] = "-";

		if (k->placeable) {
			snprintf(bytes, sizeof bytes, "%zu", k->size);
			snprintf(loop, sizeof loop, "+%u..+%u", k->loop_start, k->loop_end);
		}
		format_features(k->features, have, feat, sizeof feat);
		table_row(&t, k->name, k->seed, kernel_kind_name(k->kind), arch_name(k->arch),
			  k->placeable ? "placed" : "in place", bytes, loop, feat, k->summary);
	}
	table_print(&t, out);
	table_free(&t);
	format_features(KFEAT_ERMS | KFEAT_FSRM | KFEAT_FZRM | KFEAT_FSRS, have, feat,
			sizeof feat);
	fprintf(out, "\nthis CPU: %s\n", feat);
}

