/* --help and the manual page, both made from the commands' option tables so
 * that neither can drift from what getopt accepts, nor a default from what
 * the table sets. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options' help starts in this column; a longer label is followed by
 * two spaces instead. */
#define HELP_COLUMN 21
/* and its lines are at most this long (80 columns in all) */
#define HELP_LINE 59

const struct cmd_option option_help = { .name = "help", .letter = 'h', .help = "this help" };

/* "-j, --jobs N" */
static void option_label(const struct cmd_option *o, char *buf, size_t n)
{
	char letter[8] = "", name[64] = "";

	if (o->letter)
		snprintf(letter, sizeof letter, "-%c%s", o->letter, o->name ? ", " : "");
	if (o->name)
		snprintf(name, sizeof name, "--%s", o->name);
	snprintf(buf, n, "%s%s%s%s", letter, name, o->value ? " " : "", o->value ? o->value : "");
}

/* An option's help lines, "(default DFLT)" after the last when there is
 * room for it there, else on a line of its own. */
static char *help_text(const struct cmd_option *o)
{
	const char *last = strrchr(o->help, '\n');
	size_t len = strlen(last ? last + 1 : o->help);
	char *s;

	if (!o->dflt)
		return xstrdup(o->help);
	if (asprintf(&s, "%s%s(default %s)", o->help,
		     len + strlen(o->dflt) + 11 <= HELP_LINE ? " " : "\n", o->dflt) < 0)
		out_of_memory(strlen(o->help));
	return s;
}

static void help_option(const struct cmd_option *o, FILE *out)
{
	char label[128], *text = help_text(o);
	const char *line = text;
	int width = HELP_COLUMN - 2;

	option_label(o, label, sizeof label);
	if ((int)strlen(label) > width - 2)
		width = (int)strlen(label) + 2;
	fprintf(out, "  %-*s", width, label);
	for (;;) {
		const char *nl = strchr(line, '\n');

		fprintf(out, "%.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
		if (!nl)
			break;
		line = nl + 1;
		fprintf(out, "%*s", HELP_COLUMN, "");
	}
	free(text);
}

void print_help(const struct command *cmd, FILE *out)
{
	fprintf(out, "usage: straddle %s %s\n\n%s", cmd->name, cmd->args, cmd->about);
	if (cmd->list) {
		fputc('\n', out);
		cmd->list(out);
	}
	fputc('\n', out);
	for (const struct cmd_option *o = cmd->options; o->name || o->letter; o++)
		help_option(o, out);
	help_option(&option_help, out);
	if (cmd->notes)
		fprintf(out, "\n%s", cmd->notes);
}

/* ---- straddle(1) ---- */

/* One line of text for roff: '\' and '-' escaped, a leading '.' or '\''
 * made literal. */
static void man_text(const char *s, size_t len, FILE *out)
{
	if (len && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", out);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-')
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

/* A line of filled text, cut at spaces into input lines short enough for
 * `mandoc -T lint`'s 80 bytes, escapes included. */
static void man_fill(const char *s, size_t len, FILE *out)
{
	while (len > 64) {
		size_t cut = 64;

		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (cut == 0)
			break;
		man_text(s, cut, out);
		fputc('\n', out);
		s += cut + 1;
		len -= cut + 1;
	}
	man_text(s, len, out);
	fputc('\n', out);
}

/* Paragraphs: a blank line starts a new one; lines that start with spaces
 * (lists, tables) are kept as they are. */
static void man_paragraphs(const char *text, FILE *out)
{
	bool verbatim = false;

	fputs(".PP\n", out);
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		bool indented = text[0] == ' ';

		if (len == 0) {
			fputs(verbatim ? ".fi\n.PP\n" : ".PP\n", out);
			verbatim = false;
		} else {
			if (indented != verbatim)
				fputs(indented ? ".nf\n" : ".fi\n", out);
			verbatim = indented;
			if (verbatim) {
				man_text(text, len, out);
				fputc('\n', out);
			} else {
				man_fill(text, len, out);
			}
		}
		text += len + (nl != NULL);
	}
	if (verbatim)
		fputs(".fi\n", out);
}

static void man_option(const struct cmd_option *o, FILE *out)
{
	char *text = help_text(o);
	const char *line = text;

	fputs(".TP\n", out);
	if (o->letter)
		fprintf(out, "\\fB\\-%c\\fR%s", o->letter, o->name ? ", " : "");
	if (o->name) {
		fputs("\\fB\\-\\-", out);
		man_text(o->name, strlen(o->name), out);
		fputs("\\fR", out);
	}
	if (o->value) {
		fputs(" \\fI", out);
		man_text(o->value, strlen(o->value), out);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	for (;;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		man_text(line, len, out);
		fputc('\n', out);
		if (!nl)
			break;
		line = nl + 1;
	}
	free(text);
}

static void man_command(const struct command *cmd, FILE *out)
{
	char *list = NULL;
	size_t len = 0;

	fputs(".SH \"STRADDLE ", out);
	for (const char *p = cmd->name; *p; p++)
		fputc(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p, out);
	fputs("\"\n", out);
	fprintf(out, ".B straddle %s\n", cmd->name);
	man_text(cmd->args, strlen(cmd->args), out);
	fputc('\n', out);
	man_paragraphs(cmd->about, out);
	if (cmd->list) {
		FILE *mem = open_memstream(&list, &len);

		if (mem) {
			cmd->list(mem);
			fclose(mem);
			man_paragraphs(list, out);
			free(list);
		}
	}
	fputs(".PP\nOptions:\n", out);
	for (const struct cmd_option *o = cmd->options; o->name || o->letter; o++)
		man_option(o, out);
	man_option(&option_help, out);
	if (cmd->notes)
		man_paragraphs(cmd->notes, out);
}

void print_man(const struct command *const *cmds, size_t n, FILE *out)
{
	fprintf(out, ".TH STRADDLE 1 %s \"straddle %s\" \"User Commands\"\n", STRADDLE_DATE,
		STRADDLE_VERSION);
	fputs(".SH NAME\nstraddle \\- find, measure and explain code\\-layout hazards in hot loops\n"
	      ".SH SYNOPSIS\n.B straddle\n.I COMMAND\n[\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n"
	      ".br\n.B straddle\n\\-\\-help | \\-\\-version\n"
	      ".SH DESCRIPTION\n", out);
	fputs("straddle finds loops and functions whose placement in memory makes them straddle\n"
	      "a fetch window, a uop\\-cache window or a cache line, measures what a placement\n"
	      "costs, and compares result files. The commands:\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, ".TP\n.B %s\n", cmds[i]->name);
		man_text(cmds[i]->summary, strlen(cmds[i]->summary), out);
		fputc('\n', out);
	}
	for (size_t i = 0; i < n; i++)
		man_command(cmds[i], out);
	fputs(".SH \"EXIT STATUS\"\n0: done; 1: a gate failed (a hazard, a regression, a failed\n"
	      "check); 2: bad usage or an input that could not be read. Each command's section\n"
	      "says which.\n", out);
}
