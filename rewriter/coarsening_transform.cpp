// Thread coarsening (SPEC §1): one work-item does `factor` original work-items of dimension 0.
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <regex>
#include <set>

#include "rewriter/internal/passes.hpp"
#include "rewriter/rewrite_error.hpp"

namespace deeptune::rewriter::internal {
namespace {

constexpr const char* kIndex = "__deeptune_cf";  // the replication loop's counter

/// Work-group functions: they synchronize or share work across the group, so the replicated
/// body would run them a different number of times per work-item than the original did.
const std::set<std::string>& groupFunctions() {
  static const std::set<std::string> names = {"barrier",
                                              "work_group_barrier",
                                              "async_work_group_copy",
                                              "async_work_group_strided_copy",
                                              "wait_group_events",
                                              "work_group_all",
                                              "work_group_any",
                                              "work_group_broadcast",
                                              "work_group_reduce_add",
                                              "work_group_reduce_min",
                                              "work_group_reduce_max",
                                              "work_group_scan_inclusive_add",
                                              "work_group_scan_exclusive_add",
                                              "sub_group_barrier"};
  return names;
}

/// Work-item functions whose dimension-0 value the transform remaps (or, for the linear ids,
/// cannot).
const std::set<std::string>& remappedFunctions() {
  static const std::set<std::string> names = {"get_global_id", "get_local_id", "get_global_size",
                                              "get_local_size"};
  return names;
}

bool isLinearIdFunction(const std::string& name) {
  return name == "get_global_linear_id" || name == "get_local_linear_id" ||
         name == "get_enqueued_local_size";
}

struct Edit {
  unsigned offset;
  unsigned length;
  std::string text;
};

struct Refusal {
  clang::SourceLocation where;
  std::string reason;
};

std::string calleeName(const clang::CallExpr* call) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  return callee && callee->getIdentifier() ? callee->getName().str() : std::string();
}

/// Walks one function body: collects the edits of the kernel's body, or, for helpers, only
/// whether they use anything the transform cannot follow into them.
class BodyVisitor : public clang::RecursiveASTVisitor<BodyVisitor> {
 public:
  BodyVisitor(clang::ASTContext& context, const std::string& factor, bool stride, bool isKernel,
              std::set<const clang::FunctionDecl*>& seenHelpers)
      : context_(context),
        sources_(context.getSourceManager()),
        factor_(factor),
        stride_(stride),
        isKernel_(isKernel),
        seenHelpers_(seenHelpers) {}

  bool TraverseForStmt(clang::ForStmt* s) {
    return nested([&] { return Base::TraverseForStmt(s); });
  }
  bool TraverseWhileStmt(clang::WhileStmt* s) {
    return nested([&] { return Base::TraverseWhileStmt(s); });
  }
  bool TraverseDoStmt(clang::DoStmt* s) {
    return nested([&] { return Base::TraverseDoStmt(s); });
  }
  bool TraverseSwitchStmt(clang::SwitchStmt* s) {
    return nested([&] { return Base::TraverseSwitchStmt(s); });
  }

