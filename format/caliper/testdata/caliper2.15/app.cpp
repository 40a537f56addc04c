// a small annotated program: nested functions, a loop, two worker threads
#include <caliper/cali.h>
#include <thread>
#include <vector>
#include <cmath>
static double work(int n) { CALI_CXX_MARK_FUNCTION; double s = 0; for (int i = 0; i < n; ++i) s += std::sqrt(i); return s; }
static double solve(int n) { CALI_CXX_MARK_FUNCTION; double s = 0; CALI_CXX_MARK_LOOP_BEGIN(l, "iterations"); for (int i = 0; i < 5; ++i) { CALI_CXX_MARK_LOOP_ITERATION(l, i); s += work(n); } CALI_CXX_MARK_LOOP_END(l); return s; }
int main() {
  CALI_CXX_MARK_FUNCTION;
  CALI_MARK_BEGIN("init"); double s = work(200000); CALI_MARK_END("init");
  std::vector<std::thread> ts;
  for (int t = 0; t < 2; ++t) ts.emplace_back([t, &s] { CALI_CXX_MARK_SCOPE("worker"); s += solve(100000 * (t + 1)); });
  for (auto& t : ts) t.join();
  s += solve(50000);
  return s > 0 ? 0 : 1;
}
