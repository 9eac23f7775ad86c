// RuntimeError: the runtime module's one exception type, a one-line message naming what failed.
#pragma once

#include <stdexcept>
#include <string>

namespace deeptune::runtime {

/// Thrown by the runtime library. what() is one line: for a failed OpenCL call
/// `clBuildProgram: CL_BUILD_PROGRAM_FAILURE`, optionally followed by `: detail`; otherwise a plain
/// message. call() is the OpenCL function ("" when not an OpenCL failure), code() its cl_int
/// (0 when not an OpenCL failure).
class RuntimeError : public std::runtime_error {
 public:
  explicit RuntimeError(const std::string& message);
  RuntimeError(const std::string& call, int code, const std::string& detail = "");

  const std::string& call() const { return call_; }
  int code() const { return code_; }

 private:
  std::string call_;
  int code_ = 0;
};

/// The name of an OpenCL error code, e.g. -11 -> "CL_BUILD_PROGRAM_FAILURE"; an unknown code
/// gives "CL_ERROR(<code>)".
std::string clErrorName(int code);

}  // namespace deeptune::runtime
