// Stage 3 of the normalizer: renames functions (A, B, ...) and variables (a, b, ...) via the AST.
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "rewriter/internal/passes.hpp"

namespace deeptune::rewriter::internal {
namespace {

/// Maps original spellings to generated names in order of first declaration.
class NameTable {
 public:
  explicit NameTable(bool upperCase) : upperCase_(upperCase) {}

  const std::string& assign(const std::string& original) {
    auto found = names_.find(original);
    if (found != names_.end()) return found->second;
    std::string name;
    do {
      name = nameAt(next_++);
    } while (!upperCase_ && isReserved(name));
    return names_.emplace(original, std::move(name)).first->second;
  }
  const std::string* find(const std::string& original) const {
    auto found = names_.find(original);
    return found == names_.end() ? nullptr : &found->second;
  }
  const std::unordered_map<std::string, std::string>& entries() const { return names_; }

 private:
  static bool isReserved(const std::string& name) {
    return name == "do" || name == "if" || name == "abs" || name == "for" || name == "int";
  }
  std::string nameAt(int index) const {  // bijective base 26: a..z, aa, ab, ...
    std::string name;
    for (int n = index + 1; n > 0; n = (n - 1) / 26) {
      name.insert(name.begin(), static_cast<char>((upperCase_ ? 'A' : 'a') + (n - 1) % 26));
    }
    return name;
  }

  bool upperCase_;
  int next_ = 0;
  std::unordered_map<std::string, std::string> names_;
};

/// One identifier occurrence to replace: byte offset in the main file and the new spelling.
struct Edit {
  unsigned offset;
  unsigned length;
  std::string replacement;
};

/// An occurrence of a function or variable name, resolved against the tables after traversal
/// (so that a call written before its function's definition is renamed too).
struct Occurrence {
  unsigned offset;
  std::string name;
  bool isFunction;
};

/// Collects edits (never edits itself): declarations in the main file in traversal order.
class RenameCollector : public clang::RecursiveASTVisitor<RenameCollector> {
 public:
  RenameCollector(clang::SourceManager& sources, RenamedText& result)
      : sources_(sources), result_(result) {}

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (function->isImplicit() || !inMainFile(function->getLocation())) return true;
    const std::string name = function->getNameAsString();
    if (name.empty()) return true;
    const std::string& renamed = functions_.assign(name);
    addOccurrence(function->getLocation(), name, true);
    if (function->doesThisDeclarationHaveABody()) {
      ++result_.functionDefinitions;
      if (function->hasAttr<clang::OpenCLKernelAttr>()) result_.kernels.push_back({name, renamed});
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* variable) {
    if (!inMainFile(variable->getLocation())) return true;
    const std::string name = variable->getNameAsString();
    if (name.empty()) return true;
    variables_.assign(name);
    addOccurrence(variable->getLocation(), name, false);
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* reference) {
    const clang::ValueDecl* target = reference->getDecl();
    const std::string name = target->getNameAsString();
    if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(target)) {
      // A call before the definition refers to an implicit declaration; follow it to the
      // definition. Calls to functions declared nowhere in the file keep their spelling.
      const clang::FunctionDecl* latest = function->getMostRecentDecl();
      if (latest->isImplicit() || !declaredInMainFile(latest)) return true;
      addOccurrence(reference->getLocation(), name, true);
    } else if (llvm::isa<clang::VarDecl>(target) && declaredInMainFile(target)) {
      addOccurrence(reference->getLocation(), name, false);
    }
    return true;
  }

  /// Adds the occurrences the AST does not hold: Clang drops a statement it cannot type-check
  /// (one using a name the host defines), and the declared names in it would keep their
  /// spelling. Every identifier token of the main file spelled like a declared variable, or like
  /// a declared function and followed by '(', becomes an occurrence; member names (after '.' or
  /// '->'), struct/union/enum tags and bodies, and attribute arguments are left alone.
  void addTokenOccurrences(const clang::LangOptions& language) {
    std::set<unsigned> seen;
    for (const Occurrence& occurrence : occurrences_) seen.insert(occurrence.offset);
    const clang::FileID main = sources_.getMainFileID();
    const llvm::StringRef buffer = sources_.getBufferData(main);
    clang::Lexer lexer(sources_.getLocForStartOfFile(main), language, buffer.begin(),
                       buffer.begin(), buffer.end());
    std::vector<clang::Token> tokens;
    clang::Token token;
    do {
      lexer.LexFromRawLexer(token);
      tokens.push_back(token);
    } while (token.isNot(clang::tok::eof));
    int braces = 0;
    std::vector<int> recordBodies;  // brace depths at which a struct/union/enum body opened
    int attributeParens = 0;
    bool tagKeywordPending = false;
    for (size_t i = 0; i + 1 < tokens.size(); ++i) {
      const clang::Token& t = tokens[i];
      if (attributeParens > 0) {
        if (t.is(clang::tok::l_paren)) ++attributeParens;
        if (t.is(clang::tok::r_paren)) --attributeParens;
        continue;
      }
      if (t.is(clang::tok::l_brace)) {
        ++braces;
        if (tagKeywordPending) recordBodies.push_back(braces);
        tagKeywordPending = false;
      } else if (t.is(clang::tok::r_brace)) {
        if (!recordBodies.empty() && recordBodies.back() == braces) recordBodies.pop_back();
        --braces;
      } else if (t.is(clang::tok::semi)) {
        tagKeywordPending = false;
      }
      if (t.isNot(clang::tok::raw_identifier)) continue;
      const std::string name = t.getRawIdentifier().str();
      if (name == "struct" || name == "union" || name == "enum") {
        tagKeywordPending = true;
        continue;
      }
      if (name == "__attribute__") {
        if (tokens[i + 1].is(clang::tok::l_paren)) {
          attributeParens = 1;
          ++i;
        }
        continue;
      }
      const unsigned offset = sources_.getFileOffset(t.getLocation());
      const bool member = i > 0 && tokens[i - 1].isOneOf(clang::tok::period, clang::tok::arrow);
      const bool tag = i > 0 && tokens[i - 1].is(clang::tok::raw_identifier) &&
                       (tokens[i - 1].getRawIdentifier() == "struct" ||
                        tokens[i - 1].getRawIdentifier() == "union" ||
                        tokens[i - 1].getRawIdentifier() == "enum");
      if (seen.count(offset) != 0 || member || tag || !recordBodies.empty()) continue;
      if (variables_.find(name) != nullptr) {
        occurrences_.push_back({offset, name, false});
        ++result_.recoveredOccurrences;
      } else if (functions_.find(name) != nullptr && tokens[i + 1].is(clang::tok::l_paren)) {
        occurrences_.push_back({offset, name, true});
        ++result_.recoveredOccurrences;
      }
    }
  }

