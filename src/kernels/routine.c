/* A kernel image's own routine as a kernel sweep places and --check
 * proves: relocate.h's copy with its edits made, a call spec saying which
 * register holds what (built in for the seeds' routines and their
 * successors, or given), its hot loop, and what the host's kernel would
 * pick at the routine's alternatives and at the call that reaches it. */
#include "internal.h"

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { AX, CX, DX, BX, SP, BP, SI, DI, NO = KREG_NONE };

static const char *const reg_names[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi",
	"rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };

/* AArch64's x0..x28 as the trampoline loads them (aarch64/kcall.S): x29
 * and x30 are the frame and the link the call itself sets. */
#define A64_REGS 29

static const char *reg_name(enum arch arch, unsigned r)
{
	static const char *const a64[32] = { "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
		"x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
		"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "xzr" };

	return arch == ARCH_AARCH64 ? a64[r & 31] : reg_names[r & 15];
}

/* The built-in calls. The registers are the routines' own (arch/x86/lib/
 * clear_page_64.S, copy_user_64.S, putuser.S, getuser.S, memset_64.S,
 * memcpy_64.S; csum_partial is C). `when` is the host condition under
 * which the kernel's call site reaches it (the ALTERNATIVE there, in
 * /proc/cpuinfo flags; "" always). */
struct spec {
	const char *name;
	enum kernel_kind kind;
	struct kernel_call call;
	const char *seed, *what, *when;
	/* the job it does across releases, where its name changed: 6.1's
	 * clear_user without fast strings is 6.12's rep_stos_alternative */
	const char *role;
};

#define LEFT(d, s, l, r) .dst = d, .src = s, .len = l, .value = NO, .ret = r, .out = NO, \
	.returns = KRET_LEFT
#define ZERO_AX .nset = 1, .set = { { AX, 0 } }

static const struct spec specs[] = {
	{ "clear_user_original", KERNEL_CLEAR, { LEFT(DI, NO, CX, CX), ZERO_AX, .granule = 8,
	  .exact_from = UINT32_MAX }, "000", "6.1 clear_user without REP_GOOD: 8-byte stores, "
	  "then bytes", "!fsrm !erms !rep_good", "clear_user" },
	{ "clear_user_rep_good", KERNEL_CLEAR, { LEFT(DI, NO, CX, CX), ZERO_AX, .granule = 8,
	  .exact_from = UINT32_MAX }, "000", "6.1 clear_user with REP_GOOD: rep stosq",
	  "!fsrm !erms rep_good", NULL },
	{ "clear_user_erms", KERNEL_CLEAR, { LEFT(DI, NO, CX, CX), ZERO_AX, .granule = 8,
	  .exact_from = 64 }, "000", "6.1 clear_user with ERMS: rep stosb from 64 B",
	  "!fsrm erms", NULL },
	{ "rep_stos_alternative", KERNEL_CLEAR, { LEFT(DI, NO, CX, CX), ZERO_AX,
	  .exact_from = UINT32_MAX }, "000", "6.2+ clear_user without FSRS: 64 B unrolled, "
	  "8 B, bytes", "!fsrs", "clear_user" },
	{ "rep_movs_alternative", KERNEL_COPY, { LEFT(DI, SI, CX, CX) }, "001",
	  "6.3+ copy_user without FSRM", "!fsrm", "copy_user" },
	{ "copy_user_generic_unrolled", KERNEL_COPY, { LEFT(DI, SI, DX, AX) }, "001",
	  "6.1 copy_user without REP_GOOD: 64 B unrolled", "!rep_good !erms", "copy_user" },
	{ "copy_user_generic_string", KERNEL_COPY, { LEFT(DI, SI, DX, AX) }, "001",
	  "6.1 copy_user with REP_GOOD: rep movsq", "rep_good !erms", NULL },
	{ "copy_user_enhanced_fast_string", KERNEL_COPY, { LEFT(DI, SI, DX, AX) }, "001",
	  "6.1 copy_user with ERMS: rep movsb from 64 B", "erms", NULL },
	{ "memset", KERNEL_CLEAR, { .dst = DI, .src = NO, .len = DX, .value = NO, .ret = AX,
	  .out = NO, .returns = KRET_DST, .nset = 1, .set = { { SI, 0 } } }, "-",
	  "memset(dst, 0, len)", "", NULL },
	{ "memcpy", KERNEL_COPY, { .dst = DI, .src = SI, .len = DX, .value = NO, .ret = AX,
	  .out = NO, .returns = KRET_DST }, "-", "memcpy(dst, src, len)", "", NULL },
	{ "memmove", KERNEL_COPY, { .dst = DI, .src = SI, .len = DX, .value = NO, .ret = AX,
	  .out = NO, .returns = KRET_DST }, "-", "memmove(dst, src, len)", "", NULL },
	{ "csum_partial", KERNEL_CSUM, { .dst = NO, .src = DI, .len = SI, .value = NO, .ret = AX,
	  .out = NO, .returns = KRET_SUM, .nset = 1, .set = { { DX, 0 } } }, "-",
	  "csum_partial(src, len, 0): the unfolded sum", "", NULL },
};

#define NSPECS (sizeof specs / sizeof specs[0])

/* AArch64's (arch/arm64/lib/clear_user.S, copy_to_user.S,
 * copy_from_user.S; 5.14 on): x0 the destination, x1 the size or the
 * source, x2 the size, x0 the bytes left. __arch_clear_user stores 8 bytes
 * while 8 are left and the last 8 overlapping, below 8 one 4-, 2- or
 * 1-byte store from each end; a fault's fixup counts from the store's
 * start, so what it returns is in whole stores of the width its length
 * takes. */
static const struct spec a64_specs[] = {
	{ "__arch_clear_user", KERNEL_CLEAR, { .dst = 0, .src = NO, .len = 1, .value = NO, .ret = 0,
	  .out = NO, .returns = KRET_LEFT, .granule = 8, .exact_from = UINT32_MAX,
	  .narrows = true }, "002", "arm64 clear_user: 8-byte sttr, then 4, 2, 1", "", NULL },
	{ "__arch_copy_to_user", KERNEL_COPY, { .dst = 0, .src = 1, .len = 2, .value = NO, .ret = 0,
	  .out = NO, .returns = KRET_LEFT, .exact_from = UINT32_MAX, .user = KUSER_DST,
	  .count = KCOUNT_A64_COPY }, "001",
	  "arm64 copy_to_user: copy_template.S with sttr", "", NULL },
	{ "__arch_copy_from_user", KERNEL_COPY, { .dst = 0, .src = 1, .len = 2, .value = NO,
	  .ret = 0, .out = NO, .returns = KRET_LEFT, .exact_from = UINT32_MAX, .user = KUSER_SRC,
	  .count = KCOUNT_A64_COPY },
	  "001", "arm64 copy_from_user: copy_template.S with ldtr", "", NULL },
};

/* __put_user_N and __put_user_nocheck_N (value rax, address rcx; rcx 0 or
 * -EFAULT), __get_user_N and __get_user_nocheck_N (address rax; value
 * rdx, rax 0 or -EFAULT): one store or load, all or nothing. */
static bool access_spec(const char *name, struct spec *out)
{
	bool put = strncmp(name, "__put_user_", 11) == 0, get = strncmp(name, "__get_user_", 11) == 0;
	const char *n = name + 11;
	char *end;
	unsigned long size;

	if (!put && !get)
		return false;
	if (strncmp(n, "nocheck_", 8) == 0)
		n += 8;
	size = strtoul(n, &end, 10);
	if (*end || (size != 1 && size != 2 && size != 4 && size != 8))
		return false;
	*out = (struct spec){ name, put ? KERNEL_PUT : KERNEL_GET, { .dst = put ? CX : NO,
		.src = put ? NO : AX, .len = NO, .value = put ? AX : NO, .ret = put ? CX : AX,
		.out = put ? NO : DX, .returns = KRET_ERROR, .size = (uint8_t)size,
		.granule = (uint8_t)size, .exact_from = UINT32_MAX }, "004",
		put ? "put_user: one store, 0 or -EFAULT" : "get_user: one load, 0 or -EFAULT", "",
		NULL };
	return true;
}

static bool builtin_spec(const char *name, struct spec *out)
{
	const char *n = name;

	/* __memset is memset, __memcpy memcpy (the kernel's aliases) */
	if (strcmp(n, "__memset") == 0 || strcmp(n, "__memcpy") == 0 || strcmp(n, "__memmove") == 0)
		n += 2;
	for (size_t i = 0; i < NSPECS; i++)
		if (strcmp(specs[i].name, n) == 0) {
			*out = specs[i];
			out->name = name;
			return true;
		}
	for (size_t i = 0; i < sizeof a64_specs / sizeof *a64_specs; i++)
		if (strcmp(a64_specs[i].name, n) == 0) {
			*out = a64_specs[i];
			return true;
		}
	return access_spec(name, out);
}

bool routine_builtin(const char *func, const char **role)
{
	struct spec sp;

	if (!builtin_spec(func, &sp))
		return false;
	*role = sp.role;
	return true;
}

const char *routine_builtin_at(size_t i)
{
	static const char *const access[] = { "__put_user_1", "__put_user_2", "__put_user_4",
		"__put_user_8", "__put_user_nocheck_1", "__put_user_nocheck_2",
		"__put_user_nocheck_4", "__put_user_nocheck_8", "__get_user_1", "__get_user_2",
		"__get_user_4", "__get_user_8", "__get_user_nocheck_1", "__get_user_nocheck_2",
		"__get_user_nocheck_4", "__get_user_nocheck_8" };

	if (i < NSPECS)
		return specs[i].name;
	i -= NSPECS;
	return i < sizeof access / sizeof *access ? access[i] : NULL;
}

const char *routine_of_role(const char *role, size_t i)
{
	for (size_t k = 0, n = 0; k < NSPECS; k++)
		if (specs[k].role && strcmp(specs[k].role, role) == 0 && n++ == i)
			return specs[k].name;
	return NULL;
}

/* ---- --call SPEC ---- */

static int reg_from(enum arch arch, const char *s, size_t n)
{
	for (unsigned r = 0; r < (arch == ARCH_AARCH64 ? A64_REGS : 16); r++)
		if (strlen(reg_name(arch, r)) == n && strncmp(reg_name(arch, r), s, n) == 0)
			return (int)r;
	return -1;
}

static int spec_kind(const char *s, size_t n, struct spec *out)
{
	static const char *const kinds[] = { "clear", "copy", "put", "get", "csum" };
	static const uint8_t returns[] = { KRET_LEFT, KRET_LEFT, KRET_ERROR, KRET_ERROR, KRET_SUM };

	for (int k = 0; k < 5; k++) {
		size_t kl = strlen(kinds[k]);

		if (n < kl || strncmp(s, kinds[k], kl) != 0)
			continue;
		out->kind = (enum kernel_kind)k;
		out->call.returns = returns[k];
		if (k == KERNEL_PUT || k == KERNEL_GET) {
			if (n != kl + 1 || !strchr("1248", s[kl]))
				return -1;
			out->call.size = out->call.granule = (uint8_t)(s[kl] - '0');
			return 0;
		}
		return n == kl ? 0 : -1;
	}
	return -1;
}

/* returns=, user= or count= with one of its words: true when it was one. */
static bool word_field(const char *key, size_t kn, const char *val, size_t vn,
		       struct kernel_call *c)
{
	static const struct {
		const char *key, *words[4];
		size_t offset;
	} fields[] = {
		{ "returns", { "left", "dst", "error", "sum" }, offsetof(struct kernel_call, returns) },
		{ "user", { "both", "dst", "src" }, offsetof(struct kernel_call, user) },
		{ "count", { "bytes", "arm64-copy" }, offsetof(struct kernel_call, count) },
	};

	for (size_t f = 0; f < sizeof fields / sizeof *fields; f++)
		for (int k = 0; k < 4 && fields[f].words[k]; k++)
			if (strlen(fields[f].key) == kn && strncmp(key, fields[f].key, kn) == 0 &&
			    strlen(fields[f].words[k]) == vn && strncmp(val, fields[f].words[k], vn) == 0) {
				*((uint8_t *)c + fields[f].offset) = (uint8_t)k;
				return true;
			}
	return false;
}

/* One key=value of the spec; its error in e. */
static int spec_field(enum arch arch, const char *key, size_t kn, const char *val, size_t vn,
		      struct spec *sp, struct err *e)
{
	static const char *const regkeys[] = { "dst", "src", "len", "value", "ret", "out" };
	struct kernel_call *c = &sp->call;
	uint8_t *slot[] = { &c->dst, &c->src, &c->len, &c->value, &c->ret, &c->out };
	int r = reg_from(arch, val, vn);
	char *end;
	unsigned long long v = strtoull(val, &end, 0);

	for (int k = 0; k < 6; k++)
		if (strlen(regkeys[k]) == kn && strncmp(key, regkeys[k], kn) == 0) {
			if (r < 0)
				return err_set(e, "'%.*s' is not a register (%s)", (int)vn, val,
					       arch == ARCH_AARCH64 ? "x0 .. x28: x29 and x30 are the "
					       "frame and link the call sets" : "rax .. r15");
			*slot[k] = (uint8_t)r;
			return 0;
		}
	if (word_field(key, kn, val, vn, c))
		return 0;
	if (end != val + vn || vn == 0)
		return err_set(e, "'%.*s=%.*s' is not one of dst, src, len, value, ret, out=REG, "
			       "returns=left|dst|error|sum, user=both|dst|src, count=bytes|arm64-copy, "
			       "granule=N, exact-from=N, narrows=0|1, REG=NUMBER", (int)kn, key,
			       (int)vn, val);
	if (kn == 7 && strncmp(key, "granule", 7) == 0 && v <= 64)
		c->granule = (uint8_t)v;
	else if (kn == 7 && strncmp(key, "narrows", 7) == 0 && v <= 1)
		c->narrows = v;
	else if (kn == 10 && strncmp(key, "exact-from", 10) == 0 && v <= UINT32_MAX)
		c->exact_from = (uint32_t)v;
	else if ((r = reg_from(arch, key, kn)) >= 0 && (arch == ARCH_AARCH64 || r != SP) &&
		 c->nset < 2)
		c->set[c->nset++] = (struct kernel_const){ (uint8_t)r, v };
	else
		return err_set(e, "'%.*s=%.*s': no such field, or a third constant", (int)kn, key,
			       (int)vn, val);
	return 0;
}

/* Every register the kind needs is named. */
static int spec_complete(const struct spec *sp, struct err *e)
{
	const struct kernel_call *c = &sp->call;
	bool ok = c->ret != NO;

	switch (sp->kind) {
	case KERNEL_CLEAR: ok = ok && c->dst != NO && c->len != NO; break;
	case KERNEL_COPY: ok = ok && c->dst != NO && c->src != NO && c->len != NO; break;
	case KERNEL_PUT: ok = ok && c->dst != NO && c->value != NO; break;
	case KERNEL_GET: ok = ok && c->src != NO && c->out != NO; break;
	case KERNEL_CSUM: ok = ok && c->src != NO && c->len != NO; break;
	}
	if (!ok)
		return err_set(e, "--call: a %s call needs ret= and %s", kernel_kind_name(sp->kind),
			       sp->kind == KERNEL_CLEAR ? "dst=, len=" :
			       sp->kind == KERNEL_COPY ? "dst=, src=, len=" :
			       sp->kind == KERNEL_PUT ? "dst=, value=" :
			       sp->kind == KERNEL_GET ? "src=, out=" : "src=, len=");
	return 0;
}

/* "clear,dst=rdi,len=rcx,ret=rcx,rax=0": KIND (clear, copy, put1..put8,
 * get1..get8, csum), then fields. */
int kernel_call_parse(const char *text, enum arch arch, enum kernel_kind *kind,
		      struct kernel_call *call, struct err *e)
{
	struct spec sp = { .call = { .dst = NO, .src = NO, .len = NO, .value = NO, .ret = NO,
				     .out = NO, .exact_from = UINT32_MAX } };
	const char *p = text, *comma = strchr(p, ',');
	size_t n = comma ? (size_t)(comma - p) : strlen(p);

	if (spec_kind(p, n, &sp))
		return err_set(e, "--call '%s': begin with clear, copy, put1|2|4|8, get1|2|4|8 or "
			       "csum", text);
	while (comma) {
		const char *eq;

		p = comma + 1;
		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) : strlen(p);
		eq = memchr(p, '=', n);
		if (!eq)
			return err_set(e, "--call: '%.*s' is not KEY=VALUE", (int)n, p);
		if (spec_field(arch, p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1, &sp, e)) {
			char msg[sizeof e->msg];

			snprintf(msg, sizeof msg, "%s", e->msg);
			return err_set(e, "--call: %s", msg);
		}
	}
	if (spec_complete(&sp, e))
		return -1;
	*kind = sp.kind;
	*call = sp.call;
	return 0;
}

/* ---- the copy ---- */

/* The kernel's own boot-time forms: apply_returns' "ret; int3",
 * apply_retpolines' "call *%reg" padded with nops, ftrace's nop. */
static void make_edits(struct routine *rt)
{
	const struct kroutine *r = &rt->r;

	memcpy(rt->code, r->code, r->size);
	for (size_t i = 0; i < r->nedit; i++) {
		const struct kedit *d = &r->edit[i];
		uint8_t *at = rt->code + d->at;
		uint32_t n = 0;

		switch (d->kind) {
		case KEDIT_RET:
			at[0] = 0xc3;
			memset(at + 1, 0xcc, d->len - 1);
			break;
		case KEDIT_CALL_REG:
			if (d->reg >= 8)
				at[n++] = 0x41;         /* REX.B */
			at[n++] = 0xff;
			at[n++] = (uint8_t)(0xd0 | (d->reg & 7));
			kernels_x86_nops(at + n, d->len - n);
			break;
		case KEDIT_NOP:
			kernels_x86_nops(at, d->len);
			break;
		case KEDIT_ALT:
			memcpy(at, r->pool + d->bytes, d->nbytes);
			kernels_x86_nops(at + d->nbytes, d->len - d->nbytes);
			break;
		}
	}
}

/* The innermost loop holding `where` (0x... in the file, +OFF from the
 * entry), or without it the innermost loop of the most bytes. */
static int choose_loop(struct routine *rt, const char *where, struct err *e)
{
	const struct kroutine *r = &rt->r;
	uint64_t at = 0;
	char *end;

	rt->hot = r->nloop;
	if (where) {
		bool rel = where[0] == '+';
		unsigned long long v = strtoull(where + rel, &end, 0);

		if (*end || end == where + rel)
			return err_set(e, "--loop '%s' is not an address (0x...) or +OFFSET", where);
		at = rel ? r->entry + v : v - r->base;
	}
	for (size_t i = 0; i < r->nloop; i++) {
		const struct kroutine_loop *l = &r->loop[i], *h = &r->loop[rt->hot];
		bool holds = at >= l->start && at < l->end;

		if (where ? holds && (rt->hot == r->nloop || l->end - l->start < h->end - h->start) :
		    l->innermost && (rt->hot == r->nloop || l->end - l->start > h->end - h->start))
			rt->hot = i;
	}
	if (where && rt->hot == r->nloop)
		return err_set(e, "%s: no loop of %s holds %s", r->path, r->name, where);
	return 0;
}

static int call_of(struct routine *rt, const struct routine_opts *o, struct err *e)
{
	struct spec sp;

	if (o->call) {
		rt->when = "";
		return kernel_call_parse(o->call, rt->r.arch, &rt->k.kind, &rt->call, e);
	}
	/* AArch64's built-in calls are its own (__arch_*): memset's registers
	 * there are not x86-64's */
	if (!builtin_spec(o->func, &sp) ||
	    (strncmp(o->func, "__arch_", 7) == 0) != (rt->r.arch == ARCH_AARCH64))
		return err_set(e, "%s: no built-in call for %s: say which register holds what with "
			       "--call (e.g. %s)", o->path, o->func, rt->r.arch == ARCH_AARCH64 ?
			       "clear,dst=x0,len=x1,ret=x0" : "clear,dst=rdi,len=rcx,ret=rcx,rax=0");
	rt->builtin = true;
	rt->k.kind = sp.kind;
	rt->call = sp.call;
	rt->k.seed = sp.seed;
	rt->when = sp.when;
	rt->what = sp.what;
	return 0;
}

static void fill_kernel(struct routine *rt, const struct routine_opts *o)
{
	struct kernel *k = &rt->k;
	const struct kroutine *r = &rt->r;

	snprintf(rt->name, sizeof rt->name, "%s", o->label ? o->label : o->func);
	snprintf(rt->summary, sizeof rt->summary, "%.40s %.60s: %.80s",
		 r->release[0] ? r->release : "?", r->name, rt->builtin ? rt->what : "given by --call");
	k->name = rt->name;
	k->arch = r->arch;
	if (!k->seed)
		k->seed = "-";
	k->summary = rt->summary;
	k->placeable = !rt->emulated;
	k->code = rt->code;
	k->size = r->size;
	k->fixups = r->ex;
	k->nfixups = r->nex;
	k->entry = r->entry;
	k->call = &rt->call;
	k->loop_start = k->loop_end = r->entry;
	if (rt->hot < r->nloop) {
		k->loop_start = r->loop[rt->hot].start;
		k->loop_end = r->loop[rt->hot].end;
	}
}

int routine_open(const struct routine_opts *o, struct routine **out, struct err *e)
{
	struct kroutine_opts ko = { o->func, o->alternatives, o->nalternatives };
	struct routine *rt = xcalloc(1, sizeof *rt);

	*out = NULL;
	if (arena_host_arch() != ARCH_X86_64) {
		free(rt);
		return err_set(e, "%s: a kernel's routines run on an x86-64 host only", o->path);
	}
	if (kroutine_open(o->path, &ko, &rt->r, e)) {
		free(rt);
		return -1;
	}
	rt->emulated = rt->r.arch != arena_host_arch();
	if (call_of(rt, o, e) || choose_loop(rt, o->loop, e) ||
	    (rt->emulated && routine_find_runner(rt, e))) {
		kroutine_free(&rt->r);
		free(rt);
		return -1;
	}
	rt->code = xmalloc(rt->r.size);
	make_edits(rt);
	fill_kernel(rt, o);
	if (!rt->emulated && kernel_adopt(&rt->k, e)) {
		routine_free(rt);
		return -1;
	}
	*out = rt;
	return 0;
}

void routine_free(struct routine *rt)
{
	if (!rt)
		return;
	if (!rt->emulated)
		kernel_disown(&rt->k);
	kroutine_free(&rt->r);
	free(rt->code);
	free(rt);
}

/* ---- the host's kernel ---- */

int kernels_host_flag(const char *flag)
{
	static char line[8192];
	static int state;       /* 0 unread, 1 read, -1 none */
	char pat[64];

	if (!state) {
		FILE *f = fopen("/proc/cpuinfo", "r");

		state = -1;
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "flags", 5) == 0) {
				line[strcspn(line, "\n")] = ' ';
				state = 1;
				break;
			}
		if (f)
			fclose(f);
	}
	if (state < 0)
		return -1;
	snprintf(pat, sizeof pat, " %s ", flag);
	return strstr(line, pat) != NULL;
}

