// The kernel driver: build, argument info, payload, timed runs and output checks on one device.
#include "runtime/driver.hpp"

#include "runtime/device_session.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include <unistd.h>

#include "runtime/opencl.hpp"
#include "runtime/runtime_error.hpp"

namespace deeptune::runtime {

namespace {

/// The 2016 libclc spellings of step 2 of the paper's normalizer (SPEC.md section 1), mapped back
/// to the builtins so that the paper's sources build on today's drivers.
const char* const kPaperSpellings[] = {
    "__clc_fabs=fabs", "__clc_pow=pow",   "__clc_ceil=ceil",   "__clc_floor=floor",
    "__clc_fma=fma",   "__clc_rint=rint", "__clc_round=round", "__clc_trunc=trunc",
};

using Bytes = std::vector<unsigned char>;

AddressSpace addressSpace(cl_kernel_arg_address_qualifier qualifier) {
  switch (qualifier) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
      return AddressSpace::kGlobal;
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
      return AddressSpace::kConstant;
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
      return AddressSpace::kLocal;
    default:
      return AddressSpace::kPrivate;
  }
}

/// One global/constant buffer argument with its two inputs: `whole` holds a guard zone, the
/// S elements and a second guard zone; the kernel gets the sub-buffer `payload` of the elements.
struct BoundBuffer {
  size_t arg = 0;
  ElementType element;
  bool readBack = false;
  size_t guard = 0;
  ocl::Buffer whole;
  ocl::Buffer payload;
  Bytes inputA, inputB;
};

bool sameElement(const Bytes& a, const Bytes& b, size_t offset, size_t size) {
  return std::memcmp(a.data() + offset, b.data() + offset, size) == 0;
}

double laneValue(const ElementType& element, const unsigned char* p) {
  if (element.scalarBytes == 8) {
    double value;
    std::memcpy(&value, p, 8);
    return value;
  }
  if (element.scalarBytes == 4) {
    float value;
    std::memcpy(&value, p, 4);
    return value;
  }
  uint16_t bits;  // half: decode enough to compare
  std::memcpy(&bits, p, 2);
  const int exponent = (bits >> 10) & 0x1F;
  const double mantissa = bits & 0x3FF;
  double value = exponent == 0    ? std::ldexp(mantissa, -24)
                 : exponent == 31 ? (mantissa == 0 ? INFINITY : NAN)
                                  : std::ldexp(1024 + mantissa, exponent - 25);
  return (bits & 0x8000) ? -value : value;
}

bool lanesClose(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;  // equal infinities too
  return std::fabs(a - b) <= kAbsTolerance + kRelTolerance * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

std::string buildOptions() {
  std::string options = "-cl-kernel-arg-info";
  for (const char* spelling : kPaperSpellings) options += std::string(" -D") + spelling;
  return options;
}

bool outputsAgree(const std::vector<OutputBuffer>& a, const std::vector<OutputBuffer>& b,
                  std::string* where) {
  auto fail = [&](const std::string& text) {
    if (where != nullptr) *where = text;
    return false;
  };
  if (a.size() != b.size()) return fail("different numbers of output buffers");
  for (size_t i = 0; i < a.size(); ++i) {
    const ElementType& element = a[i].element;
    if (a[i].bytes.size() != b[i].bytes.size()) {
      return fail("output buffer " + std::to_string(i) + " differs in size");
    }
    const size_t lanes = a[i].bytes.size() / element.scalarBytes;
    for (size_t lane = 0; lane < lanes; ++lane) {
      const size_t offset = lane * element.scalarBytes;
      const bool equal = element.kind == ScalarKind::kFloat
                             ? lanesClose(laneValue(element, a[i].bytes.data() + offset),
                                          laneValue(element, b[i].bytes.data() + offset))
                             : sameElement(a[i].bytes, b[i].bytes, offset, element.scalarBytes);
      if (!equal) {
        return fail("output buffer " + std::to_string(i) + " element " +
                    std::to_string(lane / element.storedLanes()));
      }
    }
  }
  return true;
}

void checkDevicesAgree(std::vector<Measurement*> measurements) {
  std::vector<Measurement*> compared;
  for (Measurement* m : measurements) {
    if (m != nullptr && m->hasTimings() && m->failedChecks.empty() && m->status == Status::kOk) {
      compared.push_back(m);
    }
  }
  if (compared.size() < 2) return;
  std::string where;
  bool agree = true;
  for (size_t i = 1; i < compared.size() && agree; ++i) {
    agree = outputsAgree(compared[0]->outputs, compared[i]->outputs, &where);
  }
  if (agree) return;
  for (Measurement* m : compared) {
    m->failedChecks.push_back(Status::kDevicesDisagree);
    m->status = Status::kDevicesDisagree;
    m->message = "DEVICES_DISAGREE: " + where;
  }
}

/// Refuses a payload the device or this host cannot hold, before anything is allocated: one
/// buffer (with its guard zones) over the device's largest allocation, all of them over its
/// global memory, or the host copies (two inputs and one output per buffer) over half the RAM.
/// Without it an oversized launch could take the whole machine's memory before failing.
void checkPayloadFits(const PayloadPlan& plan, size_t guardBytes, const DeviceInfo& device) {
  uint64_t deviceBytes = 0;
  uint64_t hostBytes = 0;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const ArgPayload& arg = plan.args[i];
    if (arg.kind != ArgPayload::Kind::kBuffer) continue;
    const uint64_t whole = static_cast<uint64_t>(arg.bytes) + 2 * static_cast<uint64_t>(guardBytes);
    if (device.maxAllocBytes != 0 && whole > device.maxAllocBytes) {
      throw RuntimeError("argument " + std::to_string(i) + " needs a buffer of " +
                         std::to_string(whole) + " bytes, over the device's largest allocation (" +
                         std::to_string(device.maxAllocBytes) + " bytes)");
    }
    deviceBytes += whole;
    hostBytes += 3 * static_cast<uint64_t>(arg.bytes);
  }
  if (device.globalMemBytes != 0 && deviceBytes > device.globalMemBytes) {
    throw RuntimeError("the buffers need " + std::to_string(deviceBytes) +
                       " bytes, over the device's global memory (" +
                       std::to_string(device.globalMemBytes) + " bytes)");
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0) {
    const uint64_t halfRam = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2;
    if (hostBytes > halfRam) {
      throw RuntimeError("the payload needs " + std::to_string(hostBytes) +
                         " bytes of host memory, over half of this machine's RAM");
    }
  }
}

struct Driver::Impl {
  explicit Impl(int deviceIndex) : session(deviceIndex) {}
  DeviceSession session;
  size_t maxItemSize0 = 0;
  std::optional<ocl::Program> program;