  /// Every declared name and its new name, functions and variables.
  std::vector<std::pair<std::string, std::string>> renames() const {
    std::vector<std::pair<std::string, std::string>> all(functions_.entries().begin(),
                                                         functions_.entries().end());
    all.insert(all.end(), variables_.entries().begin(), variables_.entries().end());
    std::sort(all.begin(), all.end());
    return all;
  }

  /// The edits for every occurrence whose name was declared in the file.
  std::vector<Edit> edits() const {
    std::vector<Edit> edits;
    for (const Occurrence& occurrence : occurrences_) {
      const NameTable& table = occurrence.isFunction ? functions_ : variables_;
      const std::string* renamed = table.find(occurrence.name);
      if (renamed && *renamed != occurrence.name) {
        edits.push_back(
            {occurrence.offset, static_cast<unsigned>(occurrence.name.size()), *renamed});
      }
    }
    return edits;
  }

 private:
  bool declaredInMainFile(const clang::Decl* decl) const {
    const clang::SourceLocation location = decl->getLocation();
    return location.isValid() && sources_.isInMainFile(sources_.getExpansionLoc(location));
  }

  bool inMainFile(clang::SourceLocation location) {
    if (location.isInvalid()) return false;
    if (location.isMacroID()) {
      if (sources_.isInMainFile(sources_.getExpansionLoc(location))) ++result_.skippedLocations;
      return false;
    }
    return sources_.isInMainFile(location);
  }

  void addOccurrence(clang::SourceLocation location, const std::string& name, bool isFunction) {
    if (!inMainFile(location)) return;
    const unsigned offset = sources_.getFileOffset(location);
    const llvm::StringRef buffer = sources_.getBufferData(sources_.getMainFileID());
    if (buffer.substr(offset, name.size()) != name) {
      ++result_.skippedLocations;  // spelled differently here (e.g. a universal character name)
      return;
    }
    occurrences_.push_back({offset, name, isFunction});
  }

  clang::SourceManager& sources_;
  RenamedText& result_;
  NameTable functions_{true};
  NameTable variables_{false};
  std::vector<Occurrence> occurrences_;
};

class RenameConsumer : public clang::ASTConsumer {
 public:
  RenameConsumer(RenamedText& result, std::vector<Edit>& edits) : result_(result), edits_(edits) {}

  // Only the main file's declarations are visited: walking the whole translation unit would
  // deserialize every libclc declaration of the PCH (most of the time of a run).
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    topLevel_.insert(topLevel_.end(), group.begin(), group.end());
    return true;
  }
  void HandleTranslationUnit(clang::ASTContext& context) override {
    RenameCollector collector(context.getSourceManager(), result_);
    for (clang::Decl* decl : topLevel_) collector.TraverseDecl(decl);
    collector.addTokenOccurrences(context.getLangOpts());
    edits_ = collector.edits();
    result_.renames = collector.renames();
  }

 private:
  std::vector<clang::Decl*> topLevel_;
  RenamedText& result_;
  std::vector<Edit>& edits_;
};

class RenameAction : public clang::ASTFrontendAction {
 public:
  RenameAction(RenamedText& result, std::vector<Edit>& edits) : result_(result), edits_(edits) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<RenameConsumer>(result_, edits_);
  }

 private:
  RenamedText& result_;
  std::vector<Edit>& edits_;
};

std::string applyEdits(std::string_view source, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.offset < b.offset; });
  std::string output;
  output.reserve(source.size());
  size_t position = 0;
  for (const Edit& edit : edits) {
    if (edit.offset < position) continue;  // the same token reached twice
    output.append(source.substr(position, edit.offset - position));
    output.append(edit.replacement);
    position = edit.offset + edit.length;
  }
  output.append(source.substr(position));
  return output;
}

}  // namespace

RenamedText runRenamePass(std::string_view source, const std::string& fileName,
                          ClangResources& resources) {
  RenamedText result;
  std::vector<Edit> edits;
  ErrorCollector errors;
  auto instance = makeCompilerInstance(source, fileName, errors, resources);
  RenameAction action(result, edits);
  instance->ExecuteAction(action);
  result.firstError = errors.firstError();
  result.firstIntolerableError = errors.firstIntolerableError();
  for (const std::string& name : errors.undeclaredNames()) {
    // The shim's 2016 spellings of builtins (fabs -> __clc_fabs) are declared nowhere on purpose.
    if (name.rfind("__clc_", 0) != 0) result.undeclared.push_back(name);
  }
  result.text = applyEdits(source, std::move(edits));
  return result;
}

}  // namespace deeptune::rewriter::internal
