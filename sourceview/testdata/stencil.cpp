#include <vector>

namespace solver {
template <typename T>
T sum(const std::vector<T>& v) {
    T s{};
    for (const auto& x : v) s += x;  // accumulate
    return s;
}
}  // namespace solver
