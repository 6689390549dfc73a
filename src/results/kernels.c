/* straddle kernels --json: the built-in copy/clear kernels, what each
 * needs of the CPU and what this one lacks, and --check's counts. */
#include "results.h"

static json_t *features_json(unsigned mask)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < KFEAT_COUNT; i++)
		if (mask & (1u << i))
			json_array_append_new(a, json_string(kernel_feature_name(1u << i)));
	return a;
}

static json_t *kernel_json(const struct kernel *k, unsigned have)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, s:o, s:o}", "name", k->name,
		"seed", k->seed, "kind", kernel_kind_name(k->kind), "arch", arch_name(k->arch),
		"placeable", k->placeable, "summary", k->summary,
		"features", features_json(k->features),
		"missing", features_json(k->features & ~have));

	if (k->placeable) {
		json_object_set_new(o, "bytes", json_integer((json_int_t)k->size));
		json_object_set_new(o, "loop_start", json_integer(k->loop_start));
		json_object_set_new(o, "loop_end", json_integer(k->loop_end));
		json_object_set_new(o, "fixups", json_integer((json_int_t)k->nfixups));
	}
	return o;
}

json_t *results_kernels(unsigned have, const struct kernels_check_result *check)
{
	json_t *doc = results_new("kernels"), *list = json_array();

	for (size_t i = 0; i < kernel_count(); i++)
		json_array_append_new(list, kernel_json(kernel_at(i), have));
	json_object_set_new(doc, "host_features", features_json(have));
	json_object_set_new(doc, "kernels", list);
	if (check)
		json_object_set_new(doc, "check", json_pack("{s:I, s:I}",
			"passed", (json_int_t)check->passed, "failed", (json_int_t)check->failed));
	return doc;
}
