/* straddle compare BASE NEW...: tables of result files with their percent
 * change and whether it is real, the way mmtests and the kernel test robot
 * print them (seeds 000 and 004), and a gate: exit 1 on a significant
 * regression beyond the threshold. */
#include "cmd.h"
#include "../report/report.h"
#include "../results/results.h"
#include "../stats/stats.h"

#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum style { STYLE_MMTESTS, STYLE_LKP };
enum format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_CSV, FORMAT_JSON };

struct compare_cmd {
	enum style style;
	enum format format;
	enum stat_kind stat;
	bool stat_given;
	double alpha, threshold;
	struct result_file *files;      /* [0] is the base */
	size_t nfiles;
	json_t *warnings;               /* strings */
	bool regression;
};

static int parse_choice(const char *opt, const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	complain(opt, "'%s' is not one of the choices (see 'straddle compare --help')", s);
	return -1;
}

static int set_style(void *cmd, const char *opt, const char *value)
{
	static const char *const styles[] = { "mmtests", "lkp" };
	int v = parse_choice(opt, value, styles, 2);

	if (v < 0)
		return -1;
	((struct compare_cmd *)cmd)->style = (enum style)v;
	return 0;
}

static int set_format(void *cmd, const char *opt, const char *value)
{
	static const char *const formats[] = { "text", "markdown", "csv", "json" };
	int v = parse_choice(opt, value, formats, 4);

	if (v < 0)
		return -1;
	((struct compare_cmd *)cmd)->format = (enum format)v;
	return 0;
}

static int set_stats(void *cmd, const char *opt, const char *value)
{
	struct compare_cmd *c = cmd;
	int v = stat_from_name(value);

	if (v < 0) {
		complain(opt, "'%s' is not mean95, median, mean, min or max", value);
		return -1;
	}
	c->stat = (enum stat_kind)v;
	c->stat_given = true;
	return 0;
}

static int cmd_compare(int argc, char **argv);

#define F(field) offsetof(struct compare_cmd, field)

static const struct cmd_option compare_options[] = {
	{ .name = "style", .value = "mmtests|lkp", .kind = OPT_CALL, .call = set_style,
	  .help = "mmtests: the statistic with its change, positive = better,\n"
		  "*...* when significant; lkp: the kernel test robot's\n"
		  "%stddev %change %stddev, a * after %change when\n"
		  "significant (default mmtests)" },
	{ .name = "stats", .value = "S", .kind = OPT_CALL, .call = set_stats,
	  .help = "mean95, median, mean, min, max (default mean95; lkp: mean)" },
	{ .name = "format", .value = "F", .kind = OPT_CALL, .call = set_format,
	  .help = "text, markdown, csv or json (default text)" },
	{ .name = "alpha", .value = "A", .kind = OPT_FRACTION, .field = F(alpha), .lo = 1e-9,
	  .hi = 0.5, .help = "significance level (default 0.05)" },
	{ .name = "threshold", .value = "P", .kind = OPT_FRACTION, .field = F(threshold), .lo = 0,
	  .hi = 0.99, .help = "how much worse a significant change must be to fail\n"
			      "(default 2%)" },
	{ 0 }
};

const struct command compare_command = {
	.name = "compare",
	.run = cmd_compare,
	.summary = "tables of result files with % change and significance; exit 1 on regression",
	.args = "[OPTIONS] BASE NEW...",
	.about = "Compare result files of 'straddle bench' or 'straddle sweep': one row per metric\n"
		 "of BASE, each NEW file's value and percent change, and whether the change is\n"
		 "real: a two-sided Mann-Whitney U test on the raw samples (and the overlap of the\n"
		 "medians' bootstrap 95% CIs, reported beside it).\n",
	.options = compare_options,
	.notes = "Exit status: 0 no significant regression beyond the threshold, 1 one or more,\n"
		 "2 bad usage or a result file that cannot be read.\n",
};

