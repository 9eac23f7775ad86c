// Normalizer behaviour, one case per rule of SPEC.md §1: renaming, builtins, stripping, extraction.
#include <catch2/catch.hpp>

#include "rewriter/normalizer.hpp"
#include "rewriter/rewrite_error.hpp"
#include "tests/cli_runner.hpp"
#include "tests/scratch_dir.hpp"

namespace {

using deeptune::rewriter::Normalizer;
using deeptune::rewriter::RewriteError;

struct Case {
  const char* what;
  const char* before;
  const char* after;
};

}  // namespace

TEST_CASE("full normalization, table of {before, after}", "[rewriter]") {
  const Case cases[] = {
      {"functions in order of first declaration, prototypes included",
       "void helper(int x);\n__kernel void k(__global int* out) {\n  out[0] = helper(1);\n}\n"
       "void helper(int x) {\n  return;\n}\n",
       // Stage 7 joins the prototype that owns the first '{' only: the declaration before it keeps
       // its own line (issue 10; it used to be joined onto the kernel's line).
       "void A(int a);\n__kernel void B(__global int* b) {\n  b[0] = A(1);\n}\nvoid A(int a) {\n"
       "  return;\n}"},
      {"same spelling gets the same name in every function",
       "void f(int n) {\n  n++;\n}\n__kernel void g(__global int* p, int n) {\n  p[n] = 0;\n}\n",
       "void A(int a) {\n  a++;\n}\n__kernel void B(__global int* b, int a) {\n  b[a] = 0;\n}"},
      {"reserved spellings do/if are skipped after z",
       "__kernel void k(int v0, int v1, int v2, int v3, int v4, int v5, int v6, int v7, int v8,"
       " int v9, int v10, int v11, int v12, int v13, int v14, int v15, int v16, int v17,"
       " int v18, int v19, int v20, int v21, int v22, int v23, int v24, int v25, int v26,"
       " int v27, int v28, int v29, int v30, int v31, int v32, int v33, int v34, int v35,"
       " int v36, int v37, int v38, int v39, int v40, int v41) {\n  v41 = 0;\n}\n",
       "__kernel void A(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j,"
       " int k, int l, int m, int n, int o, int p, int q, int r, int s, int t, int u, int v,"
       " int w, int x, int y, int z, int aa, int ab, int ac, int ad, int ae, int af, int ag,"
       " int ah, int ai, int aj, int ak, int al, int am, int an, int ao, int ap) {\n  ap = 0;\n}"},
      {"struct tags, fields, typedef names and undeclared names are kept",
       "typedef struct Point { float px; } Point;\n__kernel void k(__global Point* pts) {\n"
       "  pts[0].px = UNDECLARED;\n}\n",
       "typedef struct Point {\n  float px;\n} Point;\n__kernel void A(__global Point* a) {\n"
       "  a[0].px = UNDECLARED;\n}"},
      {"calls to undeclared functions keep their spelling",
       "__kernel void k(__global float* out) {\n  out[0] = missing_helper(out[1]);\n}\n",
       "__kernel void A(__global float* a) {\n  a[0] = missing_helper(a[1]);\n}"},
      {"builtins spelled as the 2016 libclc did, fences as numbers",
       "__kernel void k(__global float* x) {\n  x[0] = fabs(x[1]) + native_sqrt(x[2]) +"
       " as_float(1u) + pow(x[3], 2.0f);\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
       "  barrier(CLK_GLOBAL_MEM_FENCE);\n}\n",
       "__kernel void A(__global float* a) {\n  a[0] = __clc_fabs(a[1]) + sqrt(a[2]) +"
       " __builtin_astype(1u, float) + __clc_pow(a[3], 2.0f);\n  barrier(1);\n  barrier(2);\n}"},
      {"attributes stripped, comments and macros gone, layout reformatted",
       "#define SCALE_BY(v) ((v) * 2)\n/* doc */ __kernel __attribute__((reqd_work_group_size(64, "
       "1, 1)))"
       " void k(__global int* a)\n{ // body\n    a[get_global_id(0)] = SCALE_BY(a[0]);\n}\n",
       "__kernel void A(__global int* a) {\n  a[get_global_id(0)] = ((a[0]) * 2);\n}"},
      {"shim type names and constants are defined",
       "__kernel void k(__global DATA_TYPE* a) {\n  a[0] = BLOCK_SIZE;\n}\n",
       "__kernel void A(__global float* a) {\n  a[0] = 64;\n}"},
  };
  const Normalizer normalizer;
  for (const Case& c : cases) {
    SECTION(c.what) { CHECK(normalizer.normalize(c.before, "case.cl") == c.after); }
  }
}

TEST_CASE("normalization is idempotent and ignores names, comments and layout", "[rewriter]") {
  const Normalizer normalizer;
  const std::string first =
      "// sum\n__kernel void add(__global const float* x, __global float* y) {\n"
      "  int i = get_global_id(0);\n  y[i] += x[i];\n}\n";
  const std::string second =
      "__kernel   void plus( __global const float *in,__global float *out ){ int gid ="
      " get_global_id(0); /* c */\n out[gid] += in[gid]; }";
  const std::string normalized = normalizer.normalize(first, "first.cl");
  CHECK(normalizer.normalize(second, "second.cl") == normalized);
  CHECK(normalizer.normalize(normalized, "again.cl") == normalized);
}

