/* The C++ fixture of place: an exception thrown through moved frames.
 * hot_leaf throws, hot_middle holds an object whose destructor must run
 * as the exception passes, hot_rethrow catches and rethrows, hot_catcher
 * catches; each is its own function, so each can be the moved frame.
 * hot_trace prints how many frames backtrace() walks from inside the
 * moved code (a frame with no unwind data ends the walk there). Its
 * output is the same wherever the code runs; FIXTURE_LOG names whether
 * hot_leaf ran in the file's own code or in a copy. */
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <execinfo.h>
#include <stdexcept>
#include <string>

static long destroyed;

struct guard {
	long id;
	~guard() { destroyed += id; }
};

static void log_where()
{
	const char *path = std::getenv("FIXTURE_LOG");
	void *pc = __builtin_return_address(0);
	Dl_info info;

	if (!path)
		return;
	if (FILE *f = std::fopen(path, "a")) {
		std::fprintf(f, "%s\n", dladdr(pc, &info) ? "in place" : "moved");
		std::fclose(f);
	}
}

__attribute__((noinline)) int hot_trace(int depth)
{
	void *pc[64];

	if (depth > 0)
		return hot_trace(depth - 1) + 1;
	return backtrace(pc, 64);
}

__attribute__((noinline)) long hot_leaf(long x)
{
	if (x == 0)
		log_where();
	if (x % 7 == 3)
		throw std::invalid_argument("leaf " + std::to_string(x));
	return x * 3 + 1;
}

__attribute__((noinline)) long hot_middle(long x)
{
	guard g{ x };
	long sum = 0;

	for (long i = 0; i <= x % 5; i++)
		sum += hot_leaf(x + i);
	return sum;
}

__attribute__((noinline)) long hot_rethrow(long x)
{
	try {
		return hot_middle(x);
	} catch (const std::invalid_argument &) {
		destroyed += 1000;
		throw;
	}
}

__attribute__((noinline)) long hot_catcher(long x)
{
	try {
		return hot_rethrow(x);
	} catch (const std::exception &e) {
		return -(long)std::string(e.what()).size();
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 1000, sum = 0;
	int frames = hot_trace(3);

	for (long i = 0; i < n; i++)
		sum += hot_catcher(i);
	std::printf("%ld %ld %s\n", sum, destroyed, frames >= 6 ? "walked" : "cut short");
	return 0;
}
