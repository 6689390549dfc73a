/* SARIF 2.1.0 (OASIS, Static Analysis Results Interchange Format): the
 * hazards of scan and diff as code-scanning alerts, the format GitHub code
 * scanning, GitLab and review tools take. One run, one rule per hazard rule
 * with its help, one result per row of the table. The log is made in memory
 * and written at the end in one piece. Checked against the schema in make
 * check (tests/cmd/t_sarif.sh, tests/sarif/). */
#include "json.h"
#include "scan.h"
#include "sarif.h"

#include <math.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

static json_t *message(const char *text)
{
	return json_pack("{s:o}", "text", json_text(text));
}

static json_t *rules(void)
{
	json_t *v = json_array();

	for (int r = RULE_LOOP_STRADDLES; r <= RULE_ENTRY_MISALIGNED; r++)
		json_array_append_new(v, json_pack("{s:s, s:s, s:o, s:o, s:o, s:{s:s}}",
			"id", rule_name(r), "name", rule_name(r),
			"shortDescription", message(rule_summary(r)),
			"fullDescription", message(rule_help(r)),
			"help", message(rule_help(r)),
			"defaultConfiguration", "level", r == RULE_ENTRY_MISALIGNED ? "note" : "warning"));
	return v;
}

/* The log is a jansson tree, its results array filled as rows come. */
struct sarif_log {
	json_t *doc;
};

/* The run's properties: its profiles, and a shard's place in its run. */
static json_t *run_properties(const struct sarif_head *h)
{
	json_t *names = json_array(), *p;

	for (size_t i = 0; i < h->nprofiles; i++)
		json_array_append_new(names, json_string(h->profiles[i]->name));
	p = json_pack("{s:o}", "profiles", names);
	if (h->shard)
		json_object_set_new(p, "shard", results_shard(h->shard));
	return p;
}

struct sarif_log *sarif_new(const struct sarif_head *h)
{
	struct sarif_log *log = xcalloc(1, sizeof *log);
	const char *source_root = h->source_root;
	json_t *args = json_array();
	json_t *run = json_pack("{s:{s:{s:s, s:s, s:o}}, s:[], s:[{s:b, s:o}], s:o}",
		"tool", "driver", "name", "straddle", "version", STRADDLE_VERSION, "rules", rules(),
		"results", "invocations", "executionSuccessful", 1, "arguments", args,
		"properties", run_properties(h));

	for (int i = 0; i < h->argc; i++)
		json_array_append_new(args, json_text(h->argv[i]));
	if (source_root) {
		char uri[4200];

		/* a base URI must end in '/' (SARIF 3.14.14) */
		snprintf(uri, sizeof uri, "file://%s%s", source_root,
			 source_root[strlen(source_root) - 1] == '/' ? "" : "/");
		json_object_set_new(run, "originalUriBaseIds",
				    json_pack("{s:{s:o}}", "SRCROOT", "uri", json_text(uri)));
	}
	log->doc = json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0",
			     "runs", run);
	return log;
}

static json_t *run_of(const struct sarif_log *log)
{
	return json_array_get(json_object_get(log->doc, "runs"), 0);
}

size_t sarif_count(const struct sarif_log *log)
{
	return json_array_size(json_object_get(run_of(log), "results"));
}

void sarif_truncate(struct sarif_log *log, size_t n)
{
	json_t *results = json_object_get(run_of(log), "results");

	while (json_array_size(results) > n)
		json_array_remove(results, n);
}

/* A path as a URI reference: unreserved bytes and '/' as they are, the
 * rest %XX (RFC 3986 2.1); an absolute path gets file://. */
