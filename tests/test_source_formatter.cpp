// Stage 5 the fast way (long lines with their operands as atoms) against one libFormat pass.
#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "data/datasets.hpp"
#include "data/file_io.hpp"
#include "rewriter/internal/line_atoms.hpp"
#include "rewriter/normalizer.hpp"
#include "tests/test_paths.hpp"

using deeptune::rewriter::formatSource;
using deeptune::rewriter::formatSourceInOnePass;
namespace internal = deeptune::rewriter::internal;

namespace {

/// Every whitespace run as one space: the same tokens laid out on one line.
std::string squashed(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    const bool ws = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (ws && !space) out += ' ';
    if (!ws) out += c;
    space = ws;
  }
  return out;
}

/// `lines` as the body of a function, the context whose statements get atoms.
std::string inBody(const std::string& lines) { return "void f() {\n" + lines + "\n}"; }

/// The placeholder of an atom `width` characters wide.
std::string placeholder(size_t width) { return "0" + std::string(width - 1, '7'); }

/// Random OpenCL expressions of the shapes that make long lines: sums and products of
/// parenthesized groups, subscripts, calls, casts, unary operators, comparisons and ternaries.
class ExpressionGenerator {
 public:
  explicit ExpressionGenerator(unsigned seed) : random_(seed) {}

  std::string expression(int depth, size_t width) {
    std::string out = operand(depth);
    // No '<' or '>': libFormat reads many random `x < y ... z > w` as templates, and such lines
    // take the slow pass (line_atoms.cpp); the for loops below compare with '<'.
    static const char* const kOperators[] = {" + ",  " - ",  " * ",  " / ",  " <= ", " >= ",
                                             " == ", " != ", " && ", " || ", " & ",  " | ",
                                             " ^ ",  " << ", " >> ", " % "};
    while (out.size() < width) {
      out += pick(kOperators) + operand(depth);
    }
    return out;
  }

  std::string statement(size_t width) {
    switch (below(6)) {
      case 0:
        return "a[e] = " + expression(3, width) + ";";
      case 1:
        return "float f" + std::to_string(below(100)) + " = " + expression(3, width) + ";";
      case 2:
        return "b[" + operand(2) + "] += " + expression(3, width) + ";";
      case 3:
        return "if (" + expression(2, width / 2) + ") {\n a[e] = " + expression(3, width) + ";\n}";
      case 4:
        return "c[e] = " + operand(2) + " ? " + expression(3, width / 2) + " : " +
               expression(3, width / 2) + ";";
      default:
        return "for (int i = 0; i < " + expression(2, width / 3) +
               "; i++) {\n b[i] = " + expression(3, width) + ";\n}";
    }
  }

 private:
  template <size_t N>
  std::string pick(const char* const (&options)[N]) {
    return options[below(N)];
  }
  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }

  std::string operand(int depth) {
    static const char* const kNames[] = {
        "d", "e", "g", "h", "a[e]", "b[e + 1]", "2.0f", "7", "get_global_id(0)", "c[0]"};
    if (depth <= 0) return pick(kNames);
    switch (below(12)) {
      case 0:
      case 1:
        return "(" + expression(depth - 1, 10 + below(60)) + ")";
      case 2:
        return "a[" + expression(depth - 1, 5 + below(30)) + "]";
      case 3:
        return "fma(" + operand(depth - 1) + ", " + operand(depth - 1) + ", " + operand(depth - 1) +
               ")";
      case 4:
        return "(float)" + operand(depth - 1);
      case 5:
        return "-(" + expression(depth - 1, 10 + below(40)) + ")";
      case 6:
        return "(int)(" + expression(depth - 1, 10 + below(40)) + ")";
      case 7:
        return "(" + operand(depth - 1) + " ? " + operand(depth - 1) + " : " + operand(depth - 1) +
               ")";
      case 8:
        return "!" + operand(depth - 1);
      case 9:
        return "((float4)(d, g, h, " + operand(depth - 1) + ")).x";
      case 10:
        return "(" + expression(depth - 1, 100 + below(150)) + ")";
      default:
        return pick(kNames);
    }
  }

  std::mt19937 random_;
};

/// A kernel of random long statements, its tokens laid out at random (spaces, newlines, none).
std::string randomKernel(unsigned seed) {
  ExpressionGenerator generator(seed);
  std::mt19937 layout(seed * 7919u + 1);
  std::string body;
  const int statements = 1 + static_cast<int>(seed % 3);
  for (int i = 0; i < statements; ++i) {
    body += generator.statement(400 + (seed * 131 + static_cast<unsigned>(i) * 977) % 1400);
    body += "\n";
  }
  std::string laidOut;
  for (char c : body) {
    if (c == ' ') {
      const unsigned roll = layout() % 10;
      laidOut += roll == 0 ? "\n   " : roll == 1 ? "  " : " ";
    } else {
      laidOut += c;
    }
  }
  return "__kernel void A(__global float* a, __global float* b, __global int* c, const float d,\n"
         "                const float g, const float h) {\n  int e = get_global_id(0);\n" +
         laidOut + "}\n";
}

}  // namespace