static int parse_options(struct compare_cmd *c, int argc, char **argv)
{
	c->alpha = 0.05;
	c->threshold = 0.02;
	if (parse_command_line(&compare_command, c, argc, argv))
		return -1;
	if (!c->stat_given)
		c->stat = c->style == STYLE_LKP ? STAT_MEAN : STAT_MEAN95;
	if (argc - optind < 2) {
		complain("compare", "needs a BASE and at least one NEW result file");
		return -1;
	}
	return 0;
}

/* ---- warnings ---- */

static void warn(struct compare_cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct compare_cmd *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	json_array_append_new(c->warnings, json_text(line));
}

/* The machine fields that can explain a difference on their own. */
static void compare_machines(struct compare_cmd *c, const struct result_file *base,
			     const struct result_file *new)
{
	static const char *const fields[] = { "vendor", "family", "model", "stepping",
		"model_name", "microcode", "kernel", "arch" };
	char diff[400] = "";

	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		json_t *a = json_object_get(base->machine, fields[i]);
		json_t *b = json_object_get(new->machine, fields[i]);
		char *sa, *sb;

		if ((!a && !b) || json_equal(a, b))
			continue;
		sa = a ? json_dumps(a, JSON_ENCODE_ANY) : xstrdup("none");
		sb = b ? json_dumps(b, JSON_ENCODE_ANY) : xstrdup("none");
		snprintf(diff + strlen(diff), sizeof diff - strlen(diff), "%s%s %s vs %s",
			 *diff ? "; " : "", fields[i], sa, sb);
		free(sa);
		free(sb);
	}
	if (*diff)
		warn(c, "%s and %s ran on different machines or kernels: %s", base->path,
		     new->path, diff);
}

static void sample_warnings(struct compare_cmd *c, const struct result_file *f,
			    const struct metric *m, const struct comparison *cmp, bool is_base)
{
	double cv = is_base ? cmp->base_cv : cmp->new_cv;

	if (m->n < 9)
		warn(c, "%s in %s: %zu samples (fewer than 9): little power to tell", m->name,
		     f->path, m->n);
	if (cv > 0.05)
		warn(c, "%s in %s: CV %.1f%% (above 5%%): noisy", m->name, f->path, 100 * cv);
}

/* ---- one comparison per (metric, NEW file) ---- */

struct row {
	const struct metric *base;
	double base_value, base_stddev_pct;     /* whether or not a NEW file has it */
	const struct metric *new[16];           /* NULL where a NEW file lacks it */
	struct comparison cmp[16];
};

static void compare_metric(struct compare_cmd *c, const struct metric *m, struct row *r)
{
	struct compare_opts o = { .stat = c->stat, .lower_is_better = m->lower_is_better,
				  .alpha = c->alpha, .threshold = c->threshold, .seed = 1 };

	struct summary s;

	r->base = m;
	stats_summarize(m->samples, m->n, 1, m->lower_is_better, &s);
	r->base_value = stat_of(&s, c->stat);
	r->base_stddev_pct = s.mean ? 100 * s.stddev / s.mean : 0;
	if (m->n < 9 || s.cv > 0.05)
		sample_warnings(c, &c->files[0], m, &(struct comparison){ .base_cv = s.cv }, true);
	for (size_t f = 1; f < c->nfiles; f++) {
		const struct metric *n = results_metric(&c->files[f], m->name);

		r->new[f - 1] = n;
		if (!n)
			continue;
		stats_compare(m->samples, m->n, n->samples, n->n, &o, &r->cmp[f - 1]);
		sample_warnings(c, &c->files[f], n, &r->cmp[f - 1], false);
		c->regression |= r->cmp[f - 1].regression;
	}
}

/* ---- output ---- */

static const char *label(const struct result_file *f)
{
	const char *s = strrchr(f->path, '/');

	return s ? s + 1 : f->path;
}

static void number(char *buf, size_t n, double v)
{
	double a = fabs(v);

	snprintf(buf, n, a < 10 ? "%.4f" : a < 100 ? "%.3f" : a < 10000 ? "%.2f" : "%.0f", v);
}

