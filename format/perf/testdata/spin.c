/* A small program for the perf reader's tests, profiled with perf record
   at test time: two functions burn CPU under main. */
static volatile double sink;

static void spin_leaf(long n)
{
	for (long i = 0; i < n; i++)
		sink += (double)i * 0.5;
}

static void spin_outer(long n)
{
	spin_leaf(n);
	for (long i = 0; i < n / 2; i++)
		sink -= (double)i;
}

int main(void)
{
	for (int r = 0; r < 20; r++)
		spin_outer(2000000);
	return 0;
}
