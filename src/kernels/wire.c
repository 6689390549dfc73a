/* A routine and what to do with it, as text between straddle and the
 * AArch64 runner it starts under qemu-user (emulate.c, aarch64/runner.c):
 * one record a line, the code in hex, so that a run can be read and
 * replayed by hand. The runner links this file and not the image
 * reader: what it runs is exactly what straddle analysed.
 *
 *	kroutine 1
 *	name __arch_clear_user
 *	kind 0 entry 0 loop 16 32 size 104
 *	call DST SRC LEN VALUE RET OUT RETURNS SIZE GRANULE EXACT_FROM NARROWS USER COUNT
 *	     NSET R V R V
 *	ex FAULT FIXUP KIND REG FLAGS TYPE IMM            (one an entry)
 *	code 5f2403d5...
 *	check OFFSET...   or   sweep OFFSET... calls SIZE...
 *	end */
#include "kernels.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The longest copy relocate/ makes is twice its reach (64 KiB each side). */
#define WIRE_MAX_CODE (256u * 1024)
#define WIRE_MAX_EX 4096u

void kernel_wire_write(FILE *f, const struct kernel *k, enum kernel_wire_mode mode,
		       const uint32_t *offsets, size_t noffsets, const size_t *calls,
		       size_t ncalls)
{
	const struct kernel_call *c = k->call;

	fprintf(f, "kroutine 1\nname %s\n", k->name);
	fprintf(f, "kind %d entry %" PRIu32 " loop %" PRIu32 " %" PRIu32 " size %zu\n",
		(int)k->kind, k->entry, k->loop_start, k->loop_end, k->size);
	fprintf(f, "call %u %u %u %u %u %u %u %u %u %" PRIu32 " %d %u %u %u", c->dst, c->src,
		c->len, c->value, c->ret, c->out, c->returns, c->size, c->granule, c->exact_from,
		(int)c->narrows, c->user, c->count, c->nset);
	for (uint8_t i = 0; i < c->nset && i < 2; i++)
		fprintf(f, " %u %" PRIu64, c->set[i].reg, c->set[i].value);
	fputc('\n', f);
	for (size_t i = 0; i < k->nfixups; i++) {
		const struct kex *x = &k->fixups[i];

		fprintf(f, "ex %" PRIu32 " %" PRIu32 " %u %u %u %u %" PRId32 "\n", x->fault, x->fixup,
			x->kind, x->reg, x->flags, x->type, x->imm);
	}
	fputs("code ", f);
	for (size_t i = 0; i < k->size; i++)
		fprintf(f, "%02x", k->code[i]);
	fputs(mode == KWIRE_CHECK ? "\ncheck" : "\nsweep", f);
	for (size_t i = 0; i < noffsets; i++)
		fprintf(f, " %" PRIu32, offsets[i]);
	if (mode == KWIRE_SWEEP) {
		fputs(" calls", f);
		for (size_t i = 0; i < ncalls; i++)
			fprintf(f, " %zu", calls[i]);
	}
	fputs("\nend\n", f);
}

/* ---- reading ---- */

struct reader {
	FILE *f;
	char *line;
	size_t cap;
	struct err *e;
	unsigned n;             /* the line's number */
};

static char *next_line(struct reader *r, const char *key)
{
	ssize_t n = getline(&r->line, &r->cap, r->f);
	size_t kl = strlen(key);

	r->n++;
	if (n <= 0) {
		err_set(r->e, "line %u: the input ends before '%s'", r->n, key);
		return NULL;
	}
	if (r->line[n - 1] == '\n')
		r->line[n - 1] = '\0';
	if (strncmp(r->line, key, kl) != 0 || (r->line[kl] != ' ' && r->line[kl] != '\0')) {
		err_set(r->e, "line %u: '%.40s' where '%s' belongs", r->n, r->line, key);
		return NULL;
	}
	return r->line + kl;
}

static int bad(struct reader *r, const char *what)
{
	return err_set(r->e, "line %u: %s", r->n, what);
}

static int read_call(struct reader *r, struct kernel_call *c)
{
	unsigned v[10], set[4] = { 0 }, user, count;
	unsigned long long val[2] = { 0 };
	int narrows, used;
	const char *p = next_line(r, "call");

	if (!p || sscanf(p, "%u %u %u %u %u %u %u %u %u %u %d %u %u %u%n", &v[0], &v[1], &v[2],
			 &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &narrows, &user, &count,
			 &set[0], &used) != 14 || user > KUSER_SRC || count > KCOUNT_A64_COPY)
		return p ? bad(r, "not a call") : -1;
	if (set[0] > 2 || (set[0] >= 1 && sscanf(p + used, "%u %llu %u %llu", &set[1], &val[0],
						   &set[2], &val[1]) < (int)set[0] * 2))
		return bad(r, "a call's constants");
	for (int i = 0; i < 6; i++)
		if (v[i] > 30 && v[i] != KREG_NONE)
			return bad(r, "a register past x30");
	*c = (struct kernel_call){ (uint8_t)v[0], (uint8_t)v[1], (uint8_t)v[2], (uint8_t)v[3],
		(uint8_t)v[4], (uint8_t)v[5], (uint8_t)(v[6] & 3), (uint8_t)v[7], (uint8_t)set[0],
		{ { (uint8_t)(set[1] & 31), val[0] }, { (uint8_t)(set[2] & 31), val[1] } },
		(uint8_t)v[8], v[9], narrows != 0, (uint8_t)user, (uint8_t)count };
	return 0;
}