/* mmtests calls ns "Time", per-second rates "Ops" (compare-kernels.sh). */
static const char *kind(const struct metric *m)
{
	if (!strcmp(m->unit, "ns") || !strcmp(m->unit, "ticks") || !strcmp(m->unit, "us"))
		return "Time";
	if (strstr(m->unit, "/s"))
		return "Ops";
	return *m->unit ? m->unit : "Value";
}

static void mmtests_cell(char *buf, size_t n, const struct comparison *cmp)
{
	char v[32];

	number(v, sizeof v, cmp->new);
	if (cmp->significant)
		snprintf(buf, n, "%s *%6.2f%%*", v, cmp->change_mmtests);
	else
		snprintf(buf, n, "%s (%6.2f%%)", v, cmp->change_mmtests);
}

static void print_mmtests(const struct compare_cmd *c, const struct row *rows, size_t n)
{
	const char *cols[TABLE_MAX_COLS] = { "" };
	struct table t;

	for (size_t f = 0; f < c->nfiles && f + 1 < TABLE_MAX_COLS; f++)
		cols[f + 1] = label(&c->files[f]);
	table_init(&t, c->nfiles + 1, cols);
	for (size_t f = 1; f <= c->nfiles; f++)
		t.right[f] = true;
	for (size_t i = 0; i < n; i++) {
		char head[160], cell[16][64];
		const char *cells[TABLE_MAX_COLS];

		snprintf(head, sizeof head, "%s %s-%s", kind(rows[i].base), stat_name(c->stat),
			 rows[i].base->name);
		cells[0] = head;
		number(cell[0], sizeof cell[0], rows[i].base_value);
		strcat(cell[0], " (  0.00%)");
		cells[1] = cell[0];
		for (size_t f = 1; f < c->nfiles; f++) {
			if (!rows[i].new[f - 1])
				snprintf(cell[f], sizeof cell[f], "-");
			else
				mmtests_cell(cell[f], sizeof cell[f], &rows[i].cmp[f - 1]);
			cells[f + 1] = cell[f];
		}
		table_row_v(&t, cells);
	}
	table_print(&t, stdout);
	table_free(&t);
}

/* "12.34 ±  3%": the robot shows the spread only above 2%. */
static void lkp_value(char *buf, size_t n, double v, double stddev_pct)
{
	char num[32];

	number(num, sizeof num, v);
	if (stddev_pct > 2)
		snprintf(buf, n, "%10s ± %2.0f%%", num, stddev_pct);
	else
		snprintf(buf, n, "%10s      ", num);
}

static void print_lkp(const struct compare_cmd *c, const struct row *rows, size_t n)
{
	printf("%16s", label(&c->files[0]));
	for (size_t f = 1; f < c->nfiles; f++)
		printf(" %27s", label(&c->files[f]));
	printf("\n----------------");
	for (size_t f = 1; f < c->nfiles; f++)
		printf(" ---------------------------");
	printf("\n        %%stddev ");
	for (size_t f = 1; f < c->nfiles; f++)
		printf("    %%change         %%stddev");
	printf("\n            \\   ");
	for (size_t f = 1; f < c->nfiles; f++)
		printf("       |                \\  ");
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		char v[64];

		lkp_value(v, sizeof v, rows[i].base_value, rows[i].base_stddev_pct);
		printf("%s", v);
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &rows[i].cmp[f - 1];

			if (!rows[i].new[f - 1]) {
				printf(" %27s", "-");
				continue;
			}
			lkp_value(v, sizeof v, cmp->new, cmp->new_stddev_pct);
			printf(" %+9.1f%%%c %s", cmp->change_robot, cmp->significant ? '*' : ' ', v);
		}
		printf("  %s\n", rows[i].base->name);
	}
}

