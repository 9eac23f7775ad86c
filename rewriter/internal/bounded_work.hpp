// Internal: runs one normalization in a forked child whose memory and CPU time are bounded.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace deeptune::rewriter::internal {

/// What one normalization may use beyond the calling process: clang-format's line-breaking search
/// and Clang's AST grow superlinearly on some shapes (a call with thousands of arguments, long
/// chains of ?:), far past any kernel's needs (the paper's largest takes ~0.2 GiB and ~1 s).
constexpr std::size_t kWorkAddressSpaceBytes = std::size_t{640} << 20;
constexpr int kWorkCpuSeconds = 6;

/// Runs `work` in a child process limited to kWorkAddressSpaceBytes more address space than the
/// caller and kWorkCpuSeconds of CPU time, and returns the string it produced. A RewriteError the
/// work throws is thrown again here, unchanged; any other exception becomes a RewriteError at
/// `fileName`:1:1. A child stopped by a limit (or by anything else) is a RewriteError at
/// `fileName`:`line`:`column` saying which bound the input exceeded. The child writes nothing to
/// the caller's standard streams and runs no exit handlers.
std::string runBoundedWork(const std::function<std::string()>& work, const std::string& fileName,
                           int line, int column);

/// Length-prefixed fields for the child's answer.
void putField(std::string& out, const std::string& field);
/// Reads the next field at `offset` (advanced past it); throws std::runtime_error when truncated.
std::string takeField(const std::string& in, std::size_t& offset);

}  // namespace deeptune::rewriter::internal
