/* Sampling where a program spends its time: instruction pointers through
 * perf_event_open, one event per CPU for each task with inherit set (the
 * kernel refuses to mmap an inherited per-task event not bound to a CPU,
 * perf_mmap()), each with its own ring buffer. The mmap events
 * (PERF_RECORD_MMAP2) name the file and offset behind every code address, so
 * libraries loaded late by dlopen and the vDSO are followed; fork and exec
 * records say whose address space a sample belongs to.
 *
 * The buffers of different CPUs are read one after another, so a child's
 * sample can be read before the fork record that gave it its parent's
 * mappings: every record carries its time (sample_id_all), and they are
 * replayed in time order when the run is over. */
#include "sample.h"
#include "../model/scan.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define RING_PAGES 64           /* 256 KiB a CPU: seconds of samples at 4 kHz */

enum { EV_SAMPLE, EV_MMAP, EV_FORK, EV_EXEC };

/* A record kept until the replay. */
struct sample_event {
	uint64_t time;
	uint64_t ip;                    /* sample: the ip; mmap: index of the mapping */
	uint32_t pid, ppid;
	uint32_t seq;                   /* arrival order, for ties */
	uint8_t kind, kernel;
};

struct pending_map {
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino;
	char *path;
};

struct space_map {
	uint64_t start, end, pgoff;
	uint32_t file;
};

/* Code that straddle place copied in this process, from its perf map:
 * [start, start + size) runs the function whose original is at `orig`. */
struct space_copy {
	uint64_t start, size, orig;
};

struct space {
	uint32_t pid;
	struct space_map *map;
	size_t n, cap;
	struct space_copy *copy;        /* read on the first sample outside a file */
	size_t ncopy, copy_cap;
	bool copies_read;
};

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void fill_attr(struct perf_event_attr *a, bool cycles, unsigned hz, bool kernel,
		      bool enable_on_exec)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	if (cycles) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->freq = 1;
		a->sample_freq = hz;
	} else {
		/* cpu-clock counts nanoseconds: a period is exact, no frequency
		 * adjustment needed */
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->sample_period = 1000000000ull / hz;
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a->sample_id_all = 1;
	a->disabled = 1;
	a->enable_on_exec = enable_on_exec;
	a->inherit = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->exclude_kernel = !kernel;
	a->exclude_hv = 1;
	a->watermark = 1;
	a->wakeup_watermark = RING_PAGES * 4096 / 4;
}

static int cpus_configured(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (int)n : 1;
}

/* One event per CPU for task `tid`; offline CPUs are skipped. */
static int open_task(struct sampling *s, struct perf_event_attr *a, pid_t tid, struct err *e)
{
	size_t before = s->nfd;
	int last = 0;

	for (int cpu = 0; cpu < cpus_configured(); cpu++) {
		int fd = perf_open(a, tid, cpu);

		if (fd < 0) {
			last = errno;
			continue;
		}
		GROW(s->fd, s->fd_cap, s->nfd + 1);
		s->fd[s->nfd++] = fd;
	}
	if (s->nfd == before)
		return err_set(e, "perf_event_open (%s) on task %d: %s", s->event, (int)tid,
			       strerror(last));
	return 0;
}

/* Hardware cycles when the PMU allows them, else cpu-clock, said plainly;
 * kernel samples when asked and permitted, else said so. */
static void choose_event(struct sampling *s, bool enable_on_exec)
{
	struct perf_event_attr a;
	int fd;

	fill_attr(&a, true, s->hz, s->want_kernel, enable_on_exec);
	fd = perf_open(&a, 0, -1);
	if (fd < 0 && s->want_kernel && (errno == EACCES || errno == EPERM)) {
		s->kernel = false;
		snprintf(s->kernel_note, sizeof s->kernel_note,
			 "kernel samples not permitted (perf_event_open: %s); user space only",
			 strerror(errno));
		fill_attr(&a, true, s->hz, false, enable_on_exec);
		fd = perf_open(&a, 0, -1);
	}
	if (fd >= 0) {
		close(fd);
		s->cycles = true;
		s->event = "cycles";
		return;
	}
	snprintf(s->event_note, sizeof s->event_note,
		 "hardware cycles not available (perf_event_open: %s); sampling cpu-clock",
		 strerror(errno));
	s->event = "cpu-clock";
	fill_attr(&a, false, s->hz, s->kernel, enable_on_exec);
	fd = perf_open(&a, 0, -1);
	if (fd < 0 && s->kernel && (errno == EACCES || errno == EPERM)) {
		s->kernel = false;
		snprintf(s->kernel_note, sizeof s->kernel_note,
			 "kernel samples not permitted (perf_event_open: %s); user space only",
			 strerror(errno));
	}
	if (fd >= 0)
		close(fd);
}

