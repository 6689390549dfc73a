/* The drift between a host's A/A invocations, kept. Runs of one
 * invocation share its machine state, so only invocations of the same
 * command with nothing changed say how far two invocations drift apart
 * (two single A/A bench files on a shared 2-vCPU guest differed by
 * 3-10%). bench --invocations measures that band (its side a) and
 * keeps it here, one file per host under $XDG_DATA_HOME/straddle/drift/
 * with the machine it was measured on; compare holds a change between
 * two single invocations of that machine against it. A file measured on
 * another machine, or this one with another kernel or microcode, stands
 * for nothing. */
#include "compare.h"
#include "head.h"
#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* The host's name as a file name: uname's nodename, anything but letters,
 * digits, '.', '-' and '_' made '_'. */
static void host_name(char *buf, size_t n)
{
	struct utsname u;

	if (uname(&u) != 0 || !u.nodename[0] || u.nodename[0] == '.')
		snprintf(u.nodename, sizeof u.nodename, "localhost");
	snprintf(buf, n, "%s", u.nodename);
	for (char *p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && *p != '_')
			*p = '_';
}

int results_host_drift_path(char *buf, size_t n, struct err *e)
{
	char host[80], rel[128];

	host_name(host, sizeof host);
	snprintf(rel, sizeof rel, "drift/%s.json", host);
	return data_path(buf, n, "drift band's", rel, e);
}

/* A kept file: an object with a machine and metrics, else NULL. */
static json_t *load(const char *path)
{
	json_t *doc;
	char *buf;
	size_t len;
	struct err e;

	if (access(path, F_OK) != 0 || read_input(path, INPUT_LIMIT, &buf, &len, &e))
		return NULL;
	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, NULL);
	free(buf);
	if (!json_is_object(json_object_get(doc, "machine")) ||
	    !json_is_object(json_object_get(doc, "metrics"))) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

json_t *results_host_drift_load(void)
{
	char path[PATH_MAX];
	struct err e;

	return results_host_drift_path(path, sizeof path, &e) ? NULL : load(path);
}

/* A metric's record: its band per statistic, from how many invocations,
 * when, and bench's settings of them. */
static json_t *metric_record(const struct result_file *aa, const struct metric *m,
			     const char *when)
{
	json_t *band = json_object(), *settings = json_object_get(aa->doc, "bench");

	for (int k = STAT_MEAN95; k <= STAT_MAX; k++) {
		double pct = results_drift_band(aa, m, (enum stat_kind)k);

		if (!isnan(pct))
			json_object_set_new(band, stat_name((enum stat_kind)k), json_real(pct));
	}
	return json_pack("{s:o, s:i, s:s, s:o}", "band_pct", band, "invocations",
			 (int)aa->nfiles, "time", when, "bench",
			 settings ? json_deep_copy(settings) : json_null());
}

int results_host_drift_save(const struct result_file *aa, char *path, size_t n, struct err *e)
{
	json_t *doc, *old, *metrics, *machine = results_machine();
	char host[80], when[32];
	time_t t = time(NULL);
	struct tm tm;
	int rc;

	if (results_host_drift_path(path, n, e))
		return -1;
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	host_name(host, sizeof host);
	/* another kernel or microcode since: the bands kept describe no more */
	old = load(path);
	metrics = old && results_same_machine_json(json_object_get(old, "machine"), machine) ?
		  json_deep_copy(json_object_get(old, "metrics")) : json_object();
	json_decref(old);
	for (size_t i = 0; i < aa->n; i++)
		json_object_set_new(metrics, aa->m[i].name, metric_record(aa, &aa->m[i], when));
	doc = results_new("drift");
	json_object_set_new(doc, "host", json_text(host));
	json_object_set_new(doc, "machine", machine);
	json_object_set_new(doc, "metrics", metrics);
	rc = make_parents(path) ? err_set(e, "cannot make its directory: %s", strerror(errno)) :
	     results_write(doc, path, e);
	json_decref(doc);
	return rc;
}

double results_host_drift_of(const json_t *kept, const struct result_file *base,
			     const struct result_file *new, const char *metric, enum stat_kind k,
			     size_t *invocations)
{
	const json_t *machine = json_object_get(kept, "machine");
	const json_t *m = json_object_get(json_object_get(kept, "metrics"), metric);
	const json_t *v = json_object_get(json_object_get(m, "band_pct"), stat_name(k));
	const json_t *n = json_object_get(m, "invocations");

	if (!kept || !results_same_machine_json(machine, base->machine) ||
	    !results_same_machine_json(machine, new->machine) || !json_is_number(v) ||
	    !(json_number_value(v) >= 0) || !json_is_integer(n) || json_integer_value(n) < 2)
		return NAN;
	*invocations = (size_t)json_integer_value(n);
	return json_number_value(v);
}