/* "!fsrm !erms rep_good": does the host kernel have each flag (or lack
 * it, with '!')? 1, 0, or -1 when it cannot tell. */
static int host_meets(const char *when)
{
	char buf[128], *tok, *save = NULL;
	int all = 1;

	snprintf(buf, sizeof buf, "%s", when);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		bool not = tok[0] == '!';
		int has = kernels_host_flag(tok + not);

		if (has < 0)
			return -1;
		if (has == not)
			all = 0;
	}
	return all;
}

/* ---- for people ---- */

static const char *ex_type_name(enum arch arch, unsigned t)
{
	if (arch == ARCH_AARCH64)
		return t == 2 ? "UACCESS_ERR_ZERO" : "?";
	static const char *const names[] = { [1] = "DEFAULT", [2] = "FAULT", [3] = "UACCESS",
		[4] = "COPY", [14] = "DEFAULT_MCE_SAFE", [15] = "FAULT_MCE_SAFE", [16] = "POP_REG",
		[17] = "IMM_REG", [19] = "UCOPY_LEN", [20] = "ZEROPAD" };

	return t < sizeof names / sizeof *names && names[t] ? names[t] : "handler";
}

static void describe_call(const struct routine *rt, FILE *out)
{
	const struct kernel_call *c = &rt->call;
	static const char *const rets[] = { "bytes left", "dst", "0 or -EFAULT", "the sum" };
	const char *keys[] = { "dst", "src", "len", "value", "out" };
	const uint8_t regs[] = { c->dst, c->src, c->len, c->value, c->out };

	enum arch arch = rt->r.arch;

	fprintf(out, "  call: %s%s", kernel_kind_name(rt->k.kind), c->size ? "" : "");
	if (c->size)
		fprintf(out, " of %u bytes", c->size);
	for (int i = 0; i < 5; i++)
		if (regs[i] != NO)
			fprintf(out, ", %s %s", keys[i], reg_name(arch, regs[i]));
	for (uint8_t i = 0; i < c->nset; i++)
		fprintf(out, ", %s = %" PRIu64, reg_name(arch, c->set[i].reg), c->set[i].value);
	fprintf(out, "; returns %s in %s", rets[c->returns], reg_name(arch, c->ret));
	if (c->user)
		fprintf(out, "; faults on its %s only", c->user == KUSER_DST ? "destination" : "source");
	if (c->count == KCOUNT_A64_COPY)
		fprintf(out, "; after a fault, copy_template's groups");
	else if (c->narrows)
		fprintf(out, "; after a fault, whole %u-byte accesses, narrower below %u bytes",
			c->granule, c->granule);
	else if (c->granule && c->exact_from == UINT32_MAX)
		fprintf(out, "; after a fault, whole %u-byte accesses only", c->granule);
	else if (c->granule)
		fprintf(out, "; after a fault, whole %u-byte accesses below %u bytes", c->granule,
			c->exact_from);
	fprintf(out, "%s\n", rt->builtin ? "" : " (--call)");
}