int sampling_open(struct sampling *s, const pid_t *tids, size_t ntids, bool enable_on_exec,
		  struct err *e)
{
	struct perf_event_attr a;
	size_t len = (RING_PAGES + 1) * 4096ul;

	s->kernel = s->want_kernel;
	choose_event(s, enable_on_exec);
	fill_attr(&a, s->cycles, s->hz, s->kernel, enable_on_exec);
	for (size_t i = 0; i < ntids; i++)
		if (open_task(s, &a, tids[i], e))
			return -1;
	s->ring = xcalloc(s->nfd, sizeof *s->ring);
	for (size_t i = 0; i < s->nfd; i++) {
		s->ring[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd[i], 0);
		if (s->ring[i] == MAP_FAILED) {
			s->ring[i] = NULL;
			return err_set(e, "mmap of the perf ring buffer: %s", strerror(errno));
		}
	}
	return 0;
}

void sampling_enable(struct sampling *s)
{
	for (size_t i = 0; i < s->nfd; i++)
		ioctl(s->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void sampling_disable(struct sampling *s)
{
	for (size_t i = 0; i < s->nfd; i++)
		ioctl(s->fd[i], PERF_EVENT_IOC_DISABLE, 0);
}

static uint32_t add_pending_map(struct sampling *s, const struct pending_map *m)
{
	GROW(s->pmap, s->pmap_cap, s->npmap + 1);
	s->pmap[s->npmap] = *m;
	s->pmap[s->npmap].path = xstrdup(m->path);
	return (uint32_t)s->npmap++;
}

static void add_event(struct sampling *s, struct sample_event ev)
{
	ev.seq = (uint32_t)s->nev;
	GROW(s->ev, s->ev_cap, s->nev + 1);
	s->ev[s->nev++] = ev;
}

/* The sample_id trailer of a non-sample record: pid, tid, time. */
static uint64_t trailer_time(const uint8_t *rec, size_t size)
{
	uint64_t t = 0;

	if (size >= sizeof(struct perf_event_header) + 16)
		memcpy(&t, rec + size - 8, 8);
	return t;
}

static void parse_mmap2(struct sampling *s, const uint8_t *r, size_t size)
{
	struct pending_map m = { 0 };
	uint32_t pid;
	size_t fixed = 8 + 8 + 24 + 24 + 8;     /* header, pid/tid, addr/len/pgoff, ids, prot/flags */

	if (size < fixed + 16 + 1)
		return;
	memcpy(&pid, r + 8, 4);
	memcpy(&m.start, r + 16, 8);
	memcpy(&m.len, r + 24, 8);
	memcpy(&m.pgoff, r + 32, 8);
	memcpy(&m.maj, r + 40, 4);
	memcpy(&m.min, r + 44, 4);
	memcpy(&m.ino, r + 48, 8);
	char name[4096];
	size_t max = size - fixed - 16;

	if (max >= sizeof name)
		max = sizeof name - 1;
	memcpy(name, r + fixed, max);
	name[max] = 0;
	m.path = name;
	add_event(s, (struct sample_event){ .time = trailer_time(r, size), .kind = EV_MMAP,
					    .pid = pid, .ip = add_pending_map(s, &m) });
}

static void parse_record(struct sampling *s, const uint8_t *r, size_t size)
{
	struct perf_event_header h;
	uint32_t u[4];
	uint64_t t;

	memcpy(&h, r, sizeof h);
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		if (size < 8 + 24)
			return;
		struct sample_event ev = { .kind = EV_SAMPLE };
		uint16_t mode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;

		memcpy(&ev.ip, r + 8, 8);
		memcpy(&ev.pid, r + 16, 4);
		memcpy(&ev.time, r + 24, 8);
		ev.kernel = mode == PERF_RECORD_MISC_KERNEL;
		add_event(s, ev);
		s->samples++;
		break;
	case PERF_RECORD_MMAP2:
		parse_mmap2(s, r, size);
		break;
	case PERF_RECORD_FORK:
		if (size < 8 + 24)
			return;
		memcpy(u, r + 8, 16);           /* pid, ppid, tid, ptid */
		memcpy(&t, r + 24, 8);
		if (u[0] != u[1])               /* a new process, not a thread */
			add_event(s, (struct sample_event){ .time = t, .kind = EV_FORK,
							    .pid = u[0], .ppid = u[1] });
		break;
	case PERF_RECORD_COMM:
		if ((h.misc & PERF_RECORD_MISC_COMM_EXEC) && size >= 8 + 8) {
			memcpy(u, r + 8, 4);
			add_event(s, (struct sample_event){ .time = trailer_time(r, size),
							    .kind = EV_EXEC, .pid = u[0] });
		}
		break;
	case PERF_RECORD_LOST:
		if (size >= 8 + 16) {
			memcpy(&t, r + 16, 8);
			s->lost += t;
		}
		break;
	default:
		break;
	}
}

/* Read every whole record of one ring; records that wrap around its end
 * are copied out first. */
static void drain_ring(struct sampling *s, struct perf_event_mmap_page *page)
{
	const uint8_t *data = (const uint8_t *)page + 4096;
	uint64_t size = RING_PAGES * 4096ull, head, tail = page->data_tail;
	uint8_t rec[65536];

	head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		uint64_t off = tail % size;

		for (size_t i = 0; i < sizeof h; i++)
			((uint8_t *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof h || tail + h.size > head)
			break;
		for (size_t i = 0; i < h.size; i++)
			rec[i] = data[(off + i) % size];
		parse_record(s, rec, h.size);
		tail += h.size;
	}
	__atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
}

void sampling_drain(struct sampling *s, int timeout_ms)
{
	struct pollfd *p = xcalloc(s->nfd ? s->nfd : 1, sizeof *p);

	for (size_t i = 0; i < s->nfd; i++)
		p[i] = (struct pollfd){ .fd = s->fd[i], .events = POLLIN };
	if (timeout_ms > 0)
		poll(p, s->nfd, timeout_ms);
	free(p);
	for (size_t i = 0; i < s->nfd; i++)
		if (s->ring[i])
			drain_ring(s, s->ring[i]);
}

/* ---- the replay: address spaces, files, histograms ---- */

static struct space *space_of(struct sampling *s, uint32_t pid)
{
	for (size_t i = 0; i < s->nspace; i++)
		if (s->space[i].pid == pid)
			return &s->space[i];
	GROW(s->space, s->space_cap, s->nspace + 1);
	s->space[s->nspace] = (struct space){ .pid = pid };
	return &s->space[s->nspace++];
}

static uint32_t file_of(struct sampling *s, const struct pending_map *m)
{
	for (size_t i = 0; i < s->nfile; i++) {
		const struct sampled_file *f = &s->file[i];

		if (f->maj == m->maj && f->min == m->min && f->ino == m->ino &&
		    strcmp(f->path, m->path) == 0)
			return (uint32_t)i;
	}
	GROW(s->file, s->file_cap, s->nfile + 1);
	s->file[s->nfile] = (struct sampled_file){ .path = xstrdup(m->path), .maj = m->maj,
						   .min = m->min, .ino = m->ino };
	return (uint32_t)s->nfile++;
}

/* Anonymous and special mappings other than the vDSO name no file; the
 * kernel's mmap records name an anonymous executable mapping (JIT code,
 * place's copies) "//anon". */
static bool names_a_file(const char *path)
{
	return (path[0] == '/' && strcmp(path, "//anon") != 0) || strcmp(path, "[vdso]") == 0;
}

static void map_into(struct sampling *s, struct space *sp, const struct pending_map *m)
{
	struct space_map nm = { m->start, m->start + m->len, m->pgoff, UINT32_MAX };
	size_t k = 0;

	if (names_a_file(m->path))
		nm.file = file_of(s, m);
	/* a new mapping replaces whatever it overlaps */
	for (size_t i = 0; i < sp->n; i++)
		if (sp->map[i].end <= nm.start || sp->map[i].start >= nm.end)
			sp->map[k++] = sp->map[i];
	sp->n = k;
	GROW(sp->map, sp->cap, sp->n + 1);
	sp->map[sp->n++] = nm;
}

static void add_hit(struct sample_hist *h, uint64_t key)
{
	GROW(h->v, h->cap, h->n + 1);
	h->v[h->n++] = (struct sample_count){ key, 1 };
}

/* The copies the preload library of straddle place listed in
 * /tmp/perf-PID.map (perf's convention for code made at run time): lines
 * "START SIZE NAME [straddle copy of PATH+0xVADDR at 0xORIG]". */
static void read_copies(struct space *sp)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	struct stat st;
	struct err e;
	FILE *f;
	int fd;

	sp->copies_read = true;
	snprintf(path, sizeof path, "/tmp/perf-%u.map", sp->pid);
	/* anyone may put a FIFO or a link to /dev/zero at that name in /tmp:
	 * open_input refuses what is not a regular file */
	if ((fd = open_input(path, &st, &e)) < 0)
		return;
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	/* a C++ name demangled can be longer than any fixed line */
	while (getline(&line, &cap, f) > 0) {
		struct space_copy c;
		const char *at = strstr(line, "[straddle copy of ");

		if (!at || !(at = strstr(at, " at 0x")) || sscanf(line, "%" SCNx64 " %" SCNx64, &c.start,
								   &c.size) != 2 ||
		    sscanf(at, " at 0x%" SCNx64, &c.orig) != 1)
			continue;
		GROW(sp->copy, sp->copy_cap, sp->ncopy + 1);
		sp->copy[sp->ncopy++] = c;
	}
	free(line);
	fclose(f);
}

