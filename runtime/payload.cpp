// Payload rules: type parsing, payload planning and seeded buffer contents.
#include "runtime/payload.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/runtime_error.hpp"

namespace deeptune::runtime {

namespace {

struct NamedScalar {
  const char* name;
  ScalarKind kind;
  int bytes;  ///< 0: address size
};

// Longest names first so that "uint" is not read as "u" + "int".
const NamedScalar kScalars[] = {
    {"unsigned char", ScalarKind::kUnsigned, 1},
    {"unsigned short", ScalarKind::kUnsigned, 2},
    {"unsigned int", ScalarKind::kUnsigned, 4},
    {"unsigned long", ScalarKind::kUnsigned, 8},
    {"uintptr_t", ScalarKind::kUnsigned, 0},
    {"ptrdiff_t", ScalarKind::kSigned, 0},
    {"intptr_t", ScalarKind::kSigned, 0},
    {"size_t", ScalarKind::kUnsigned, 0},
    {"double", ScalarKind::kFloat, 8},
    {"float", ScalarKind::kFloat, 4},
    {"half", ScalarKind::kFloat, 2},
    {"uchar", ScalarKind::kUnsigned, 1},
    {"ushort", ScalarKind::kUnsigned, 2},
    {"uint", ScalarKind::kUnsigned, 4},
    {"ulong", ScalarKind::kUnsigned, 8},
    {"char", ScalarKind::kSigned, 1},
    {"short", ScalarKind::kSigned, 2},
    {"int", ScalarKind::kSigned, 4},
    {"long", ScalarKind::kSigned, 8},
};

/// splitmix64: a tiny, portable, well-mixed generator.
uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t maxValue(const ElementType& element) {
  const int bits = element.scalarBytes * 8 - (element.kind == ScalarKind::kSigned ? 1 : 0);
  return bits >= 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
}

/// float in [0, 1) to IEEE half bits (values are small and positive, no rounding subtleties).
uint16_t halfBits(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, 4);
  const int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
  if (exponent <= 0) return 0;
  return static_cast<uint16_t>((exponent << 10) | ((bits >> 13) & 0x3FF));
}

void storeLane(const ElementType& element, uint64_t integer, double real, unsigned char* out) {
  if (element.kind == ScalarKind::kFloat) {
    if (element.scalarBytes == 8) {
      std::memcpy(out, &real, 8);
    } else if (element.scalarBytes == 4) {
      const float value = static_cast<float>(real);
      std::memcpy(out, &value, 4);
    } else {
      const uint16_t value = halfBits(static_cast<float>(real));
      std::memcpy(out, &value, 2);
    }
    return;
  }
  for (int b = 0; b < element.scalarBytes; ++b) {  // little-endian, like every OpenCL host here
    out[b] = static_cast<unsigned char>(integer >> (8 * b));
  }
}

std::string describe(const KernelArg& arg, size_t index) {
  return "argument " + std::to_string(index) + " '" + arg.name + "' of type '" + arg.typeName + "'";
}

}  // namespace

std::optional<ElementType> parseElementType(std::string_view typeName, int addressBits) {
  while (!typeName.empty() && typeName.back() == ' ') typeName.remove_suffix(1);
  for (const NamedScalar& scalar : kScalars) {
    const std::string_view name = scalar.name;
    if (typeName.substr(0, name.size()) != name) continue;
    const std::string_view rest = typeName.substr(name.size());
    int lanes = 1;
    if (!rest.empty()) {
      if (scalar.bytes == 0 || name.find(' ') != std::string_view::npos) return std::nullopt;
      if (rest == "2")
        lanes = 2;
      else if (rest == "3")
        lanes = 3;
      else if (rest == "4")
        lanes = 4;
      else if (rest == "8")
        lanes = 8;
      else if (rest == "16")
        lanes = 16;
      else
        return std::nullopt;
    }
    ElementType element;
    element.kind = scalar.kind;
    element.scalarBytes = scalar.bytes == 0 ? addressBits / 8 : scalar.bytes;
    element.lanes = lanes;
    return element;
  }
  return std::nullopt;
}

std::vector<unsigned char> randomBuffer(const ElementType& element, size_t count, size_t gsize,
                                        uint64_t seed, uint64_t stream) {
  std::vector<unsigned char> bytes(count * element.bytes(), 0);
  uint64_t state = seed * 0x100000001B3ULL ^ (stream + 1) * 0x9E3779B97F4A7C15ULL;
  const uint64_t range = std::min<uint64_t>(gsize, maxValue(element)) + 1;  // [0, min(S, max)]
  unsigned char* out = bytes.data();
  for (size_t i = 0; i < count; ++i) {
    for (int lane = 0; lane < element.storedLanes(); ++lane) {
      const uint64_t random = splitmix(state);
      const double real = static_cast<double>(random >> 11) * 0x1.0p-53;
      storeLane(element, random % range, real, out);
      out += element.scalarBytes;
    }
  }
  return bytes;
}

PayloadPlan planPayload(const std::vector<KernelArg>& args, size_t gsize, size_t wgsize,
                        int addressBits, uint64_t seed) {
  PayloadPlan plan;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& arg = args[i];
    std::string base = arg.typeName;
    if (arg.isPointer) base.pop_back();
    const auto element = parseElementType(base, addressBits);
    if (!element) {
      throw RuntimeError(describe(arg, i) + " has no payload rule (only scalar and vector types " +
                         "and pointers to them are filled)");
    }
    ArgPayload payload;
    payload.element = *element;
    if (arg.isPointer &&
        (arg.space == AddressSpace::kGlobal || arg.space == AddressSpace::kConstant)) {
      payload.kind = ArgPayload::Kind::kBuffer;
      payload.count = gsize;
      payload.readBack = !arg.isConst && arg.space == AddressSpace::kGlobal;
    } else if (arg.isPointer && arg.space == AddressSpace::kLocal) {
      payload.kind = ArgPayload::Kind::kLocal;
      payload.count = wgsize;
    } else if (!arg.isPointer) {
      payload.kind = ArgPayload::Kind::kScalar;
      payload.count = 1;
      payload.scalarValue.assign(element->bytes(), 0);
      uint64_t state = seed ^ (0xC0FFEEULL + i);
      for (int lane = 0; lane < element->lanes; ++lane) {
        const double real = static_cast<double>(splitmix(state) >> 11) * 0x1.0p-53;
        const uint64_t integer = std::min<uint64_t>(gsize, maxValue(*element));
        storeLane(*element, integer, real,
                  payload.scalarValue.data() + lane * element->scalarBytes);
      }
    } else {
      throw RuntimeError(describe(arg, i) + ": a private pointer argument has no payload rule");
    }
    payload.bytes = payload.count * element->bytes();
    if (payload.kind == ArgPayload::Kind::kBuffer) {
      plan.transferBytes += payload.bytes * (payload.readBack ? 2 : 1);
    }
    plan.args.push_back(std::move(payload));
  }
  return plan;
}

}  // namespace deeptune::runtime
