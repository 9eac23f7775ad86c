// SourceRewriter: the rewriter's normalization as a public API (whole files, one kernel, names).
#include "api/source_rewriter.hpp"

#include "rewriter/normalizer.hpp"

namespace deeptune::api {

struct SourceRewriter::Impl {
  rewriter::Normalizer normalizer;
};

SourceRewriter::SourceRewriter() : impl_(std::make_unique<Impl>()) {}
SourceRewriter::~SourceRewriter() = default;
SourceRewriter::SourceRewriter(SourceRewriter&&) noexcept = default;
SourceRewriter& SourceRewriter::operator=(SourceRewriter&&) noexcept = default;

Rewritten SourceRewriter::normalize(const std::string& source, const std::string& fileName,
                                    const data::SourceOptions& options) {
  Rewritten result;
  rewriter::RewriteNotes notes;
  result.text = impl_->normalizer.normalize(source, fileName, options, &notes);
  result.undeclared = std::move(notes.undeclared);
  return result;
}

Rewritten SourceRewriter::extractKernel(const std::string& source, const std::string& fileName,
                                        const std::string& kernel,
                                        const data::SourceOptions& options) {
  Rewritten result;
  rewriter::RewriteNotes notes;
  rewriter::KernelName chosen;
  result.text = impl_->normalizer.extractKernel(source, fileName, kernel, &chosen, options, &notes);
  result.kernel = std::move(chosen.original);
  result.undeclared = std::move(notes.undeclared);
  return result;
}

std::vector<std::string> SourceRewriter::kernelNames(const std::string& source,
                                                     const std::string& fileName,
                                                     const data::SourceOptions& options) {
  std::vector<std::string> names;
  for (auto& name : impl_->normalizer.kernels(source, fileName, options)) {
    names.push_back(std::move(name.original));
  }
  return names;
}

Coarsened SourceRewriter::coarsen(const std::string& source, const std::string& fileName,
                                  const std::string& kernel, int factor, bool stride,
                                  const data::SourceOptions& options) {
  rewriter::CoarsenedKernel coarsened =
      impl_->normalizer.coarsen(source, fileName, kernel, factor, stride, options);
  return {
      std::move(coarsened.source), std::move(coarsened.kernel), coarsened.factor, coarsened.stride,
      coarsened.localSizeDivided,  coarsened.hostRule()};
}

}  // namespace deeptune::api
