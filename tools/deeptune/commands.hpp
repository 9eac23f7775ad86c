// The deeptune subcommands; each parses its own options and returns an exit code.
#pragma once

#include "tools/deeptune/cli_common.hpp"

namespace deeptune::cli {

// clang-format off
int runCoarsen(const Args& args);   ///< deeptune coarsen FILE --factor CF [--kernel NAME]
int runRewrite(const Args& args);   ///< deeptune rewrite FILE [--kernel NAME] [-o OUT]
int runTokenize(const Args& args);  ///< deeptune tokenize FILE --vocab V [--strict] [--json]
int runVocab(const Args& args);     ///< deeptune vocab derive FILES... | --csv FILE -o OUT
int runTrain(const Args& args);     ///< deeptune train --task devmap --data CSV -o MODEL
int runPretrain(const Args& args);  ///< deeptune pretrain --corpus DIR -o MODEL
int runEvaluate(const Args& args);  ///< deeptune evaluate --task devmap --data CSV --report DIR
int runEvaluateCoarsening(const Args& args);  ///< evaluate --task coarsening (from runEvaluate)
int runPredict(const Args& args);   ///< deeptune predict KERNEL.cl --dsize N --wgsize M
int runValidate(const Args& args);  ///< deeptune validate KERNEL.cl --gsize N [--wgsize M]
int runValidateCoarsening(const Args& args);  ///< validate --task coarsening (from runValidate)
int runPredictServer(const Args& args);  ///< deeptune __predict-server (the launcher's service)
int runUpgradeModel(const Args& args);   ///< deeptune upgrade-model MODEL -o OUT
// clang-format on
int runDevices(const Args& args);  ///< deeptune devices [--json]
int runMeasure(const Args& args);  ///< deeptune measure FILES... | --csv F --gsize N -o OUT
int runMeasureCoarsening(const Args& args);  ///< measure --task coarsening (from runMeasure)
int runMeasureWorker(const Args& args);      ///< deeptune __measure-worker REQUEST (hidden)

/// deeptune --version: version, Clang/LLVM and LibTorch versions, where the bundled models are.
void printVersion();

/// The commands that train (train, evaluate, upgrade-model) live in `deeptune-train`, the one
/// executable linked with LibTorch; `deeptune` runs it in its place for them (exec), so that the
/// other commands start without loading LibTorch. True for those commands' names.
bool isTrainingCommand(const std::string& command);

/// Replaces this process with `deeptune-train` beside this executable, same arguments; returns
/// only on failure (with the reason for a RuntimeError-style message).
std::string execTrainingBinary(char** argv);

}  // namespace deeptune::cli