TEST_CASE("formatting with atoms gives one libFormat pass's text on the paper's kernels",
          "[rewriter][format][paper]") {
  const auto rows =
      deeptune::data::readDevmapCsv(deeptune::test::paperDataDir() + "/cgo17-amd.csv");
  std::set<std::string> sources;
  for (const auto& row : rows) sources.insert(row.src);
  REQUIRE(sources.size() == 247);
  std::map<internal::FormatRoute, int> routes;
  for (const std::string& src : sources) {
    CHECK(formatSource(src) == formatSourceInOnePass(src));
    CHECK(formatSource(squashed(src)) == formatSourceInOnePass(squashed(src)));
    const internal::FormatRoute route = internal::formatRouted(src).route;
    ++routes[route];
    // Only text the atoms' route does not take (2 parboil sad extracts have unmatched brackets)
    // goes the slow way.
    if (route == internal::FormatRoute::OnePass) CHECK_FALSE(internal::plainText(src));
  }
  // The shoc S3D and npb kernels' long statements went through the atoms.
  CHECK(routes[internal::FormatRoute::Atoms] >= 20);
  CHECK(routes[internal::FormatRoute::OnePass] <= 2);
}

TEST_CASE("formatting with atoms gives one libFormat pass's text on the project's kernels",
          "[rewriter][format]") {
  namespace fs = std::filesystem;
  int files = 0;
  for (const std::string folder : {"/kernels", "/kernels/tests", "/tests/corpus"}) {
    for (const auto& entry :
         fs::recursive_directory_iterator(deeptune::test::sourceDir() + folder)) {
      if (entry.path().extension() != ".cl") continue;
      const std::string text = deeptune::data::readFileBytes(entry.path().string(), 1 << 20);
      INFO(entry.path().string());
      CHECK(formatSource(text) == formatSourceInOnePass(text));
      CHECK(formatSource(squashed(text)) == formatSourceInOnePass(squashed(text)));
      ++files;
    }
  }
  CHECK(files >= 40);
}

TEST_CASE("formatting with atoms gives one libFormat pass's text on random long expressions",
          "[rewriter][format]") {
  std::map<internal::FormatRoute, int> routes;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    const std::string kernel = randomKernel(seed);
    INFO("seed " << seed << ":\n" << kernel);
    CHECK(formatSource(kernel) == formatSourceInOnePass(kernel));
    ++routes[internal::formatRouted(kernel).route];
  }
  std::cout << "random long statements: " << routes[internal::FormatRoute::Atoms]
            << " through atoms, " << routes[internal::FormatRoute::OnePass] << " the slow pass, "
            << routes[internal::FormatRoute::NoLongLine] << " without a long line\n";
  CHECK(routes[internal::FormatRoute::Atoms] >= 40);
}

TEST_CASE("stage 5 takes any view of text, an empty one without a buffer too",
          "[rewriter][format]") {
  // Found by the format fuzz target: libFormat read past a view that was not NUL-terminated.
  CHECK(formatSource(std::string_view()).empty());
  CHECK(formatSourceInOnePass(std::string_view()).empty());
  const std::string text = "int f(){return 1;}int g;";
  CHECK(formatSource(std::string_view(text).substr(0, 18)) == "int f() {\n  return 1;\n}");
}

TEST_CASE("the atoms' route takes plain text only", "[rewriter][format]") {
  CHECK(internal::plainText("void f() {\n  x = (a[1] + b) * c;\n}"));
  CHECK(internal::plainText("void f() {\n  s = \"(\";\n}"));  // brackets in literals do not count
  CHECK_FALSE(internal::plainText("void f() {\n  x = (a[1] + b;\n}"));
  CHECK_FALSE(internal::plainText("void f() {\n  x = (a[1) + b];\n}"));
  CHECK(
      internal::plainText("void f() {\n  for (i = 0; i < n; i++) {\n    x = (a[i] + b);\n  }\n}"));
  CHECK_FALSE(internal::plainText("void f() {\n  x = (a[1] + b; y = c);\n}"));
  CHECK_FALSE(internal::plainText("void f() {\n  for (i = 0; i < n; i++; j++) {\n  }\n}"));
  CHECK_FALSE(internal::plainText("void f() {\n  x = ({ y; });\n}"));
  CHECK_FALSE(internal::plainText("void f() {\n  x = a; // note\n}"));
  CHECK_FALSE(internal::plainText("void f() {\n  x = a; /* note */\n}"));
  CHECK_FALSE(internal::plainText("#define A 1\nvoid f() {\n}"));
  CHECK_FALSE(internal::plainText("void f() {\n  x = a + \\\n b;\n}"));
}

