// Diagnostic: do matrix products computed on several threads at once equal the same products
// computed alone? Counts wrong products for 1 thread (the baseline) and N threads.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "model/compute_environment.hpp"

extern "C" void sgemm_(const char* transA, const char* transB, const int* m, const int* n,
                       const int* k, const float* alpha, const float* a, const int* lda,
                       const float* b, const int* ldb, const float* beta, float* c, const int* ldc);

namespace {

/// One product C = A B (column-major, m x k times k x n) and its result computed alone.
struct Product {
  int m, n, k;
  std::vector<float> a, b, alone;

  void multiply(float* c) const {
    const float one = 1, zero = 0;
    sgemm_("N", "N", &m, &n, &k, &one, a.data(), &m, b.data(), &k, &zero, c, &m);
  }
};

/// The LSTM's shapes: gates of a batch (256 x batch x 64), their gradients, the input projection
/// of a whole batch of sequences, and a small square one.
std::vector<Product> lstmProducts() {
  std::mt19937 random(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<Product> products;
  for (const auto [m, n, k] : {std::array<int, 3>{256, 50, 64},
                               {256, 64, 50},
                               {64, 256, 50},
                               {256, 3200, 64},
                               {64, 64, 256}}) {
    Product p{m, n, k, {}, {}, std::vector<float>(static_cast<size_t>(m) * n)};
    for (int i = 0; i < m * k; ++i) p.a.push_back(uniform(random));
    for (int i = 0; i < k * n; ++i) p.b.push_back(uniform(random));
    p.multiply(p.alone.data());
    products.push_back(std::move(p));
  }
  return products;
}

/// Products computed by `threads` threads at once, `each` per thread; returns the wrong ones.
long wrongProducts(const std::vector<Product>& products, int threads, long each) {
  std::vector<long> wrong(static_cast<size_t>(threads), 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::vector<std::vector<float>> out;
      for (const Product& p : products) out.emplace_back(p.alone.size());
      for (long i = 0; i < each; ++i) {
        const size_t which = static_cast<size_t>(i + t) % products.size();
        products[which].multiply(out[which].data());
        wrong[static_cast<size_t>(t)] +=
            std::memcmp(out[which].data(), products[which].alone.data(),
                        out[which].size() * sizeof(float)) != 0;
      }
    });
  }
  for (std::thread& thread : pool) thread.join();
  long total = 0;
  for (long w : wrong) total += w;
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  long each = 40000;
  int threads = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--products") each = std::strtol(argv[i + 1], nullptr, 10);
    if (option == "--threads") threads = static_cast<int>(std::strtol(argv[i + 1], nullptr, 10));
  }
  if (each < 1 || each > 100000000 || threads < 2 || threads > 64) {
    std::fprintf(stderr, "usage: blas_concurrency [--products N per thread] [--threads T >= 2]\n");
    return 2;
  }
  deeptune::model::setComputeThreads(1);  // one BLAS thread per caller, as training uses it
  const deeptune::model::BlasLibrary blas = deeptune::model::loadedBlas();
  std::printf("BLAS: %s\nsafe for concurrent calls (as identified): %s\n", blas.description.c_str(),
              blas.concurrentCallsSafe ? "yes" : "no");
  const std::vector<Product> products = lstmProducts();
  std::printf("%8s %10s %8s\n", "threads", "products", "wrong");
  for (int t : {1, threads}) {
    std::printf("%8d %10ld %8ld\n", t, each * t, wrongProducts(products, t, each));
  }
  return 0;
}
