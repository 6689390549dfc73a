/* A program that works the math library, for moving the library's code
 * under it (tests/cmd/t_place_arm64.sh: the cross libm, every function
 * it accepts at a random offset): a sum of the common functions over
 * 20,000 points, printed to the last digit. */
#include <math.h>
#include <stdio.h>

int main(void)
{
	double s = 0;

	for (int i = 1; i < 20000; i++) {
		double x = i * 0.001;

		s += sin(x) * cos(x / 3) + exp(-x) + log(x) + pow(x, 0.37) + atan2(x, 1.5) + cbrt(x) +
		     tanh(x / 7) + erf(x / 11) + lgamma(x + 0.5) + fmod(x, 0.7) + hypot(x, 2.0);
		s += sinf((float)x) + expf((float)-x) + logf((float)x);
	}
	printf("%.17g\n", s);
	return 0;
}