static void describe_edits(const struct kroutine *r, FILE *out)
{
	static const char *const how[] = { "ret", "call *%reg", "nops", "alternative applied" };

	fprintf(out, "  made user-space:%s", r->nedit ? "" : " nothing");
	for (size_t i = 0; i < r->nedit; i++) {
		const struct kedit *d = &r->edit[i];

		fprintf(out, "%s +%#x %s -> ", i ? "," : "", d->at, d->what);
		if (d->kind == KEDIT_CALL_REG)
			fprintf(out, "call *%%%s", reg_names[d->reg]);
		else
			fprintf(out, "%s", how[d->kind]);
	}
	fprintf(out, "\n  exception table:%s", r->nex ? "" : " none");
	for (size_t i = 0; i < r->nex; i++) {
		fprintf(out, "%s +%#x -> +%#x %s", i ? "," : "", r->ex[i].fault, r->ex[i].fixup,
			ex_type_name(r->arch, r->ex[i].type));
		if (r->ex[i].kind == KEX_ERR_ZERO)
			fprintf(out, " (%s, %s)", reg_name(r->arch, r->ex[i].reg),
				reg_name(r->arch, (unsigned)r->ex[i].imm));
	}
	fprintf(out, "\n");
}

static void describe_loops(const struct routine *rt, FILE *out)
{
	const struct kroutine *r = &rt->r;

	fprintf(out, "  loops:%s", r->nloop ? "" : " none");
	for (size_t i = 0; i < r->nloop; i++)
		fprintf(out, "%s +%#x..+%#x (%u B%s%s)", i ? "," : "", r->loop[i].start, r->loop[i].end,
			r->loop[i].end - r->loop[i].start, r->loop[i].innermost ? ", innermost" : "",
			i == rt->hot ? ", the sweep's" : "");
	fprintf(out, "\n");
}

