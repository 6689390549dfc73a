/* results/head.h: the machine and the command line at the head of every
 * result file, written and read back (machine.c). */
#ifndef STRADDLE_RESULTS_HEAD_H
#define STRADDLE_RESULTS_HEAD_H

#include <jansson.h>

#include "../base/base.h"
#include "../measure/state.h"

/* The machine: CPU identity, microcode, ERMS/FSRM/FZRM/FSRS, kernel. */
json_t *results_machine(void);
/* The head of a result file: schema, command, tool version, the command
 * line, the time (UTC) and the machine. */
json_t *results_run_info(const char *command, int argc, char **argv);

/* What every result file's head says (machine.c), read back for the page:
 * the machine, the command line, the time and the tool's version; NULL
 * where the file has none. Two heads name the same machine when every
 * field the machine has agrees. */
struct machine_doc {
	bool present;
	const char *vendor, *model_name, *microcode, *kernel, *arch, *profile;
	bool has_fms;
	long long family, model, stepping;
	char features[64];
};

struct result_head {
	struct machine_doc machine;
	bool has_argv;
	const char **argv;              /* an element NULL: not a string */
	size_t argc;
	const char *time, *tool_version;
};

void results_head_of(const json_t *doc, struct result_head *h);
void results_head_free(struct result_head *h);
bool results_same_machine(const struct machine_doc *a, const struct machine_doc *b);
/* The same of two "machine" objects (NULL or not an object: false). */
bool results_same_machine_json(const json_t *a, const json_t *b);

json_t *results_state(const struct machine_state *m);

#endif