/* A sample in a copy counts for the original's bytes. */
static bool from_copy(struct space *sp, uint64_t *ip)
{
	if (!sp->copies_read)
		read_copies(sp);
	for (size_t i = 0; i < sp->ncopy; i++)
		if (*ip >= sp->copy[i].start && *ip < sp->copy[i].start + sp->copy[i].size) {
			*ip = sp->copy[i].orig + (*ip - sp->copy[i].start);
			return true;
		}
	return false;
}

static bool hit_file(struct sampling *s, const struct space *sp, uint64_t ip)
{
	for (size_t i = 0; i < sp->n; i++) {
		const struct space_map *m = &sp->map[i];

		if (ip >= m->start && ip < m->end) {
			if (m->file == UINT32_MAX)
				return false;
			add_hit(&s->file[m->file].offsets, ip - m->start + m->pgoff);
			s->file[m->file].samples++;
			return true;
		}
	}
	return false;
}

static void replay_sample(struct sampling *s, const struct sample_event *ev)
{
	struct space *sp;
	uint64_t ip = ev->ip;

	if (ev->kernel) {
		add_hit(&s->kernel_ips, ev->ip);
		s->kernel_samples++;
		return;
	}
	sp = space_of(s, ev->pid);
	if (hit_file(s, sp, ip) || (from_copy(sp, &ip) && hit_file(s, sp, ip)))
		return;
	s->unmapped++;
}

