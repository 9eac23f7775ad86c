// LaunchArg: one argument of an application's kernel launch (host data, a cl_mem, local, value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

typedef struct _cl_mem* cl_mem;  // as <CL/cl.h> declares it

namespace deeptune::runtime {

/// One kernel argument of an application's launch, in the kernel's argument order.
struct LaunchArg {
  enum class Kind {
    kInput,   ///< host data copied to a device buffer only (a `const __global` pointer)
    kOutput,  ///< host data copied to a device buffer and read back into `output`
    kBuffer,  ///< the application's own cl_mem, passed as it is (nothing copied)
    kLocal,   ///< `bytes` of local memory per work-group
    kValue,   ///< a scalar or vector passed by value
  };
  Kind kind = Kind::kValue;
  const void* input = nullptr;       ///< kInput, kOutput: the bytes copied in
  void* output = nullptr;            ///< kOutput: where the result is read back (may equal `input`)
  size_t bytes = 0;                  ///< kInput, kOutput, kLocal; kBuffer: filled from the buffer
  std::vector<unsigned char> value;  ///< kValue
  cl_mem buffer = nullptr;           ///< kBuffer (not retained: the application owns it)

  /// The bytes the launch moves by the paper's rule (SPEC.md section 4): inputs once, outputs
  /// twice (in and back); a cl_mem counts once if it was created CL_MEM_READ_ONLY, else twice;
  /// local memory and values do not count. Throws RuntimeError for an invalid cl_mem.
  static uint64_t transferBytes(const std::vector<LaunchArg>& args);
};

}  // namespace deeptune::runtime