TEST_CASE("kernel extraction reproduces the paper's single-kernel extracts", "[rewriter]") {
  const Normalizer normalizer;
  const std::string file =
      "float square(float v) {\n  return v * v;\n}\n"
      "__kernel void first(__global float* data) {\n  data[0] = square(data[0]);\n}\n"
      "__kernel void second(__global float* in, __global float* out) {\n"
      "  int id = get_global_id(0);\n  out[id] = square(in[id]) + 1.0f;\n}\n";
  const auto kernels = normalizer.kernels(file, "two.cl");
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].original == "first");
  CHECK(kernels[0].normalized == "B");
  CHECK(kernels[1].original == "second");
  CHECK(kernels[1].normalized == "C");

  // The kernel alone, renamed A, parameters from a, the helper's call kept as the whole-file
  // pass spelled it (A).
  CHECK(normalizer.extractKernel(file, "two.cl", "second") ==
        "__kernel void A(__global float* a, __global float* b) {\n  int c = get_global_id(0);\n"
        "  b[c] = A(a[c]) + 1.0f;\n}");
  CHECK_THROWS_WITH(normalizer.extractKernel(file, "two.cl", ""),
                    Catch::Contains("2 kernels") && Catch::Contains("first, second"));
  CHECK_THROWS_WITH(normalizer.extractKernel(file, "two.cl", "third"),
                    Catch::Contains("no kernel named 'third'") && Catch::Contains("first, second"));
  const std::string single = "__kernel void only(__global int* a) {\n  a[0] = 1;\n}\n";
  CHECK(normalizer.extractKernel(single, "one.cl", "") ==
        "__kernel void A(__global int* a) {\n  a[0] = 1;\n}");
}

TEST_CASE("every kernel of a file is extracted from one normalization", "[rewriter]") {
  const Normalizer normalizer;
  // A conditional attribute between __kernel and the name (MNN's conv_2d.cl does this) leaves the
  // whole file's declaration on several lines; the extract must still be found and joined.
  const std::string file =
      "__kernel void first(__global float* data) {\n  data[0] = 2.0f;\n}\n"
      "__kernel\n#ifdef HINT\n__attribute__((work_group_size_hint(16, 1, 1)))\n#endif\n"
      "void second(__global float* in, __global float* out) {\n"
      "  int id = get_global_id(0);\n  out[id] = in[id] + 1.0f;\n}\n";
  const auto kernels = normalizer.extractKernels(file, "two.cl");
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].name.original == "first");
  CHECK(kernels[1].name.original == "second");
  CHECK(kernels[0].text == normalizer.extractKernel(file, "two.cl", "first"));
  CHECK(kernels[1].text ==
        "__kernel void A(__global float* a, __global float* b) {\n  int c = get_global_id(0);\n"
        "  b[c] = a[c] + 1.0f;\n}");
  CHECK(normalizer.extractKernels("float f(float v) {\n  return v;\n}\n", "none.cl").empty());
}

TEST_CASE("typedefs and the declarations an extract needs give valid OpenCL", "[rewriter]") {
  // Issue 10: `typedef float DATA_TYPE;` came out as `typedef float float;` (the shim defines
  // DATA_TYPE), joined onto the kernel's line; an extract lost the typedefs, structs and constant
  // tables it uses.
  const Normalizer normalizer;
  const std::string file =
      "typedef double DATA_TYPE;\ntypedef float mytype;\nstruct P { float x; };\n"
      "typedef struct P PT;\n__constant float table[2] = {1.0f, 2.0f};\n"
      "__constant float unused[2] = {3.0f, 4.0f};\nenum Mode { FAST, SLOW };\n"
      "__kernel void k(__global mytype* a, __global DATA_TYPE* b, __global PT* p) {\n"
      "  a[0] = b[0] + p[0].x + table[1] + FAST;\n}\n"
      "__kernel void j(__global DATA_TYPE* a) { a[0] = 1; }\n";
  const std::string whole = normalizer.normalize(file, "types.cl");
  CHECK_THAT(whole, !Catch::Contains("typedef double double") &&
                        !Catch::Contains("typedef float float") &&
                        Catch::StartsWith("typedef float mytype;\nstruct P {\n"));
  CHECK_THAT(whole, Catch::Contains("__kernel void B(__global double* c) {"));  // the file's type
  CHECK(normalizer.extractKernel(file, "types.cl", "k") ==
        "typedef float mytype;\nstruct P {\n  float x;\n};\ntypedef struct P PT;\n"
        "__constant float a[2] = {1.0f, 2.0f};\nenum Mode { FAST, SLOW };\n"
        "__kernel void A(__global mytype* b, __global double* c, __global PT* d) {\n"
        "  b[0] = c[0] + d[0].x + a[1] + FAST;\n}");
  // A kernel that needs none of them is extracted alone, as the paper's extracts are.
  CHECK(normalizer.extractKernel(file, "types.cl", "j") ==
        "__kernel void A(__global double* a) {\n  a[0] = 1;\n}");
  // A shim type name the file does not define still reads the shim's type.
  CHECK(normalizer.normalize("__kernel void k(__global DATA_TYPE* a) { a[0] = 1; }\n", "s.cl") ==
        "__kernel void A(__global float* a) {\n  a[0] = 1;\n}");
}