static void replay_fork(struct sampling *s, const struct sample_event *ev)
{
	struct space *child = space_of(s, ev->pid), *parent;
	size_t n;

	parent = space_of(s, ev->ppid);         /* may move child */
	child = space_of(s, ev->pid);
	n = parent->n;
	GROW(child->map, child->cap, child->n + n);
	/* the parent's maps go under anything the child already mapped */
	memmove(child->map + n, child->map, child->n * sizeof *child->map);
	memcpy(child->map, parent->map, n * sizeof *child->map);
	child->n += n;
	/* the child runs the parent's copies (it writes no map of its own) */
	if (!parent->copies_read)
		read_copies(parent);
	if (parent->ncopy) {
		GROW(child->copy, child->copy_cap, child->ncopy + parent->ncopy);
		memcpy(child->copy + child->ncopy, parent->copy, parent->ncopy * sizeof *child->copy);
		child->ncopy += parent->ncopy;
	}
	child->copies_read = true;
}

/* A new program: its maps and copies start again (its own perf map lines,
 * if it moves code again, are read on its first sample outside a file). */
static void exec_space(struct space *sp)
{
	sp->n = 0;
	sp->ncopy = 0;
	sp->copies_read = false;
}

static int by_time(const void *a, const void *b)
{
	const struct sample_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void sampling_finish(struct sampling *s)
{
	qsort(s->ev, s->nev, sizeof *s->ev, by_time);
	for (size_t i = 0; i < s->nev; i++) {
		const struct sample_event *ev = &s->ev[i];

		switch (ev->kind) {
		case EV_SAMPLE: replay_sample(s, ev); break;
		case EV_MMAP: map_into(s, space_of(s, ev->pid), &s->pmap[ev->ip]); break;
		case EV_FORK: replay_fork(s, ev); break;
		case EV_EXEC: exec_space(space_of(s, ev->pid)); break;
		}
	}
	for (size_t i = 0; i < s->nfile; i++)
		sample_hist_merge(&s->file[i].offsets);
	sample_hist_merge(&s->kernel_ips);
	free(s->ev);
	s->ev = NULL;
	s->nev = s->ev_cap = 0;
}

/* A process already running: its executable mappings from /proc, as if
 * they had been mapped at time 0. */
int sampling_add_proc_maps(struct sampling *s, pid_t pid, struct err *e)
{
	char path[64], line[4608], perms[8], name[4096];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "r")))
		return err_set(e, "cannot read %s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f)) {
		struct pending_map m = { 0 };
		unsigned maj, min;
		unsigned long long start, end, off, ino;

		name[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095[^\n]", &start, &end, perms,
			   &off, &maj, &min, &ino, name) < 7 || perms[2] != 'x')
			continue;
		m = (struct pending_map){ start, end - start, off, maj, min, ino, name };
		add_event(s, (struct sample_event){ .time = 0, .kind = EV_MMAP, .pid = (uint32_t)pid,
						    .ip = add_pending_map(s, &m) });
	}
	fclose(f);
	return 0;
}

