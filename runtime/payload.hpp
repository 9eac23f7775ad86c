// Payload rules: kernel argument types, the data each argument gets for a global size S, transfer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace deeptune::runtime {

enum class AddressSpace { kGlobal, kConstant, kLocal, kPrivate };

/// One kernel argument as the OpenCL runtime reports it (clGetKernelArgInfo).
struct KernelArg {
  std::string name;
  std::string typeName;  ///< as reported, e.g. "float4*", "uint", "image2d_t"
  AddressSpace space = AddressSpace::kPrivate;
  bool isConst = false;    ///< const pointee, or a __constant pointer
  bool isPointer = false;  ///< typeName ends with '*'
};

enum class ScalarKind { kSigned, kUnsigned, kFloat };

/// An OpenCL C scalar or vector type: `lanes` scalars of `scalarBytes` bytes each.
struct ElementType {
  ScalarKind kind = ScalarKind::kFloat;
  int scalarBytes = 4;
  int lanes = 1;  ///< 1, 2, 3, 4, 8 or 16
  /// Lanes in memory: a 3-vector is stored like a 4-vector.
  int storedLanes() const { return lanes == 3 ? 4 : lanes; }
  /// Bytes of one element in a buffer.
  size_t bytes() const { return static_cast<size_t>(scalarBytes) * storedLanes(); }
};

/// Parses a scalar or vector type name without qualifiers or '*': "float4", "uint",
/// "unsigned int", "char16", "size_t" (addressBits / 8 bytes), "half2". nullopt for anything
/// else (struct, image, sampler, bool, event types).
std::optional<ElementType> parseElementType(std::string_view typeName, int addressBits);

/// What one argument receives for global size S and work-group size W.
struct ArgPayload {
  enum class Kind { kBuffer, kLocal, kScalar };
  Kind kind = Kind::kScalar;
  ElementType element;
  size_t count = 0;                        ///< elements: S (buffer), W (local), 1 (scalar)
  size_t bytes = 0;                        ///< count * element.bytes()
  bool readBack = false;                   ///< a non-const global buffer: copied in and read back
  std::vector<unsigned char> scalarValue;  ///< the value set for a scalar argument
};

/// The payload plan for one launch.
struct PayloadPlan {
  std::vector<ArgPayload> args;
  /// Sum over global/constant buffers of bytes x (1 if const, else 2), the paper's rule.
  uint64_t transferBytes = 0;
};

/// The rules: a global/constant pointer gets a buffer of S elements of its type; a local pointer
/// W elements of local memory; a scalar (or vector) of integer type gets S in every lane
/// (truncated to the type), of floating type a seeded random value in [0, 1) in every lane.
/// Throws RuntimeError naming the argument for a type with no rule (structs, images, samplers).
PayloadPlan planPayload(const std::vector<KernelArg>& args, size_t gsize, size_t wgsize,
                        int addressBits, uint64_t seed);

/// Seeded random buffer contents (`count` elements, bytes(element) each, little-endian):
/// floating lanes uniform in [0, 1), integer lanes uniform in [0, min(S, type max)] (S = gsize,
/// so the values are random but usable as indices into the S-element buffers). The same
/// (seed, stream) always gives the same bytes, on any platform.
std::vector<unsigned char> randomBuffer(const ElementType& element, size_t count, size_t gsize,
                                        uint64_t seed, uint64_t stream);

}  // namespace deeptune::runtime
