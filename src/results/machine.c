/* The machine a result was measured on: CPU vendor, family, model, stepping,
 * name, microcode, the rep-string features, and the kernel release. Two
 * results from different machines are compared only with a warning, so every
 * field that could explain a difference is here. */
#include "json.h"
#include "head.h"
#include "../kernels/kernels.h"
#include "../model/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

/* "microcode : 0x2b000603" from /proc/cpuinfo, or "". */
static void microcode(char *buf, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "microcode", 9) == 0 && colon) {
			snprintf(buf, n, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = 0;
			break;
		}
	}
	fclose(f);
}

json_t *results_machine(void)
{
	struct host h;
	struct utsname u;
	char mc[64];
	unsigned feat = kernels_host_features();
	json_t *features = json_array();

	host_detect(&h);
	microcode(mc, sizeof mc);
	for (unsigned bit = 0; bit < KFEAT_COUNT; bit++)
		if (feat & (1u << bit))
			json_array_append_new(features, json_string(kernel_feature_name(1u << bit)));
	if (uname(&u) != 0)
		memset(&u, 0, sizeof u);
	return json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:o, s:s, s:s, s:s?}",
		"vendor", h.vendor, "family", (int)h.family, "model", (int)h.model,
		"stepping", (int)h.stepping, "model_name", h.model_name, "microcode", mc,
		"features", features, "kernel", u.release, "arch", u.machine,
		"profile", h.profile ? h.profile->name : NULL);
}

json_t *results_run_info(const char *command, int argc, char **argv)
{
	json_t *doc = results_new(command), *args = json_array();
	char when[32];
	time_t t = time(NULL);
	struct tm tm;

	for (int i = 0; i < argc; i++)
		json_array_append_new(args, json_text(argv[i]));
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(doc, "command_line", args);
	json_object_set_new(doc, "time", json_string(when));
	json_object_set_new(doc, "machine", results_machine());
	return doc;
}

/* ---- reading: the head of any result file ---- */

static const char *text(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static void machine_of(const json_t *m, struct machine_doc *d)
{
	const json_t *fam = json_object_get(m, "family"), *mod = json_object_get(m, "model"),
		*step = json_object_get(m, "stepping"), *v;
	size_t i, used = 0;

	*d = (struct machine_doc){ .present = json_is_object(m), .vendor = text(m, "vendor"),
		.model_name = text(m, "model_name"), .microcode = text(m, "microcode"),
		.kernel = text(m, "kernel"), .arch = text(m, "arch"), .profile = text(m, "profile"),
		.has_fms = json_is_integer(fam) && json_is_integer(mod) && json_is_integer(step),
		.family = json_integer_value(fam), .model = json_integer_value(mod),
		.stepping = json_integer_value(step) };
	json_array_foreach(json_object_get(m, "features"), i, v)
		if (json_is_string(v) && used < sizeof d->features)
			used += (size_t)snprintf(d->features + used, sizeof d->features - used, "%s%s",
						 used ? " " : "", json_string_value(v));
}

bool results_same_machine(const struct machine_doc *a, const struct machine_doc *b)
{
	return a->present == b->present && same_text(a->vendor, b->vendor) &&
	       same_text(a->model_name, b->model_name) && same_text(a->microcode, b->microcode) &&
	       same_text(a->kernel, b->kernel) && same_text(a->arch, b->arch) &&
	       same_text(a->profile, b->profile) && a->has_fms == b->has_fms &&
	       a->family == b->family && a->model == b->model && a->stepping == b->stepping &&
	       strcmp(a->features, b->features) == 0;
}

bool results_same_machine_json(const json_t *a, const json_t *b)
{
	struct machine_doc x, y;

	if (!json_is_object(a) || !json_is_object(b))
		return false;
	machine_of(a, &x);
	machine_of(b, &y);
	return results_same_machine(&x, &y);
}

void results_head_of(const json_t *doc, struct result_head *h)
{
	const json_t *argv = json_object_get(doc, "command_line"), *a;
	size_t i;

	*h = (struct result_head){ .time = text(doc, "time"),
				   .tool_version = text(doc, "tool_version"),
				   .has_argv = json_is_array(argv) };
	machine_of(json_object_get(doc, "machine"), &h->machine);
	h->argv = xcalloc(json_array_size(argv) + 1, sizeof *h->argv);
	json_array_foreach(argv, i, a)
		h->argv[h->argc++] = json_string_value(a);     /* NULL: not a string */
}

void results_head_free(struct result_head *h)
{
	free(h->argv);
	memset(h, 0, sizeof *h);
}