static void print_markdown(const struct compare_cmd *c, const struct row *rows, size_t n)
{
	printf("| metric | unit | %s (%s)", label(&c->files[0]), stat_name(c->stat));
	for (size_t f = 1; f < c->nfiles; f++)
		printf(" | %s | change | p", label(&c->files[f]));
	printf(" |\n|---|---|---:");
	for (size_t f = 1; f < c->nfiles; f++)
		printf("|---:|---:|---:");
	printf("|\n");
	for (size_t i = 0; i < n; i++) {
		char v[32];

		number(v, sizeof v, rows[i].base_value);
		printf("| %s | %s | %s", rows[i].base->name, rows[i].base->unit, v);
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &rows[i].cmp[f - 1];

			if (!rows[i].new[f - 1]) {
				printf(" | - | - | -");
				continue;
			}
			number(v, sizeof v, cmp->new);
			printf(cmp->significant ? " | %s | **%+.2f%%** | %.3g" : " | %s | %+.2f%% | %.3g",
			       v, cmp->change_mmtests, cmp->p);
		}
		printf(" |\n");
	}
}

static void print_csv(const struct compare_cmd *c, const struct row *rows, size_t n)
{
	printf("metric,unit,direction,file,stat,base,value,change_pct,change_pct_mmtests,u,p,"
	       "ci_overlap,significant,regression\n");
	for (size_t i = 0; i < n; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &rows[i].cmp[f - 1];

			if (!rows[i].new[f - 1])
				continue;
			printf("%s,%s,%s,%s,%s,%.6g,%.6g,%.4f,%.4f,%g,%.6g,%d,%d,%d\n",
			       rows[i].base->name, rows[i].base->unit,
			       rows[i].base->lower_is_better ? "lower" : "higher", c->files[f].path,
			       stat_name(c->stat), rows[i].base_value, cmp->new, cmp->change_robot,
			       cmp->change_mmtests, cmp->u, cmp->p, cmp->ci_overlap, cmp->significant,
			       cmp->regression);
		}
}

static json_t *comparison_json(const struct compare_cmd *c, size_t f, const struct comparison *cmp,
			       const struct metric *m)
{
	return json_pack("{s:o, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:b, s:b}",
		"path", json_text(c->files[f].path), "n", (int)m->n, "units", (int)cmp->units,
		"value", cmp->new,
		"stddev_pct", cmp->new_stddev_pct, "change_pct", cmp->change_robot,
		"change_pct_mmtests", cmp->change_mmtests, "u", cmp->u, "p", cmp->p,
		"ci_overlap", cmp->ci_overlap, "significant", cmp->significant,
		"regression", cmp->regression);
}

static void print_json(const struct compare_cmd *c, const struct row *rows, size_t n)
{
	json_t *doc = results_new("compare"), *news = json_array(), *metrics = json_array();
	struct err e;

	for (size_t f = 1; f < c->nfiles; f++)
		json_array_append_new(news, json_text(c->files[f].path));
	json_object_set_new(doc, "base", json_text(c->files[0].path));
	json_object_set_new(doc, "new", news);
	json_object_set_new(doc, "stat", json_string(stat_name(c->stat)));
	json_object_set_new(doc, "alpha", json_real(c->alpha));
	json_object_set_new(doc, "threshold", json_real(c->threshold));
	for (size_t i = 0; i < n; i++) {
		json_t *per = json_array();

		for (size_t f = 1; f < c->nfiles; f++)
			json_array_append_new(per, rows[i].new[f - 1] ?
				comparison_json(c, f, &rows[i].cmp[f - 1], rows[i].new[f - 1]) :
				json_null());
		json_array_append_new(metrics, json_pack("{s:o, s:o, s:s, s:i, s:f, s:f, s:o}",
			"name", json_text(rows[i].base->name), "unit", json_text(rows[i].base->unit),
			"direction", rows[i].base->lower_is_better ? "lower" : "higher",
			"n", (int)rows[i].base->n, "value", rows[i].base_value,
			"stddev_pct", rows[i].base_stddev_pct, "new", per));
	}
	json_object_set_new(doc, "metrics", metrics);
	json_object_set_new(doc, "warnings", json_incref(c->warnings));
	json_object_set_new(doc, "regression", json_boolean(c->regression));
	if (results_write(doc, "-", &e))
		complain("stdout", "%s", e.msg);
	json_decref(doc);
}

