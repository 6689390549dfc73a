/* The late-loading case of the place fixture: libmoved.so opened with
 * dlopen after main starts, so its plan is applied after the dlopen, not
 * before main. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	void *h = dlopen(argc > 2 ? argv[2] : "libmoved.so", RTLD_NOW);
	int (*work)(int, int) = h ? (int (*)(int, int))dlsym(h, "work") : NULL;

	if (!work) {
		fprintf(stderr, "moved_dl: %s\n", dlerror());
		return 1;
	}
	printf("%d\n", work(argc > 1 ? atoi(argv[1]) : 1000, 0));
	return 0;
}