static json_t *uri_of(const char *path)
{
	struct strbuf b = { 0 };
	json_t *v;

	if (path[0] == '/')
		sb_addf(&b, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			sb_addf(&b, "%c", *p);
		else
			sb_addf(&b, "%%%02X", *p);
	v = json_text(sb_str(&b));
	sb_free(&b);
	return v;
}

static const char *level_of(enum severity severity)
{
	return severity >= SEVERITY_HIGH ? "error" : severity == SEVERITY_MEDIUM ? "warning" : "note";
}

static json_t *location(const struct sarif_result *f)
{
	json_t *art = json_pack("{s:o}", "uri", uri_of(f->uri));
	json_t *phys = json_pack("{s:o}", "artifactLocation", art);

	if (f->relative)
		json_object_set_new(art, "uriBaseId", json_string("SRCROOT"));
	if (f->line > 0)
		json_object_set_new(phys, "region", json_pack("{s:i}", "startLine", f->line));
	else if (f->in_file)
		json_object_set_new(phys, "region", json_pack("{s:I, s:I}",
			"byteOffset", (json_int_t)f->byte_offset, "byteLength", (json_int_t)f->byte_length));
	return json_pack("{s:o, s:[{s:o, s:s}]}", "physicalLocation", phys, "logicalLocations",
			 "name", json_text(f->function), "kind", "function");
}

static json_t *windows_of(const unsigned *w, size_t n)
{
	json_t *v = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(v, json_integer(w[i]));
	return v;
}

void sarif_add(struct sarif_log *log, const struct sarif_result *f)
{
	char addr[24], fp[24];
	json_t *props, *res;

	snprintf(addr, sizeof addr, "%#" PRIx64, f->address);
	snprintf(fp, sizeof fp, "%016" PRIx64, f->fingerprint);
	props = json_pack("{s:o, s:s, s:i, s:o, s:o, s:o, s:s, s:o, s:s}",
		"function", json_text(f->function), "address", addr, "bytes", (json_int_t)f->bytes,
		"section", json_text(f->section ? f->section : ""), "profiles",
		json_text(f->profiles), "windows", windows_of(f->windows, f->nwindows),
		"placement", f->placement, "fix", json_text(f->fix), "severity", severity_name(f->severity));
	json_object_set_new(props, "file", json_text(f->file));
	json_object_set_new(props, "input", json_integer((json_int_t)f->input));
	if (f->compiler_fix && *f->compiler_fix)
		json_object_set_new(props, "compilerFix", json_text(f->compiler_fix));
	if (f->cause)
		json_object_set_new(props, "cause", json_string(f->cause));
	if (f->slowdown > 0)
		json_object_set_new(props, "predictedSlowdown", json_pack("{s:f, s:b}", "ratio",
				    round(f->slowdown * 1e4) / 1e4, "atMost", f->slowdown_at_most));
	res = json_pack("{s:s, s:s, s:o, s:[o], s:{s:s}, s:o}", "ruleId", rule_name(f->rule),
			"level", level_of(f->severity), "message", message(f->message),
			"locations", location(f), "partialFingerprints", "straddleLoopShape/v1", fp,
			"properties", props);
	if (f->cause)
		json_object_set_new(res, "baselineState", json_string("new"));
	json_array_append_new(json_object_get(run_of(log), "results"), res);
}

void sarif_notify(struct sarif_log *log, const char *path, size_t input, const char *member,
		  const char *text)
{
	json_t *inv = json_array_get(json_object_get(run_of(log), "invocations"), 0);
	json_t *note = json_pack("{s:s, s:o, s:[{s:{s:{s:o}}}], s:{s:o, s:I}}", "level", "error",
				 "message", message(text), "locations", "physicalLocation",
				 "artifactLocation", "uri", uri_of(path), "properties", "file",
				 json_text(path), "input", (json_int_t)input);

	if (member)
		json_object_set_new(json_object_get(note, "properties"), "member", json_text(member));
	if (!json_object_get(inv, "toolExecutionNotifications"))
		json_object_set_new(inv, "toolExecutionNotifications", json_array());
	json_array_append_new(json_object_get(inv, "toolExecutionNotifications"), note);
}

int sarif_write(struct sarif_log *log, FILE *f, bool success)
{
	json_t *inv = json_array_get(json_object_get(run_of(log), "invocations"), 0);
	int rc;

	json_object_set_new(inv, "executionSuccessful", json_boolean(success));
	rc = sarif_dump(log->doc, f);
	json_decref(log->doc);
	free(log);
	return rc;
}

int sarif_dump(const json_t *doc, FILE *f)
{
	return json_dumpf(doc, f, JSON_COMPACT | JSON_PRESERVE_ORDER) || fputc('\n', f) == EOF ||
	       fflush(f) ? -1 : 0;
}
