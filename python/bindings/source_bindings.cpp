// rewrite, kernels, Vocabulary and the paper's CSVs as plain Python rows.
#include <pybind11/stl.h>

#include "api/source_rewriter.hpp"
#include "data/datasets.hpp"
#include "data/source_options.hpp"
#include "python/bindings/bindings.hpp"
#include "tokenizer/vocabulary.hpp"

namespace deeptune::python {
namespace {

/// One rewriter per thread (a Normalizer is not shared between threads; its worker is its own).
api::SourceRewriter& threadRewriter() {
  thread_local api::SourceRewriter rewriter;
  return rewriter;
}

py::str rewrite(py::handle source, py::object kernel, const std::vector<std::string>& defines,
                const std::vector<std::string>& includeDirs, const std::string& fileName) {
  const std::string text = sourceBytes(source, "source");
  const data::SourceOptions options = data::makeSourceOptions(defines, includeDirs);
  const bool wholeFile = kernel.is_none();
  const std::string kernelName = wholeFile ? "" : kernel.cast<std::string>();
  api::Rewritten rewritten;
  {
    py::gil_scoped_release release;
    rewritten = wholeFile ? threadRewriter().normalize(text, fileName, options)
                          : threadRewriter().extractKernel(text, fileName, kernelName, options);
  }
  return py::str(rewritten.text);
}

std::vector<std::string> kernels(py::handle source, const std::vector<std::string>& defines,
                                 const std::vector<std::string>& includeDirs,
                                 const std::string& fileName) {
  const std::string text = sourceBytes(source, "source");
  const data::SourceOptions options = data::makeSourceOptions(defines, includeDirs);
  py::gil_scoped_release release;
  return threadRewriter().kernelNames(text, fileName, options);
}

api::Coarsened coarsen(py::handle source, int factor, const std::string& kernel, bool stride,
                       const std::vector<std::string>& defines,
                       const std::vector<std::string>& includeDirs, const std::string& fileName) {
  const std::string text = sourceBytes(source, "source");
  const data::SourceOptions options = data::makeSourceOptions(defines, includeDirs);
  py::gil_scoped_release release;
  return threadRewriter().coarsen(text, fileName, kernel, factor, stride, options);
}

py::tuple encode(const tokenizer::Vocabulary& vocabulary, py::handle text, bool strict,
                 const std::string& name) {
  const std::string bytes = sourceBytes(text, "text");
  tokenizer::Encoding encoding;
  {
    py::gil_scoped_release release;
    encoding = vocabulary.encode(
        bytes, strict ? tokenizer::UnknownPolicy::kStrict : tokenizer::UnknownPolicy::kSkip, name);
  }
  return py::make_tuple(py::cast(encoding.ids), encoding.skipped);
}

py::dict devmapRow(const data::DevmapRow& row) {
  py::dict result;
  result["index"] = row.index;
  result["benchmark"] = row.benchmark;
  result["dataset"] = row.dataset;
  result["comp"] = row.comp;
  result["rational"] = row.rational;
  result["mem"] = row.mem;
  result["localmem"] = row.localmem;
  result["coalesced"] = row.coalesced;
  result["atomic"] = row.atomic;
  result["transfer"] = row.transfer;
  result["wgsize"] = row.wgsize;
  result["oracle"] = row.oracle;
  result["runtime_cpu"] = row.runtimeCpu;
  result["runtime_gpu"] = row.runtimeGpu;
  result["src"] = row.src;
  return result;
}

py::dict coarseningRow(const data::CoarseningRow& row) {
  py::dict result;
  result["kernel"] = row.kernel;
  result["cf"] = row.cf;
  result["runtime_ns"] = row.runtimeNs;
  result["pca"] = row.pca ? py::cast(std::vector<double>(row.pca->begin(), row.pca->end()))
                          : py::object(py::none());
  result["src"] = row.src;
  return result;
}

template <typename Row, typename Read, typename Convert>
py::list readRows(const std::string& path, Read read, Convert convert) {
  std::vector<Row> rows;
  {
    py::gil_scoped_release release;
    rows = read(path);
  }
  py::list result;
  for (const Row& row : rows) result.append(convert(row));
  return result;
}

}  // namespace

void bindSources(py::module_& module) {
  using namespace pybind11::literals;
  const std::vector<std::string> none;
  module.def("rewrite", &rewrite, "source"_a, py::kw_only(), "kernel"_a = py::none(),
             "defines"_a = none, "include_dirs"_a = none, "file_name"_a = "<source>",
             "rewrite(source, *, kernel=None, defines=(), include_dirs=(), file_name='<source>')"
             " -> str\n\n"
             "Normalizes OpenCL C source (str or bytes) as `deeptune rewrite` does: preprocessed "
             "with the host's -D `defines` and -I `include_dirs`, comments dropped, identifiers "
             "renamed, reformatted. With `kernel` (a name, or '' for the file's only kernel) "
             "that kernel is cut out and normalized alone, as every model reads it. `file_name` "
             "names the source in errors and is the base of relative #includes. Raises "
             "deeptune.SourceError (file:line:col: why) for source it cannot normalize.");
  module.def("kernels", &kernels, "source"_a, py::kw_only(), "defines"_a = none,
             "include_dirs"_a = none, "file_name"_a = "<source>",
             "kernels(source, *, defines=(), include_dirs=(), file_name='<source>') -> list[str]"
             "\n\nThe names of the kernels the source defines, in source order.");

  py::class_<api::Coarsened>(module, "Coarsened",
                             "A kernel coarsened by a factor and how the host must launch it.")
      .def_readonly("source", &api::Coarsened::source, "The whole file, the kernel coarsened.")
      .def_readonly("kernel", &api::Coarsened::kernel)
      .def_readonly("factor", &api::Coarsened::factor)
      .def_readonly("stride", &api::Coarsened::stride)
      .def_readonly("local_size_divided", &api::Coarsened::localSizeDivided,
                    "Whether the local size of dimension 0 must be divided by the factor too.")
      .def_readonly("host_rule", &api::Coarsened::hostRule, "The launch rule in words.")
      .def("__repr__", [](const api::Coarsened& c) {
        return "<deeptune.Coarsened " + c.kernel + " x" + std::to_string(c.factor) + ">";
      });
  module.def("coarsen", &coarsen, "source"_a, "factor"_a, py::kw_only(), "kernel"_a = "",
             "stride"_a = false, "defines"_a = none, "include_dirs"_a = none,
             "file_name"_a = "<source>",
             "coarsen(source, factor, *, kernel='', stride=False, ...) -> Coarsened\n\n"
             "Thread coarsening as `deeptune coarsen` does: each work-item of the result does "
             "`factor` (2 to 1024) items of dimension 0 (stride=True: items a local size apart). "
             "Launch it with the global size of dimension 0 divided by the factor (and the local "
             "size too when local_size_divided). Raises deeptune.SourceError for a kernel it "
             "cannot coarsen safely, naming the line and why.");

  py::class_<tokenizer::Vocabulary>(
      module, "Vocabulary",
      "The tokens a model reads (DeepTune's hybrid vocabulary): a token's id is its index.")
      .def(py::init([](const std::vector<std::string>& tokens) {
             return tokenizer::Vocabulary(tokens, "<vocabulary>");
           }),
           "tokens"_a, "Vocabulary(tokens): the tokens in id order.")
      .def_static("load", &tokenizer::Vocabulary::load, "path"_a,
                  "Vocabulary.load(path): a JSON array of tokens (e.g. vocab-128.json).")
      .def_static(
          "derive",
          [](const std::vector<std::string>& texts) {
            std::vector<std::string_view> views(texts.begin(), texts.end());
            return tokenizer::Vocabulary::deriveFromTexts(views, "<texts>");
          },
          "texts"_a,
          "Vocabulary.derive(texts): the tokens of normalized kernels, as `deeptune vocab "
          "derive` finds them.")
      .def("encode", &encode, "text"_a, py::kw_only(), "strict"_a = false, "name"_a = "<input>",
           "encode(text, *, strict=False) -> (ids, skipped)\n\n"
           "Token ids of `text` by maximal munch, and how many characters outside the vocabulary "
           "were skipped (strict=True: such a character raises deeptune.SourceError).")
      .def("decode", &tokenizer::Vocabulary::decode, "ids"_a, "The text of token ids.")
      .def_property_readonly("tokens", &tokenizer::Vocabulary::tokens)
      .def("__len__", &tokenizer::Vocabulary::size)
      .def("__repr__", [](const tokenizer::Vocabulary& vocabulary) {
        return "<deeptune.Vocabulary of " + std::to_string(vocabulary.size()) + " tokens>";
      });

  module.def(
      "read_devmap",
      [](const std::string& path) {
        return readRows<data::DevmapRow>(path, data::readDevmapCsv, devmapRow);
      },
      "path"_a,
      "read_devmap(path) -> list[dict]\n\nThe rows of cgo17-{amd,nvidia}.csv (or a measured "
      "file of that form), checked as the CLI checks them: index, benchmark, dataset, the Grewe "
      "counts, transfer, wgsize, oracle, runtime_cpu, runtime_gpu, src.");
  module.def(
      "read_folds",
      [](const std::string& path) {
        return readRows<data::FoldRow>(path, data::readFoldsCsv, [](const data::FoldRow& row) {
          py::dict result;
          result["index"] = row.index;
          result["benchmark"] = row.benchmark;
          result["dataset"] = row.dataset;
          result["fold"] = row.fold;
          return result;
        });
      },
      "path"_a, "read_folds(path) -> list[dict]\n\nThe rows of folds-{amd,nvidia}.csv.");
  module.def(
      "read_coarsening_runtimes",
      [](const std::string& path) {
        return readRows<data::CoarseningRow>(path, data::readCoarseningRuntimesCsv, coarseningRow);
      },
      "path"_a,
      "read_coarsening_runtimes(path) -> list[dict]\n\nThe rows of pact-2014-runtimes.csv (or "
      "a `measure --task coarsening` file): kernel, cf, runtime_ns (device -> ns), pca (or "
      "None), src.");
}

}  // namespace deeptune::python
