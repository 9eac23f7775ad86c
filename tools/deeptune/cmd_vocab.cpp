// deeptune vocab derive: derives a vocabulary from files or a CSV column and writes it as JSON.
#include <iostream>
#include <string>
#include <vector>

#include "data/csv_reader.hpp"
#include "data/file_io.hpp"
#include "tokenizer/vocabulary_sources.hpp"
#include "tools/deeptune/commands.hpp"

namespace deeptune::cli {
namespace {

const char* kUsage =
    "usage: deeptune vocab derive FILE... [-o VOCAB.json]\n"
    "       deeptune vocab derive --csv FILE [--column src] [-o VOCAB.json]\n"
    "\n"
    "Joins the texts (the files, or every cell of the CSV column) with \"\\n\", splits them into\n"
    "the paper's candidate atoms (maximal munch, else single characters) and writes the distinct\n"
    "tokens, sorted by byte value, as a JSON array in index order (like vocab-128.json). Without\n"
    "-o, or with -o -, the array goes to stdout; -o must not name an input. Input that is not\n"
    "text is an error (exit 2).";

}  // namespace

int runVocab(const Args& args) {
  po::options_description options("options");
  std::string action;
  std::vector<std::string> files;
  std::string csv;
  std::string column;
  std::string output;
  options.add_options()("action", po::value(&action), "(positional) what to do: derive")(
      "files", po::value(&files)->multitoken(), "(positional) text files to derive from")(
      "csv", po::value(&csv), "derive from a column of this CSV file instead of files")(
      "column", po::value(&column)->default_value("src"), "CSV column holding the texts")(
      "output,o", po::value(&output)->default_value("-"), "vocabulary file to write (- = stdout)");
  po::positional_options_description positional;
  positional.add("action", 1).add("files", -1);
  po::variables_map vm;
  if (!parseOptions(args, kUsage, options, positional, vm)) return kExitOk;

  if (action != "derive") {
    throw UsageError(action.empty() ? "vocab: missing action (expected: derive)"
                                    : "vocab: unknown action '" + action + "' (expected: derive)");
  }
  if (files.empty() == csv.empty()) {
    throw UsageError("vocab derive: give either text files or --csv FILE (see --help)");
  }
  if (vm.count("column") && !vm["column"].defaulted() && csv.empty()) {
    throw UsageError("vocab derive: --column needs --csv");
  }

  std::vector<std::string> inputs = files;
  inputs.push_back(csv);
  data::checkOutputNotInput(output, inputs, data::OutputKind::kFileOrStdout);

  const tokenizer::Vocabulary vocabulary = csv.empty() ? tokenizer::vocabularyFromFiles(files)
                                                       : tokenizer::vocabularyFromCsv(csv, column);
  const bool toStdout = output == "-";
  writeOutput(output, vocabulary.toJson() + (toStdout ? "\n" : ""));
  return kExitOk;
}

}  // namespace deeptune::cli
