/* Hot code: which loops and functions a run's samples fall in, and the order
 * scan --hot and diff --hot show hazards in. The seeds' engineers found the
 * one loop that mattered with a profiler first (seed 000: __clear_user under
 * pread of /dev/zero); a hazard in code that never runs matters less than a
 * smaller one in the loop that takes 40%. */
#include "scan.h"
#include "hot.h"

#include <stdlib.h>
#include <string.h>

static int by_key(const void *a, const void *b)
{
	const struct sample_count *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

void sample_hist_merge(struct sample_hist *h)
{
	size_t k = 0;

	if (h->n == 0)
		return;
	qsort(h->v, h->n, sizeof *h->v, by_key);
	for (size_t i = 1; i < h->n; i++) {
		if (h->v[i].key == h->v[k].key)
			h->v[k].count += h->v[i].count;
		else
			h->v[++k] = h->v[i];
	}
	h->n = k + 1;
}

/* The first entry with key >= k. */
static size_t lower_bound(const struct sample_hist *h, uint64_t k)
{
	size_t lo = 0, hi = h->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->v[mid].key < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t sample_hist_sum(const struct sample_hist *h, uint64_t start, uint64_t end)
{
	uint64_t sum = 0;

	for (size_t i = lower_bound(h, start); i < h->n && h->v[i].key < end; i++)
		sum += h->v[i].count;
	return sum;
}

struct hot_file *hot_run_file(struct hot_run *h, const char *path)
{
	for (size_t i = 0; i < h->nfile; i++)
		if (strcmp(h->file[i].path, path) == 0)
			return &h->file[i];
	GROW(h->file, h->file_cap, h->nfile + 1);
	h->file[h->nfile] = (struct hot_file){ .path = xstrdup(path) };
	return &h->file[h->nfile++];
}

/* By build-id when both sides know it (a copy of the file elsewhere is the
 * same code), else by path. */
const struct hot_file *hot_run_find(const struct hot_run *h, const char *path,
				    const char *build_id)
{
	for (size_t i = 0; build_id && *build_id && i < h->nfile; i++)
		if (strcmp(h->file[i].build_id, build_id) == 0)
			return &h->file[i];
	const struct hot_file *same_name = NULL;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t named = 0;

	for (size_t i = 0; i < h->nfile; i++) {
		const char *p = h->file[i].path, *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;

		if (strcmp(p, path) == 0)
			return &h->file[i];
		if (strcmp(b, base) == 0) {
			same_name = &h->file[i];
			named++;
		}
	}
	return named == 1 ? same_name : NULL;
}

void hot_run_free(struct hot_run *h)
{
	for (size_t i = 0; i < h->nfile; i++) {
		free(h->file[i].path);
		free(h->file[i].addrs.v);
	}
	free(h->file);
	free(h->kernel.path);
	free(h->kernel.addrs.v);
	for (size_t i = 0; i < h->nksym; i++)
		free(h->ksym[i].name);
	free(h->ksym);
	free(h->source);
	memset(h, 0, sizeof *h);
}

void hot_attribute(struct scan_result *r, const struct hot_file *f, uint64_t run_samples)
{
	r->hot = true;
	r->run_samples = run_samples;
	r->file_samples = f ? f->samples : 0;
	/* a loop's samples are its pieces': the exit code between them is not
	 * the loop's */
	for (size_t i = 0; i < r->nloop; i++) {
		const struct loop_report *l = &r->loop[i];

		r->loop[i].samples = 0;
		for (uint32_t k = l->piece; f && k < l->piece + l->npiece; k++)
			r->loop[i].samples += sample_hist_sum(&f->addrs, r->piece[k].start,
							      r->piece[k].end);
	}
	for (size_t i = 0; i < r->nfunc; i++) {
		const struct elf_func *fn = &r->funcs.v[r->func[i].func];

		r->func[i].samples = f ? sample_hist_sum(&f->addrs, fn->addr, fn->addr + fn->size) : 0;
	}
}

double hot_share(const struct scan_result *r, uint64_t samples)
{
	return r->run_samples ? (double)samples / (double)r->run_samples : 0;
}

void hot_attribute_ksyms(struct hot_run *h)
{
	size_t k = 0;

	for (size_t i = 0; i < h->kernel.addrs.n; i++) {
		const struct sample_count *c = &h->kernel.addrs.v[i];

		while (k + 1 < h->nksym && h->ksym[k + 1].addr <= c->key)
			k++;
		if (h->nksym && h->ksym[k].addr <= c->key)
			h->ksym[k].samples += c->count;
	}
}

int hot_order(double share_x, unsigned severity_x, double share_y, unsigned severity_y)
{
	if (share_x != share_y)
		return share_x > share_y ? -1 : 1;
	if (severity_x != severity_y)
		return severity_x > severity_y ? -1 : 1;
	return 0;
}

static bool inside(const struct loop_report *in, const struct loop_report *out)
{
	return in != out && in->start >= out->start && in->end <= out->end &&
	       (in->start != out->start || in->end != out->end);
}

void hot_loop_self(const struct scan_result *r, uint64_t *self, uint64_t *outside)
{
	for (size_t f = 0; f < r->nfunc; f++) {
		const struct func_report *fr = &r->func[f];
		uint64_t in_loops = 0;

		for (uint32_t i = fr->loop; i < fr->loop + fr->nloop; i++) {
			const struct loop_report *l = &r->loop[i];
			bool outermost = true;

			self[i] = l->samples;
			for (uint32_t j = fr->loop; j < fr->loop + fr->nloop; j++) {
				if (!inside(&r->loop[j], l))
					continue;
				/* only the loops directly inside: those in none between */
				bool direct = true;

				for (uint32_t k = fr->loop; direct && k < fr->loop + fr->nloop; k++)
					direct = !(inside(&r->loop[j], &r->loop[k]) && inside(&r->loop[k], l));
				if (direct)
					self[i] -= r->loop[j].samples < self[i] ? r->loop[j].samples : self[i];
			}
			for (uint32_t j = fr->loop; j < fr->loop + fr->nloop; j++)
				outermost &= !inside(l, &r->loop[j]);
			in_loops += outermost ? l->samples : 0;
		}
		outside[f] = fr->samples > in_loops ? fr->samples - in_loops : 0;
	}
}

double hot_saves(const struct scan_result *r, const struct loop_report *l)
{
	double share = hot_share(r, l->samples);

	return l->cost.slowdown > 1 && l->nhazard ? share - share / l->cost.slowdown : 0;
}

void hot_kernel_rebased(const struct hot_run *h, const char *image, uint64_t image_text,
			struct hot_file *out)
{
	memset(out, 0, sizeof *out);
	out->path = (char *)image;
	out->samples = h->kernel.samples;
	out->addrs.v = xcalloc(h->kernel.addrs.n + 1, sizeof *out->addrs.v);
	for (size_t i = 0; i < h->kernel.addrs.n; i++)
		out->addrs.v[out->addrs.n++] = (struct sample_count){
			h->kernel.addrs.v[i].key - h->kernel_text + image_text,
			h->kernel.addrs.v[i].count };
}

const char **hot_run_files(const struct hot_run *h, int *n)
{
	const char **v = xcalloc(h->nfile + 1, sizeof *v);
	size_t *order = xcalloc(h->nfile + 1, sizeof *order);

	*n = 0;
	for (size_t i = 0; i < h->nfile; i++)
		if (h->file[i].samples)
			order[(*n)++] = i;
	for (int i = 1; i < *n; i++)    /* by samples, stable */
		for (int j = i; j > 0 && h->file[order[j]].samples > h->file[order[j - 1]].samples; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < *n; i++)
		v[i] = strcmp(h->file[order[i]].path, "[vdso]") == 0 ? "vdso" : h->file[order[i]].path;
	free(order);
	return v;
}