/* The code's line, read already. */
static int read_code(struct reader *r, struct kernel_wire *w, size_t size)
{
	const char *p = r->line + 5;

	r->line[strcspn(r->line, "\n")] = '\0';
	if (strncmp(r->line, "code ", 5) != 0)
		return bad(r, "no code");
	if (strlen(p) != 2 * size)
		return bad(r, "the code is not as long as its size");
	w->code = xmalloc(size + 1);
	for (size_t i = 0; i < size; i++) {
		unsigned b;

		if (sscanf(p + 2 * i, "%2x", &b) != 1)
			return bad(r, "the code is not hex");
		w->code[i] = (uint8_t)b;
	}
	return 0;
}

/* "check 0 4 ..." or "sweep 0 4 ... calls 4096 ...". */
static int read_mode(struct reader *r, struct kernel_wire *w)
{
	ssize_t n = getline(&r->line, &r->cap, r->f);
	char *p, *tok, *save = NULL;
	bool calls = false;

	r->n++;
	if (n <= 0)
		return bad(r, "no check or sweep line");
	r->line[strcspn(r->line, "\n")] = '\0';
	p = r->line;
	if (strncmp(p, "check", 5) == 0)
		w->mode = KWIRE_CHECK;
	else if (strncmp(p, "sweep", 5) == 0)
		w->mode = KWIRE_SWEEP;
	else
		return bad(r, "neither check nor sweep");
	for (tok = strtok_r(p + 5, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *end;
		unsigned long long v = strtoull(tok, &end, 10);

		if (strcmp(tok, "calls") == 0 && w->mode == KWIRE_SWEEP) {
			calls = true;
			continue;
		}
		if (*end || (calls ? w->ncalls : w->noffsets) == 64 || v > (1u << 30))
			return bad(r, "an offset or call size");
		if (calls)
			w->calls[w->ncalls++] = (size_t)v;
		else
			w->offsets[w->noffsets++] = (uint32_t)v;
	}
	return 0;
}

static int read_body(struct reader *r, struct kernel_wire *w)
{
	struct kernel *k = &w->k;
	const char *p;
	int kind;
	size_t size, cap = 0;

	if (!(p = next_line(r, "kroutine")) || strcmp(p, " 1") != 0)
		return p ? bad(r, "not version 1") : -1;
	if (!(p = next_line(r, "name")))
		return -1;
	snprintf(w->name, sizeof w->name, "%s", p + (*p == ' '));
	if (!(p = next_line(r, "kind")))
		return -1;
	if (sscanf(p, "%d entry %" SCNu32 " loop %" SCNu32 " %" SCNu32 " size %zu", &kind, &k->entry,
		   &k->loop_start, &k->loop_end, &size) != 5 || kind < 0 || kind > KERNEL_CSUM ||
	    !size || size > WIRE_MAX_CODE || k->entry >= size || k->loop_end > size)
		return bad(r, "not a kind, entry, loop and size");
	if (read_call(r, &w->call))
		return -1;
	for (;;) {
		struct kex x = { 0 };
		unsigned v[6];

		r->n++;
		if (getline(&r->line, &r->cap, r->f) <= 0)
			return bad(r, "the input ends before 'code'");
		if (strncmp(r->line, "ex ", 3) != 0)
			break;
		if (sscanf(r->line + 3, "%u %u %u %u %u %u %" SCNd32, &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &x.imm) != 7 || v[0] >= size || v[1] >= size ||
		    v[2] > KEX_ERR_ZERO || w->k.nfixups == WIRE_MAX_EX)
			return bad(r, "not an exception-table entry of the code");
		x.fault = v[0], x.fixup = v[1], x.kind = (uint8_t)v[2], x.reg = (uint8_t)(v[3] & 31);
		x.flags = (uint8_t)v[4], x.type = (uint8_t)v[5];
		GROW(w->ex, cap, k->nfixups + 1);
		w->ex[k->nfixups++] = x;
	}
	if (read_code(r, w, size) || read_mode(r, w))
		return -1;
	if (!(p = next_line(r, "end")))
		return -1;
	k->kind = (enum kernel_kind)kind;
	k->size = size;
	return 0;
}

int kernel_wire_read(FILE *f, struct kernel_wire *w, struct err *e)
{
	struct reader r = { .f = f, .e = e };
	int rc;

	memset(w, 0, sizeof *w);
	rc = read_body(&r, w);
	free(r.line);
	if (rc)
		return -1;
	w->k.name = w->name;
	w->k.arch = arena_host_arch();
	w->k.seed = "-";
	w->k.summary = w->name;
	w->k.placeable = true;
	w->k.code = w->code;
	w->k.fixups = w->ex;
	w->k.call = &w->call;
	return 0;
}

void kernel_wire_free(struct kernel_wire *w)
{
	free(w->code);
	free(w->ex);
	memset(w, 0, sizeof *w);
}
