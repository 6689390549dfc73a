/* straddle kernels --json: the built-in copy/clear kernels, what each
 * needs of the CPU and what this one lacks, and --check's counts. */
#include "json.h"
#include "kernels.h"

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

/* --file VMLINUX --func NAME: the routine as straddle runs it, in the
 * listing's terms; addresses as the file's hex strings. */
static json_t *routine_parts(const struct kroutine *r)
{
	static const char *const edit_kind[] = { "ret", "call-reg", "nops", "alternative" };
	json_t *edits = json_array(), *ex = json_array(), *loops = json_array(), *alts = json_array();
	json_t *o = json_object();
	char fb[16];

	for (size_t i = 0; i < r->nedit; i++)
		json_array_append_new(edits, json_pack("{s:i, s:i, s:s, s:s}", "at", (int)r->edit[i].at,
			"bytes", (int)r->edit[i].len, "kind", edit_kind[r->edit[i].kind], "what",
			r->edit[i].what));
	for (size_t i = 0; i < r->nex; i++)
		json_array_append_new(ex, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}", "fault",
			(int)r->ex[i].fault, "fixup", (int)r->ex[i].fixup, "type", r->ex[i].type,
			"reg", r->ex[i].reg, "flags", r->ex[i].flags, "imm", r->ex[i].imm));
	for (size_t i = 0; i < r->nloop; i++)
		json_array_append_new(loops, json_pack("{s:i, s:i, s:b}", "start", (int)r->loop[i].start,
			"end", (int)r->loop[i].end, "innermost", r->loop[i].innermost));
	for (size_t i = 0; i < r->nalt; i++)
		json_array_append_new(alts, json_pack("{s:i, s:i, s:s, s:b, s:b, s:s}", "at",
			(int)r->alt[i].at, "bytes", (int)r->alt[i].len, "feature",
			kfeature_name(r->alt[i].feature, fb), "inverted", r->alt[i].inverted, "applied",
			r->alt[i].applied, "replacement", r->alt[i].repl_text));
	json_object_set_new(o, "edits", edits);
	json_object_set_new(o, "exception_table", ex);
	json_object_set_new(o, "loops", loops);
	json_object_set_new(o, "alternatives", alts);
	return o;
}

json_t *results_routine(const struct routine *rt, const struct kernels_check_result *check)
{
	const struct kroutine *r = &rt->r;
	json_t *doc = results_new("kernels"), *o = routine_parts(r);
	char a[20];

	json_t *head = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:b}",
		"name", rt->k.name, "file", r->path, "function", r->name, "release", r->release,
		"kind", kernel_kind_name(rt->k.kind), "address", hex_addr(a, r->base),
		"bytes", (int)r->size, "entry", (int)r->entry, "loop_start", (int)rt->k.loop_start,
		"loop_end", (int)rt->k.loop_end, "builtin_call", rt->builtin);

	json_object_update(o, head);
	json_decref(head);
	json_object_set_new(doc, "routine", o);
	if (check)
		json_object_set_new(doc, "check", json_pack("{s:I, s:I}",
			"passed", (json_int_t)check->passed, "failed", (json_int_t)check->failed));
	return doc;
}