  bool VisitReturnStmt(clang::ReturnStmt* s) {
    if (!isKernel_) return true;
    if (loops_ > 0) {
      refuse(s->getBeginLoc(), "a return inside a loop or switch cannot be made safe");
    } else {
      // Ends this original work-item only: the next one of the replication loop goes on.
      add(s->getBeginLoc(), 6, "continue");
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* var) {
    if (isKernel_ && var->getType().getAddressSpace() == clang::LangAS::opencl_local) {
      refuse(var->getLocation(), "a __local variable in the kernel body is shared by the group");
    }
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    const std::string name = calleeName(call);
    if (groupFunctions().count(name)) {
      refuse(call->getBeginLoc(), "'" + name + "' inside the replicated body");
      return true;
    }
    if (isLinearIdFunction(name)) {
      refuse(call->getBeginLoc(), "'" + name + "' is not understood by the transform");
      return true;
    }
    if (remappedFunctions().count(name)) {
      remap(call, name);
      return true;
    }
    if (isKernel_ && (name == "get_group_id" || name == "get_num_groups")) {
      usesGroupShape_ = true;  // the same only while the local size is divided too
    }
    const clang::FunctionDecl* callee = call->getDirectCallee();
    const clang::FunctionDecl* definition = nullptr;
    if (callee && callee->hasBody(definition) &&
        sources_.isInMainFile(sources_.getExpansionLoc(definition->getLocation())) &&
        seenHelpers_.insert(definition).second) {
      BodyVisitor helper(context_, factor_, stride_, false, seenHelpers_);
      helper.TraverseStmt(definition->getBody());
      if (!helper.refusals_.empty() || helper.usesWorkItem_) {
        refuse(call->getBeginLoc(),
               "helper '" + name + "' uses work-item or work-group functions (" +
                   (helper.refusals_.empty() ? std::string("dimension 0")
                                             : helper.refusals_.front().reason) +
                   ")");
      }
    }
    return true;
  }

  const std::vector<Edit>& edits() const { return edits_; }
  const std::vector<Refusal>& refusals() const { return refusals_; }
  bool usesGroupShape() const { return usesGroupShape_; }

 private:
  using Base = clang::RecursiveASTVisitor<BodyVisitor>;

  template <typename Traverse>
  bool nested(Traverse traverse) {
    ++loops_;
    const bool result = traverse();
    --loops_;
    return result;
  }

  void refuse(clang::SourceLocation where, std::string reason) {
    refusals_.push_back({sources_.getExpansionLoc(where), std::move(reason)});
  }

  void add(clang::SourceLocation at, unsigned length, std::string text) {
    const clang::SourceLocation begin = sources_.getExpansionLoc(at);
    if (!sources_.isInMainFile(begin)) return;
    edits_.push_back({sources_.getFileOffset(begin), length, std::move(text)});
  }

  void remap(clang::CallExpr* call, const std::string& name) {
    if (call->getNumArgs() != 1) return;
    clang::Expr::EvalResult value;
    if (!call->getArg(0)->EvaluateAsInt(value, context_)) {
      refuse(call->getBeginLoc(), "'" + name + "' with a dimension that is not a constant");
      return;
    }
    if (value.Val.getInt() != 0) return;  // other dimensions are left as they are
    usesWorkItem_ = true;
    if (!isKernel_) return;
    if (name != "get_global_id" && name != "get_global_size") usesGroupShape_ = true;
    const clang::SourceLocation begin = sources_.getExpansionLoc(call->getBeginLoc());
    const clang::SourceLocation end = clang::Lexer::getLocForEndOfToken(
        sources_.getExpansionLoc(call->getEndLoc()), 0, sources_, context_.getLangOpts());
    if (!sources_.isInMainFile(begin) || end.isInvalid()) {
      refuse(call->getBeginLoc(), "'" + name + "' inside a macro the transform cannot edit");
      return;
    }
    const std::string cf = factor_, i = kIndex;
    std::string text;
    if (name == "get_global_size") {
      text = "(get_global_size(0) * " + cf + ")";
    } else if (name == "get_local_size") {
      text = "(get_local_size(0) * " + cf + ")";
    } else if (name == "get_local_id") {
      text = stride_ ? "(" + i + " * get_local_size(0) + get_local_id(0))"
                     : "(get_local_id(0) * " + cf + " + " + i + ")";
    } else if (stride_) {
      text = "(get_global_offset(0) + get_group_id(0) * get_local_size(0) * " + cf + " + " + i +
             " * get_local_size(0) + get_local_id(0))";
    } else {
      text = "((get_global_id(0) - get_global_offset(0)) * " + cf + " + " + i +
             " + get_global_offset(0))";
    }
    const unsigned offset = sources_.getFileOffset(begin);
    edits_.push_back({offset, sources_.getFileOffset(end) - offset, std::move(text)});
  }

  clang::ASTContext& context_;
  clang::SourceManager& sources_;
  std::string factor_;
  bool stride_;
  bool isKernel_;
  std::set<const clang::FunctionDecl*>& seenHelpers_;
  int loops_ = 0;
  bool usesWorkItem_ = false;
  bool usesGroupShape_ = false;
  std::vector<Edit> edits_;
  std::vector<Refusal> refusals_;
};

struct Outcome {
  std::vector<Edit> edits;
  std::vector<Refusal> refusals;
  std::vector<std::string> kernels;  ///< every kernel of the file, to name in errors
  std::string chosen;                ///< the kernel coarsened
  bool found = false;
  bool usesGroupShape = false;
};

class CoarsenConsumer : public clang::ASTConsumer {
 public:
  CoarsenConsumer(Outcome& outcome, const std::string& kernel, int factor, bool stride)
      : outcome_(outcome), kernel_(kernel), factor_(factor), stride_(stride) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl* decl : group) {
      auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl);
      if (function && function->hasAttr<clang::OpenCLKernelAttr>() &&
          function->doesThisDeclarationHaveABody()) {
        outcome_.kernels.push_back(function->getName().str());
        if (function->getName() == kernel_) target_ = function;
        definitions_.push_back(function);
      }
    }
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext& context) override {
    if (kernel_.empty() && definitions_.size() == 1) target_ = definitions_.front();
    if (target_ == nullptr) return;
    outcome_.chosen = target_->getName().str();
    outcome_.found = true;
    auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(target_->getBody());
    if (body == nullptr) return;
    std::set<const clang::FunctionDecl*> seen;
    BodyVisitor visitor(context, std::to_string(factor_), stride_, true, seen);
    visitor.TraverseStmt(body);
    outcome_.edits = visitor.edits();
    outcome_.refusals = visitor.refusals();
    outcome_.usesGroupShape = visitor.usesGroupShape();
    const clang::SourceManager& sources = context.getSourceManager();
    const unsigned open = sources.getFileOffset(sources.getExpansionLoc(body->getLBracLoc()));
    const unsigned close = sources.getFileOffset(sources.getExpansionLoc(body->getRBracLoc()));
    outcome_.edits.push_back({open + 1, 0,
                              "\nfor (uint " + std::string(kIndex) + " = 0; " + kIndex + " < " +
                                  std::to_string(factor_) + "; ++" + kIndex + ") {"});
    outcome_.edits.push_back({close, 0, "}\n"});
  }

 private:
  Outcome& outcome_;
  std::string kernel_;
  int factor_;
  bool stride_;
  clang::FunctionDecl* target_ = nullptr;
  std::vector<clang::FunctionDecl*> definitions_;  ///< every kernel definition, in order
};