/* Under the table, both tests for every pair: the U test decides the star,
 * the CI overlap is the second opinion (issue 5: "both reported"). */
static void print_tests(const struct compare_cmd *c, const struct row *rows, size_t n)
{
	printf("\nsignificance (two-sided Mann-Whitney U, alpha %g, and the medians' 95%% CIs; "
	       "from 20 samples on, on the medians of 10 consecutive blocks):\n", c->alpha);
	for (size_t i = 0; i < n; i++)
		for (size_t f = 1; f < c->nfiles; f++) {
			const struct comparison *cmp = &rows[i].cmp[f - 1];

			if (!rows[i].new[f - 1])
				continue;
			printf("  %-40s %-20s U %-8g p %-10.3g CIs %s%s\n", rows[i].base->name,
			       label(&c->files[f]), cmp->u, cmp->p,
			       cmp->ci_overlap ? "overlap" : "apart",
			       cmp->regression ? "  REGRESSION" : cmp->improvement ? "  better" : "");
		}
}

static void print_warnings(const struct compare_cmd *c)
{
	size_t i;
	json_t *w;

	json_array_foreach(c->warnings, i, w)
		fprintf(c->format == FORMAT_CSV ? stderr : stdout, "warning: %s\n",
			json_string_value(w));
}

static int load(struct compare_cmd *c, int argc, char **argv)
{
	c->nfiles = (size_t)(argc - optind);
	if (c->nfiles > 17) {
		complain("compare", "at most 16 NEW files");
		return -1;
	}
	c->files = xcalloc(c->nfiles, sizeof *c->files);
	for (size_t f = 0; f < c->nfiles; f++) {
		struct err e = { "" };

		if (results_read(argv[optind + (int)f], &c->files[f], &e)) {
			complain(argv[optind + (int)f], "%s", e.msg);
			return -1;
		}
	}
	for (size_t f = 1; f < c->nfiles; f++) {
		size_t common = 0;

		for (size_t i = 0; i < c->files[0].n; i++)
			common += results_metric(&c->files[f], c->files[0].m[i].name) != NULL;
		if (!common) {
			complain(c->files[f].path, "no metric in common with %s (a %s result, "
				 "this a %s one)", c->files[0].path, c->files[0].command,
				 c->files[f].command);
			return -1;
		}
		compare_machines(c, &c->files[0], &c->files[f]);
	}
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_cmd c = { 0 };
	struct row *rows = NULL;
	size_t n = 0;
	int status = EXIT_USAGE;

	c.warnings = json_array();
	if (parse_options(&c, argc, argv) || load(&c, argc, argv))
		goto out;
	n = c.files[0].n;
	rows = xcalloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++)
		compare_metric(&c, &c.files[0].m[i], &rows[i]);
	if (c.format == FORMAT_JSON)
		print_json(&c, rows, n);
	else if (c.format == FORMAT_CSV)
		print_csv(&c, rows, n);
	else if (c.format == FORMAT_MARKDOWN)
		print_markdown(&c, rows, n);
	else if (c.style == STYLE_LKP)
		print_lkp(&c, rows, n);
	else
		print_mmtests(&c, rows, n);
	if (c.format == FORMAT_TEXT)
		print_tests(&c, rows, n);
	if (c.format != FORMAT_JSON)
		print_warnings(&c);
	status = c.regression ? EXIT_GATE : EXIT_OK;
out:
	for (size_t f = 0; f < c.nfiles; f++)
		results_file_free(&c.files[f]);
	free(c.files);
	free(rows);
	json_decref(c.warnings);
	return status;
}
