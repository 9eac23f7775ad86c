// Magni et al.'s thread-coarsening baseline: a cascade of "coarsen further?" binary decisions.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "data/coarsening_kernels.hpp"

namespace deeptune::training {

/// A small network (PCA1..7 -> hidden tanh layer -> sigmoid) that says, from the features of a
/// kernel's row at factor f, whether coarsening beyond f pays off. Prediction walks the measured
/// factors upwards from 1 and stops at the first "no" (SPEC §3).
class MagniCascade {
 public:
  /// Trains on every measured factor below or at each kernel's best: "yes" below it, "no" at it.
  /// Features are standardized with the training rows' mean and deviation.
  MagniCascade(const std::vector<data::CoarseningKernel>& training, int hiddenUnits, uint64_t seed);
  ~MagniCascade();
  MagniCascade(MagniCascade&&) noexcept;
  MagniCascade& operator=(MagniCascade&&) noexcept;

  /// The factor the cascade stops at for `kernel` (its rows' PCA features).
  int predict(const data::CoarseningKernel& kernel) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The hidden sizes the inner cross-validation chooses from.
const std::vector<int>& magniHiddenSizes();

/// Magni's method as evaluated here: the hidden size with the best mean speedup in a
/// leave-one-kernel-out inner cross-validation over `training`, then a cascade of that size
/// trained on all of `training` predicts `heldOut`.
int predictWithMagni(const std::vector<data::CoarseningKernel>& training,
                     const data::CoarseningKernel& heldOut, uint64_t seed);

}  // namespace deeptune::training
