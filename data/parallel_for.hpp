// parallelFor: the project's one thread runner: task(i) for every index, on a few threads.
#pragma once

#include <cstddef>
#include <functional>

namespace deeptune::data {

/// Runs `task(i)` for each i in [0, count) on min(workers, count) threads, the calling thread
/// one of them (workers < 1 counts as 1; with one thread, or count <= 1, everything runs on the
/// caller and no thread is started). Indices are handed out one at a time in increasing order, so
/// which thread runs an index is not fixed: a task must not depend on its thread (a
/// thread_local, the thread's grad mode). Once a task has thrown, no further index is handed out;
/// the indices already handed out run to their end. After every thread has joined, rethrows the
/// exception of the lowest index that failed: every index below it has run, so when whether a
/// task fails depends on its index alone, that is the same exception for any thread count. If a
/// thread cannot be started, those that could (and the caller) take its share. The caller owns
/// everything `task` refers to; concurrent tasks must not write the same data.
void parallelFor(size_t count, int workers, const std::function<void(size_t)>& task);

}  // namespace deeptune::data