TEST_CASE("atoms are the operands between operators, not casts, calls' heads or members",
          "[rewriter][format]") {
  const std::string statement =
      "  x = (a + b) * c[i + 1] - fma(y, z, w) + (float)q - sizeof(int) + (p).s0 + "
      "(long)(r) + f(\"str\") + (g + h) h2;";
  const std::string wide = inBody(statement);
  const auto atomized = internal::atomizeLongLines(wide, 40);
  REQUIRE(atomized);
  CHECK(atomized->atoms == std::vector<std::string>{"(a + b)", "c[i + 1]", "fma(y, z, w)"});
  CHECK(atomized->text.size() == wide.size());
  CHECK(atomized->text.find("x = " + placeholder(7) + " * " + placeholder(8) + " - " +
                            placeholder(12) + " + (float)q - sizeof(int) + (p).s0") !=
        std::string::npos);

  CHECK_FALSE(internal::atomizeLongLines(wide, 500));  // no line over the limit
  CHECK_FALSE(internal::atomizeLongLines(inBody("  x = 0777777 + (a + b) + (c + d);"), 10));
  CHECK_FALSE(internal::atomizeLongLines(inBody("  return x + y + z + w + v + u + t;"), 10));
}

TEST_CASE("only whole statements of function bodies get atoms", "[rewriter][format]") {
  const std::string sum = "x = (a + b) + (c + d) + (e + f) + (g + h);";
  auto atomsOf = [](const std::string& wide) {
    const auto atomized = internal::atomizeLongLines(wide, 30);
    return atomized ? atomized->atoms.size() : 0;
  };
  CHECK(atomsOf(inBody("  " + sum)) == 4);
  CHECK(atomsOf("void f() {\n  if (c) {\n    " + sum + "\n  }\n}") == 4);  // nested bodies
  CHECK(atomsOf("void f() {\n  {\n    " + sum + "\n  }\n}") == 4);         // a bare block
  CHECK(atomsOf("void f() {\n  if (c) {\n  } else {\n    " + sum + "\n  }\n}") == 4);
  CHECK(atomsOf("void f() {\n  do {\n    " + sum + "\n  } while (c);\n}") == 4);
  // Not: at file scope (a declaration to libFormat), in an initializer or a struct, a brace-less
  // body, a line that does not follow a statement's end, a line with a brace, after a '}' that
  // closed nothing (text libFormat could not split into lines).
  CHECK(atomsOf(sum) == 0);
  CHECK(atomsOf("float t[] = {\n  " + sum + "\n};") == 0);
  CHECK(atomsOf("struct s {\n  " + sum + "\n};") == 0);
  CHECK(atomsOf("void f() {\n  if (c)\n    " + sum + "\n}") == 0);
  CHECK(atomsOf("void f() {\n  y = g(a,\n  " + sum + "\n}") == 0);
  CHECK(atomsOf("void f() {\n  " + sum + " {\n}") == 0);
  CHECK(atomsOf("}\nvoid f() {\n  " + sum + "\n}") == 0);
  CHECK(atomsOf("void f() {\n  y = g[(a);\n  " + sum + "\n}") == 0);   // brackets that do not match
  CHECK(atomsOf("void f() {\n  y = (g + h;\n  " + sum + "\n}") == 0);  // or stay open
  // Nor a line with more than plain C expressions: `[` that is no subscript (`a[:b]` of a mangled
  // kernel, found by the format fuzz target), a ':' without its '?', a C++ word.
  CHECK(atomsOf(inBody("  y = a[:b] + (a + b) + (c + d) + (e + f);")) == 0);
  CHECK(atomsOf(inBody("  y = c : (a + b) + (c + d) + (e + f);")) == 0);
  CHECK(atomsOf(inBody("  y = new + (a + b) + (c + d) + (e + f);")) == 0);
  CHECK(atomsOf(inBody("  y = c ? (a + b) : (c + d) + (e + f);")) == 3);
  // A long line where libFormat read a template bracket keeps its tokens.
  CHECK(atomsOf(inBody("  x = (a + b) + (c + d) + e<f> (g + h);")) == 0);
}

TEST_CASE("atoms go back only where the formatted text still lines up", "[rewriter][format]") {
  const std::string wide = inBody("  x = (a + b) * c[i + 1] - (d + e);");
  const auto atomized = internal::atomizeLongLines(wide, 20);
  REQUIRE(atomized);
  REQUIRE(atomized->atoms.size() == 3);
  const std::string head = "  x = " + placeholder(7) + " * " + placeholder(8) + " -";
  const std::string broken = inBody(head + "\n      " + placeholder(7) + ";");
  CHECK(internal::restoreAtoms(broken, *atomized, wide, 30) ==
        inBody("  x = (a + b) * c[i + 1] -\n      (d + e);"));
  // A placeholder lost, one of another width, spacing changed on a line, a line over the limit.
  CHECK_FALSE(internal::restoreAtoms(inBody(head + "\n      d;"), *atomized, wide, 30));
  CHECK_FALSE(internal::restoreAtoms(inBody(head + "\n      " + placeholder(8) + ";"), *atomized,
                                     wide, 30));
  CHECK_FALSE(internal::restoreAtoms(inBody("  x = " + placeholder(7) + " *" + placeholder(8) +
                                            " -\n      " + placeholder(7) + ";"),
                                     *atomized, wide, 30));
  CHECK_FALSE(internal::restoreAtoms(broken, *atomized, wide, 20));
}
