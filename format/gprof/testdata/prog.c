/*
 * A small program for the gprof reader's tests, built with gcc -pg and
 * profiled with binutils' gprof at test time: nested calls, direct
 * recursion, a cycle of two functions, a function called only at exit,
 * and enough work to collect samples.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

static double leaf(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += (double)i * 0.5;
	return s;
}

static double work(int n) { return leaf(n) + leaf(n / 2); }

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static double pong(int n);
static double ping(int n) { return n <= 0 ? leaf(1000) : leaf(20000) + pong(n - 1); }
static double pong(int n) { return n <= 0 ? 0 : leaf(30000) + ping(n - 1); }

static void bye(void) { sink += leaf(100000); }

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	atexit(bye);
	for (int r = 0; r < rounds; r++) {
		sink += work(200000);
		sink += fib(18);
		sink += ping(20);
	}
	printf("%g\n", sink);
	return 0;
}