  std::vector<KernelArg> readArgs(const ocl::Kernel& kernel) const {
    std::vector<KernelArg> args;
    const cl_uint count = kernel.argCount();
    for (cl_uint i = 0; i < count; ++i) {
      const ocl::RawArgInfo raw = kernel.argInfo(i);
      KernelArg arg;
      arg.name = raw.name;
      arg.typeName = raw.typeName;
      arg.space = addressSpace(raw.address);
      arg.isPointer = !arg.typeName.empty() && arg.typeName.back() == '*';
      arg.isConst = (raw.typeQualifier & CL_KERNEL_ARG_TYPE_CONST) != 0 ||
                    (arg.isPointer && arg.space == AddressSpace::kConstant);
      args.push_back(std::move(arg));
    }
    return args;
  }

  size_t workGroupSize(const ocl::Kernel& kernel, const DriveOptions& options) const {
    size_t required[3] = {0, 0, 0};
    if (clGetKernelWorkGroupInfo(kernel.get(), session.id(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                 sizeof required, required, nullptr) == CL_SUCCESS &&
        required[0] != 0) {
      return required[0];  // reqd_work_group_size: the only size the kernel accepts
    }
    size_t wg = options.wgsize != 0 ? options.wgsize : std::min<size_t>(options.gsize, 256);
    wg = std::min<size_t>(wg, session.info().maxWorkGroupSize);
    wg = std::min(wg, kernel.maxWorkGroupSize(session.id()));
    if (maxItemSize0 != 0) wg = std::min(wg, maxItemSize0);
    return std::max<size_t>(wg, 1);
  }
};

Driver::Driver(int deviceIndex) : impl_(std::make_unique<Impl>(deviceIndex)) {
  const cl_device_id id = impl_->session.id();
  size_t size = 0;
  if (clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, nullptr, &size) == CL_SUCCESS &&
      size >= sizeof(size_t)) {
    std::vector<size_t> sizes(size / sizeof(size_t));
    ocl::checkError(clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, size, sizes.data(), nullptr),
                    "clGetDeviceInfo");
    impl_->maxItemSize0 = sizes[0];
  }
}

