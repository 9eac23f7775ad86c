// The compute environment: the BLAS under LibTorch is identified, and it is one that two threads
// may call at once (the cause of the training collapse of model/README.md).
#include <catch2/catch.hpp>

#include "model/compute_environment.hpp"

using deeptune::model::loadedBlas;

TEST_CASE("the BLAS is identified and safe for concurrent calls", "[blas]") {
  const auto blas = loadedBlas();
  INFO(blas.description);
  CHECK(!blas.path.empty());
  // scripts/install-deps.sh installs libopenblas0-pthread; the single-threaded build fails here
  // (bench/blas_concurrency shows what it does to products computed on two threads at once).
  CHECK(blas.concurrentCallsSafe);
  std::string note;
  CHECK(deeptune::model::safeTrainingWorkers(2, note) == (blas.concurrentCallsSafe ? 2 : 1));
  CHECK(note.empty() == blas.concurrentCallsSafe);
  CHECK_THAT(deeptune::model::cpuDescription(), Catch::Matchers::Contains(" cores"));
}