/* The threads of a running process, from /proc/PID/task. */
size_t process_threads(pid_t pid, pid_t **out)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	size_t n = 0, cap = 0;

	*out = NULL;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9') {
			GROW(*out, cap, n + 1);
			(*out)[n++] = (pid_t)atoi(de->d_name);
		}
	closedir(d);
	return n;
}

void sampling_close(struct sampling *s)
{
	for (size_t i = 0; i < s->nfd; i++) {
		if (s->ring && s->ring[i])
			munmap(s->ring[i], (RING_PAGES + 1) * 4096ul);
		close(s->fd[i]);
	}
	free(s->fd);
	free(s->ring);
	for (size_t i = 0; i < s->npmap; i++)
		free(s->pmap[i].path);
	free(s->pmap);
	for (size_t i = 0; i < s->nspace; i++) {
		free(s->space[i].map);
		free(s->space[i].copy);
	}
	free(s->space);
	for (size_t i = 0; i < s->nfile; i++) {
		free(s->file[i].path);
		free(s->file[i].offsets.v);
	}
	free(s->file);
	free(s->kernel_ips.v);
	free(s->ev);
	memset(s, 0, sizeof *s);
}

/* ---- from file offsets to loops ---- */

/* The sampled file is still the file that was mapped. */
static int same_inode(const struct sampled_file *f, struct err *e)
{
	struct stat st;

	if (stat(f->path, &st) != 0)
		return err_set(e, "cannot stat: %s", strerror(errno));
	if (st.st_ino != f->ino || major(st.st_dev) != f->maj || minor(st.st_dev) != f->min)
		return err_set(e, "replaced since it was mapped (inode %llu, was %llu)",
			       (unsigned long long)st.st_ino, (unsigned long long)f->ino);
	return 0;
}

static int open_sampled(const struct sampled_file *f, struct elf_image *img, struct err *e)
{
	if (strcmp(f->path, "[vdso]") == 0)
		return elf_open_vdso(img, e);   /* the same kernel's vDSO as the program's */
	if (same_inode(f, e))
		return -1;
	return elf_open_file(img, f->path, e);
}

/* The file offsets of f as the ELF's virtual addresses; offsets no
 * PT_LOAD maps are counted in *outside. */
static void to_vaddrs(const struct elf_image *img, const struct sampled_file *sf,
		      struct hot_file *hf, uint64_t *outside)
{
	for (size_t i = 0; i < sf->offsets.n; i++) {
		uint64_t va;

		if (elf_offset_vaddr(img, sf->offsets.v[i].key, &va) == 0) {
			GROW(hf->addrs.v, hf->addrs.cap, hf->addrs.n + 1);
			hf->addrs.v[hf->addrs.n++] = (struct sample_count){ va, sf->offsets.v[i].count };
		} else {
			*outside += sf->offsets.v[i].count;
		}
	}
	sample_hist_merge(&hf->addrs);
}

int sampled_file_scan(const struct sampled_file *sf, const struct scan_opts *o,
		      struct elf_image *img, struct hot_file *hf, struct scan_result *r,
		      uint64_t *outside, struct err *e)
{
	memset(img, 0, sizeof *img);    /* elf_close is safe on it whatever failed */
	*hf = (struct hot_file){ .path = sf->path, .samples = sf->samples };
	/* a file that changed while it was read is an error, as in scan */
	if (open_sampled(sf, img, e) || (to_vaddrs(img, sf, hf, outside), 0) ||
	    scan_image(img, o, r, e) || (elf_changed(img) && (scan_result_free(r), 1))) {
		if (elf_changed(img))
			err_set(e, "changed while reading");
		return -1;
	}
	elf_build_id_hex(img, hf->build_id);
	return 0;
}

void sampled_kernel(const struct sampling *s, struct hot_run *h)
{
	memset(h, 0, sizeof *h);
	running_kernel_describe(h);
	h->kernel.addrs = s->kernel_ips;
	h->kernel.samples = s->kernel_samples;
	hot_attribute_ksyms(h);
}