Driver::~Driver() = default;

const DeviceInfo& Driver::device() const { return impl_->session.info(); }

BuildResult Driver::build(const std::string& source, const std::string& extraFlags) {
  impl_->program.reset();
  BuildResult result;
  impl_->program = impl_->session.build(source, extraFlags, result.log);
  result.ok = impl_->program.has_value();
  if (result.ok) result.kernels = impl_->program->kernelNames();
  return result;
}

std::vector<KernelArg> Driver::kernelArgs(const std::string& kernel) {
  if (!impl_->program) throw RuntimeError("no program built");
  return impl_->readArgs(ocl::Kernel(*impl_->program, kernel));
}

namespace {

/// Sets every argument of `kernel` as `plan` says: each global/constant buffer in a buffer with
/// guard zones (options.guardBytes) and its two random inputs, local sizes, scalar values.
std::vector<BoundBuffer> bindPayload(ocl::Kernel& kernel, const PayloadPlan& plan,
                                     const ocl::Context& context, const DriveOptions& options) {
  std::vector<BoundBuffer> buffers;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const ArgPayload& arg = plan.args[i];
    const auto index = static_cast<cl_uint>(i);
    if (arg.kind == ArgPayload::Kind::kBuffer) {
      const cl_mem_flags flags = arg.readBack ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY;
      const size_t guard = options.guardBytes;
      ocl::Buffer whole(context, flags, guard + arg.bytes + guard);
      ocl::Buffer payload(whole, flags, guard, arg.bytes);
      BoundBuffer bound{
          i,
          arg.element,
          arg.readBack,
          guard,
          std::move(whole),
          std::move(payload),
          randomBuffer(arg.element, arg.count, options.gsize, options.seed, 2 * i),
          randomBuffer(arg.element, arg.count, options.gsize, options.seed, 2 * i + 1)};
      const cl_mem mem = bound.payload.get();
      kernel.setArg(index, sizeof mem, &mem);
      buffers.push_back(std::move(bound));
    } else if (arg.kind == ArgPayload::Kind::kLocal) {
      kernel.setArg(index, arg.bytes, nullptr);
    } else {
      kernel.setArg(index, arg.scalarValue.size(), arg.scalarValue.data());
    }
  }
  return buffers;
}

/// The output checks of a kernel's runs: `first` and `second` are the read-back buffers of the
/// two inputs, `nondeterministic` what differed between runs on the first ("" if nothing).
/// Sets m.failedChecks, m.status and m.message, and keeps `first` (moved) as m.outputs.
void checkOutputs(Measurement& m, const std::vector<BoundBuffer>& buffers,
                  std::vector<Bytes>& first, const std::vector<Bytes>& second,
                  const std::string& nondeterministic) {
  bool changed = false;    // some output element differs from its input
  bool sensitive = false;  // some written element differs between the two inputs
  for (size_t j = 0; j < buffers.size(); ++j) {
    const BoundBuffer& b = buffers[j];
    if (!b.readBack) continue;
    const size_t size = b.element.bytes();
    for (size_t offset = 0; offset < first[j].size(); offset += size) {
      const bool writtenA = !sameElement(first[j], b.inputA, offset, size);
      const bool writtenB = !sameElement(second[j], b.inputB, offset, size);
      changed = changed || writtenA;
      if ((writtenA || writtenB) && !sameElement(first[j], second[j], offset, size)) {
        sensitive = true;
        break;
      }
    }
    OutputBuffer output;
    output.element = b.element;
    output.bytes = std::move(first[j]);
    m.outputs.push_back(std::move(output));
  }
  std::vector<std::string> notes;
  if (!changed && !sensitive) {
    m.failedChecks.push_back(Status::kNoOutput);
    notes.push_back("NO_OUTPUT: no output buffer changed");
  }
  if (!nondeterministic.empty()) {
    m.failedChecks.push_back(Status::kNondeterministic);
    notes.push_back("NONDETERMINISTIC: " + nondeterministic);
  }
  if (!sensitive && changed) {
    m.failedChecks.push_back(Status::kInputInsensitive);
    notes.push_back("INPUT_INSENSITIVE: a second input gave the same written output");
  }
  m.status = worstStatus(m.failedChecks);
  for (const std::string& note : notes) m.message += (m.message.empty() ? "" : "; ") + note;
}

}  // namespace

