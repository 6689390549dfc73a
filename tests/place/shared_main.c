/* Calls unwind_shared.S's two functions that share one FDE. */
#include <stdio.h>

int part_a(int x);
int part_b(int x);

int main(void)
{
	printf("%d %d\n", part_a(40), part_b(10));
	return 0;
}