class CoarsenAction : public clang::ASTFrontendAction {
 public:
  CoarsenAction(Outcome& outcome, const std::string& kernel, int factor, bool stride)
      : outcome_(outcome), kernel_(kernel), factor_(factor), stride_(stride) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<CoarsenConsumer>(outcome_, kernel_, factor_, stride_);
  }

 private:
  Outcome& outcome_;
  std::string kernel_;
  int factor_;
  bool stride_;
};

}  // namespace

CoarsenedText runCoarsenPass(const PreprocessedText& input, const std::string& pragmas,
                             const std::string& fileName, ClangResources& resources,
                             const std::string& kernel, int factor, bool stride) {
  // The shim spells some builtins as the 2016 libclc did (fabs -> __clc_fabs), for the paper's
  // text; a kernel to build needs the standard names back. Lines do not move.
  // The parse below force-includes the shim again: its macros for those names are undefined
  // first, on lines of their own that the output leaves out.
  static const std::string kUndefines =
      "#undef fabs\n#undef pow\n#undef ceil\n#undef floor\n#undef fma\n#undef rint\n"
      "#undef round\n#undef trunc\n#undef native_powr\n";
  static const std::regex libclcSpelling(R"(\b__clc_(\w+))");
  PreprocessedText preprocessed;
  preprocessed.text = kUndefines + std::regex_replace(input.text, libclcSpelling, "$1");
  preprocessed.originalLine.assign(
      static_cast<size_t>(std::count(kUndefines.begin(), kUndefines.end(), '\n')), 1);
  preprocessed.originalLine.insert(preprocessed.originalLine.end(), input.originalLine.begin(),
                                   input.originalLine.end());
  Outcome outcome;
  ErrorCollector errors;
  auto instance = makeCompilerInstance(preprocessed.text, fileName, errors, resources);
  CoarsenAction action(outcome, kernel, factor, stride);
  instance->ExecuteAction(action);
  auto userLine = [&](clang::SourceLocation where, int* column) {
    const clang::PresumedLoc presumed = instance->getSourceManager().getPresumedLoc(where);
    *column = presumed.isValid() ? static_cast<int>(presumed.getColumn()) : 1;
    const int line = presumed.isValid() ? static_cast<int>(presumed.getLine()) : 1;
    const size_t index = static_cast<size_t>(std::max(line, 1) - 1);
    return index < preprocessed.originalLine.size() && preprocessed.originalLine[index] > 0
               ? preprocessed.originalLine[index]
               : line;
  };
  if (const auto& error = errors.firstError()) {
    const size_t index = static_cast<size_t>(std::max(error->line, 1) - 1);
    const int line =
        index < preprocessed.originalLine.size() ? preprocessed.originalLine[index] : error->line;
    throw RewriteError(fileName, line, error->column,
                       error->message + " (the transform needs a kernel that compiles)");
  }
  if (!outcome.found) {
    std::string list;
    for (const std::string& name : outcome.kernels) list += (list.empty() ? "" : ", ") + name;
    if (list.empty()) list = "none";
    throw RewriteError(fileName, 1, 1,
                       kernel.empty() ? std::to_string(outcome.kernels.size()) +
                                            " kernels in the file; name the one to use: " + list
                                      : "no kernel named '" + kernel + "'; kernels: " + list);
  }
  if (!outcome.refusals.empty()) {
    int column = 1;
    const int line = userLine(outcome.refusals.front().where, &column);
    throw RewriteError(
        fileName, line, column,
        "cannot coarsen '" + outcome.chosen + "': " + outcome.refusals.front().reason);
  }
  std::sort(outcome.edits.begin(), outcome.edits.end(),
            [](const Edit& a, const Edit& b) { return a.offset < b.offset; });
  CoarsenedText result;
  size_t position = 0;
  for (const Edit& edit : outcome.edits) {
    if (edit.offset < position) continue;
    result.text.append(preprocessed.text, position, edit.offset - position);
    result.text += edit.text;
    position = edit.offset + edit.length;
  }
  result.text.append(preprocessed.text, position, std::string::npos);
  result.text.erase(0, kUndefines.size());
  result.text.insert(0, pragmas);
  result.usesGroupShape = outcome.usesGroupShape;
  result.kernel = outcome.chosen;
  return result;
}

}  // namespace deeptune::rewriter::internal