TEST_CASE("names declared in the file are renamed even in statements Clang drops", "[rewriter]") {
  // Issue 10: with a host-defined N_GP and FLOAT3 missing, Clang dropped the statement and its
  // parameters kept their names (`RF`, `C`) while the prototype was renamed.
  const Normalizer normalizer;
  const std::string source =
      "__kernel void ratx(__global const float* C, __global float* RF) {\n"
      "  int i = get_global_id(0);\n  RF[i] = C[i] * N_GP + FLOAT3(i);\n"
      "  float t = C[i];\n  RF[i] += t;\n}\n";
  deeptune::rewriter::RewriteNotes notes;
  CHECK(normalizer.normalize(source, "ratx.cl", {}, &notes) ==
        "__kernel void A(__global const float* a, __global float* b) {\n"
        "  int c = get_global_id(0);\n  b[c] = a[c] * N_GP + FLOAT3(c);\n  float d = a[c];\n"
        "  b[c] += d;\n}");
  CHECK(notes.undeclared == std::vector<std::string>{"FLOAT3", "N_GP"});
  // With the host's definitions nothing is undeclared and the same names come out.
  deeptune::rewriter::RewriteNotes defined;
  const std::string withHost = normalizer.normalize("#define FLOAT3(x) ((float)(x))\n" + source,
                                                    "ratx.cl", {{"N_GP=8"}, {}}, &defined);
  CHECK(withHost.find("b[c] = a[c] * 8 + ((float)(c));") != std::string::npos);
  CHECK(defined.undeclared.empty());
  // Members, struct tags and fields spelled like a variable keep their spelling.
  const std::string members =
      "struct S { float x; };\n__kernel void k(__global struct S* s, float x) {\n"
      "  s[0].x = x + UNKNOWN;\n  s->x = x;\n}\n";
  CHECK(normalizer.normalize(members, "m.cl") ==
        "struct S {\n  float x;\n};\n__kernel void A(__global struct S* a, float b) {\n"
        "  a[0].x = b + UNKNOWN;\n  a->x = b;\n}");
}

TEST_CASE("text stages on their own", "[rewriter]") {
  using deeptune::rewriter::formatSource;
  using deeptune::rewriter::prototypeOnOneLine;
  using deeptune::rewriter::stripAttributes;
  CHECK(stripAttributes("int __attribute__((aligned(16))) a;") == "int  a;");
  CHECK(stripAttributes("__attribute__ ((a((b)))) x") == " x");
  CHECK(stripAttributes("const char* s = \"__attribute__((x))\";") ==
        "const char* s = \"__attribute__((x))\";");
  CHECK(stripAttributes("my__attribute__((x))") == "my__attribute__((x))");
  CHECK(formatSource("void f(){if(x)y();}") == "void f() {\n  if (x)\n    y();\n}");
  CHECK(formatSource("  int  *  p ;\n\n\n") == "int* p;");
  CHECK(prototypeOnOneLine("\n  __kernel\nvoid  A(int a,\n   int b)\n{\n  x;\n}") ==
        "__kernel void A(int a, int b) {\n  x;\n}");
}

TEST_CASE("one normalizer handles many sources under the same name", "[rewriter]") {
  // The normalizer caches file lookups between parses; the main file's content must never be
  // taken from an earlier call.
  const Normalizer normalizer;
  const std::string longer =
      "__kernel void k(__global int* a, int n) {\n  for (int i = 0; i < n; i++)\n"
      "    a[i] = i * 2;\n}\n";
  const std::string shorter = "__kernel void k(__global int* a) {\n  a[0] = 7;\n}\n";
  for (int round = 0; round < 2; ++round) {
    CHECK(normalizer.normalize(longer, "same.cl") ==
          "__kernel void A(__global int* a, int b) {\n  for (int c = 0; c < b; c++)\n"
          "    a[c] = c * 2;\n}");
    CHECK(normalizer.normalize(shorter, "same.cl") ==
          "__kernel void A(__global int* a) {\n  a[0] = 7;\n}");
  }
}

TEST_CASE("relative includes are found beside the named file", "[rewriter]") {
  deeptune::test::ScratchDir dir("deeptune-rewriter-include");
  dir.file("scale.h", "#define SCALE 3\nfloat scaled(float v) { return SCALE * v; }\n");
  const std::string path = dir.file("main.cl",
                                    "#include \"scale.h\"\n__kernel void k(__global float* x) {\n"
                                    "  x[0] = scaled(x[0]);\n}\n");
  const Normalizer normalizer;
  CHECK(normalizer.normalize(deeptune::test::readWholeFile(path), path) ==
        "float A(float a) {\n  return 3 * a;\n}\n__kernel void B(__global float* b) {\n"
        "  b[0] = A(b[0]);\n}");
}
