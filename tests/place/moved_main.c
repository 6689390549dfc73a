/* The shared-object case of the place fixture: main here, work in
 * libmoved.so (moved.c built with WORK_LIB). */
#include <stdio.h>
#include <stdlib.h>

int work(int n, int depth);
int fall_in(int x);

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;

	printf("%d %d %d\n", work(n, 0), fall_in(n), fall_in(20));
	return 0;
}
