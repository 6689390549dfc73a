/* The shared-object case of the place fixture: main here, work in
 * libmoved.so (moved.c built with WORK_LIB). */
#include <stdio.h>
#include <stdlib.h>

int work(int n, int depth);

int main(int argc, char **argv)
{
	printf("%d\n", work(argc > 1 ? atoi(argv[1]) : 1000, 0));
	return 0;
}
