/* The late patch of place under threads: libmoved.so is loaded by
 * dlmopen into the main namespace (the preload library sees only dlopen,
 * as it sees none of glibc's own loads of NSS or iconv modules), four
 * threads call its `work` over and over, and only then does a dlopen of
 * another library make the preload library move `work` while they run.
 * Every call's result must be the one computed before the threads
 * started; the last call (FIXTURE_LOG) says whether the copy ran it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 4

static int (*work)(int, int);
static int want;
static atomic_int calls, wrong, patched, after;

static void *caller(void *arg)
{
	(void)arg;
	/* every thread runs through the patch and 200 calls past it */
	while (atomic_load(&after) < 200 * THREADS) {
		if (work(40, 1) != want)
			atomic_fetch_add(&wrong, 1);
		atomic_fetch_add(&calls, 1);
		if (atomic_load(&patched))
			atomic_fetch_add(&after, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *h = dlmopen(LM_ID_BASE, argc > 1 ? argv[1] : "libmoved.so", RTLD_NOW);
	pthread_t t[THREADS];

	if (!h || !(work = (int (*)(int, int))dlsym(h, "work"))) {
		fprintf(stderr, "moved_threads: %s\n", dlerror());
		return 1;
	}
	want = work(40, 1);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, caller, NULL);
	while (atomic_load(&calls) < 50 * THREADS)
		;
	/* any dlopen: the preload library applies the plans of what is loaded */
	if (!dlopen(argc > 2 ? argv[2] : "libm.so.6", RTLD_NOW)) {
		fprintf(stderr, "moved_threads: %s\n", dlerror());
		return 1;
	}
	atomic_store(&patched, 1);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	work(40, 0);            /* depth 0: logs where it ran */
	printf("%s\n", atomic_load(&wrong) ? "wrong" : "right");
	return atomic_load(&wrong) != 0;
}