/* Each site: its entries in table order; the host kernel's pick is the
 * last whose feature test its flags pass (apply_alternatives). */
static void describe_alternatives(const struct kroutine *r, FILE *out)
{
	char fb[16];

	if (r->arch == ARCH_AARCH64) {
		fprintf(out, "  alternatives: not read (AArch64: the file's bytes run)\n");
		return;
	}
	fprintf(out, "  alternatives:%s\n", r->nalt ? "" : " none");
	for (size_t i = 0; i < r->nalt; i++) {
		const struct kalt *a = &r->alt[i];
		const char *flag = kfeature_flag(a->feature), *pick = "the file's bytes";
		int has = !flag ? 1 : *flag ? kernels_host_flag(flag) : -1;

		if (i && r->alt[i - 1].at == a->at)
			continue;
		fprintf(out, "    +%#x (%u B):", a->at, a->len);
		for (size_t j = i; j < r->nalt && r->alt[j].at == a->at; j++) {
			const struct kalt *b = &r->alt[j];

			flag = kfeature_flag(b->feature);
			has = !flag ? 1 : *flag ? kernels_host_flag(flag) : -1;
			fprintf(out, " %s%s: %s%s;", b->inverted ? "!" : "", kfeature_name(b->feature, fb),
				b->repl_text, b->applied ? " (applied)" : "");
			if (has < 0)
				pick = "unknown";
			else if ((has == 1) != b->inverted && strcmp(pick, "unknown") != 0)
				pick = b->repl_text;
		}
		fprintf(out, " the host's kernel runs: %s\n", pick);
	}
}

void routine_describe(const struct routine *rt, FILE *out)
{
	const struct kroutine *r = &rt->r;
	int meets = rt->when[0] ? host_meets(rt->when) : 1;

	fprintf(out, "%s: %s of %s (Linux %s), %u bytes copied from %#llx, entry at +%#x\n",
		rt->k.name, r->name, r->path, r->release[0] ? r->release : "?", r->size,
		(unsigned long long)r->base, r->entry);
	describe_call(rt, out);
	describe_edits(r, out);
	describe_loops(rt, out);
	describe_alternatives(r, out);
	if (rt->emulated)
		fprintf(out, "  runs under qemu-aarch64: correctness only (an emulator has no "
			"layout timing)\n");
	if (rt->when[0])
		fprintf(out, "  reached by the kernel's call on a CPU with %s: this host's kernel %s\n",
			rt->when, meets < 0 ? "cannot tell (no /proc/cpuinfo flags)" :
			meets ? "calls it" : "calls another");
}