Measurement Driver::measure(const std::string& name, const DriveOptions& options) {
  Measurement m;
  try {
    if (!impl_->program) throw RuntimeError("no program built");
    if (options.gsize == 0) throw RuntimeError("global size must be at least 1");
    ocl::Kernel kernel(*impl_->program, name);
    m.args = impl_->readArgs(kernel);
    m.wgsize = impl_->workGroupSize(kernel, options);
    m.globalSize = (options.gsize + m.wgsize - 1) / m.wgsize * m.wgsize;
    const PayloadPlan plan = planPayload(m.args, options.gsize, m.wgsize,
                                         impl_->session.info().addressBits, options.seed);
    m.transferBytes = plan.transferBytes;
    checkPayloadFits(plan, options.guardBytes, impl_->session.info());
    if (options.coarsening == 0 || m.wgsize % options.coarsening != 0) {
      throw RuntimeError("work-group size " + std::to_string(m.wgsize) +
                         " is not a multiple of the coarsening factor " +
                         std::to_string(options.coarsening));
    }
    const size_t launchGlobal = m.globalSize / options.coarsening;
    const size_t launchLocal = m.wgsize / options.coarsening;

    std::vector<BoundBuffer> buffers = bindPayload(kernel, plan, impl_->session.context(), options);

    const ocl::Queue& queue = impl_->session.queue();
    auto run = [&](bool secondInput, std::vector<Bytes>& outputs) {
      RunTiming timing;
      for (const BoundBuffer& b : buffers) {
        const Bytes& input = secondInput ? b.inputB : b.inputA;
        b.whole.zero(queue, 0, b.guard);  // the guard zones: untimed, not transfer
        b.whole.zero(queue, b.guard + input.size(), b.guard);
        timing.h2dNs += b.payload.write(queue, input.data(), input.size());
      }
      ocl::Event event;
      ocl::checkError(clEnqueueNDRangeKernel(queue.get(), kernel.get(), 1, nullptr, &launchGlobal,
                                             &launchLocal, 0, nullptr, event.out()),
                      "clEnqueueNDRangeKernel");
      event.wait("clEnqueueNDRangeKernel");
      timing.kernelNs = event.queuedToEndNs();
      outputs.resize(buffers.size());
      for (size_t j = 0; j < buffers.size(); ++j) {
        if (!buffers[j].readBack) continue;
        outputs[j].resize(buffers[j].inputA.size());
        timing.d2hNs += buffers[j].payload.read(queue, outputs[j].data(), outputs[j].size());
      }
      return timing;
    };

    std::vector<Bytes> first, again, second;
    run(false, first);  // warm-up: compiles for this work-group size on lazy drivers
    std::string nondeterministic;
    const int runs = std::max(1, options.runs);
    for (int r = 0; r < runs; ++r) {
      m.runs.push_back(run(false, again));
      for (size_t j = 0; j < buffers.size() && nondeterministic.empty(); ++j) {
        if (again[j] != first[j]) {
          nondeterministic = "run " + std::to_string(r + 1) + " differs from the warm-up run in '" +
                             m.args[buffers[j].arg].name + "'";
        }
      }
    }
    run(true, second);

    checkOutputs(m, buffers, first, second, nondeterministic);
  } catch (const RuntimeError& e) {
    m.status = Status::kRunError;
    m.message = e.what();
    m.runs.clear();
    m.outputs.clear();
  } catch (const std::bad_alloc&) {
    m.status = Status::kRunError;
    m.message = "out of host memory for the payload";
    m.runs.clear();
    m.outputs.clear();
  }
  return m;
}

}  // namespace deeptune::runtime
