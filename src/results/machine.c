/* The machine a result was measured on (DESIGN: Result files): CPU vendor,
 * family, model, stepping, name, microcode, the rep-string features, and
 * the kernel release. Two results from different machines are compared
 * only with a warning, so every field that could explain a difference is
 * here. */
#include "results.h"

#include <stdio.h>
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
