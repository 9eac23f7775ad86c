// Safe file input and output: bounded reads of regular files only; atomic writes that replace only
// regular files, follow links and stream to devices and FIFOs.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "data/data_error.hpp"
#include "data/file_io.hpp"
#include "tests/scratch_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using deeptune::data::DataError;
using deeptune::data::OutputError;
using deeptune::data::readFileBytes;
using deeptune::data::writeFileAtomically;
using deeptune::test::ScratchDir;

namespace {

std::string slurp(const std::string& path) { return readFileBytes(path, 1 << 20); }

size_t entries(const fs::path& dir) {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++count;
  return count;
}

}  // namespace

TEST_CASE("reads: regular files up to the limit, nothing else", "[file_io]") {
  ScratchDir dir("deeptune-file-io-read");
  const std::string file = dir.file("a.txt", "0123456789");
  CHECK(readFileBytes(file, 10) == "0123456789");
  CHECK_THROWS_WITH(readFileBytes(file, 9), Contains("a.txt:1:1: file too large"));
  CHECK_THROWS_WITH(readFileBytes(dir.path.string(), 100), Contains("is a directory"));
  CHECK_THROWS_WITH(readFileBytes((dir.path / "absent").string(), 100),
                    Contains("absent:1:1: cannot open file"));
  // Devices are refused before any byte is read (/dev/zero would never end).
  CHECK_THROWS_WITH(readFileBytes("/dev/zero", 100), Contains("is a character device"));
  // A FIFO with no writer: refused at once, never waited on.
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(readFileBytes(fifo, 100), Contains("is a FIFO"));
}

TEST_CASE("writes: a new file, a replaced file, no temporary left", "[file_io]") {
  ScratchDir dir("deeptune-file-io-write");
  const std::string file = (dir.path / "out.txt").string();
  writeFileAtomically(file, "first");
  CHECK(slurp(file) == "first");
  REQUIRE(::chmod(file.c_str(), 0640) == 0);
  writeFileAtomically(file, "second");
  CHECK(slurp(file) == "second");
  struct stat info {};
  REQUIRE(::stat(file.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0640);  // a replaced file keeps its permissions
  CHECK(entries(dir.path) == 1);
  CHECK_THROWS_AS(writeFileAtomically((dir.path / "no" / "x").string(), "x"), OutputError);
  CHECK_THROWS_WITH(writeFileAtomically(dir.path.string(), "x"), Contains("is a directory"));
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("writes: a symbolic link is followed, never replaced", "[file_io]") {
  ScratchDir dir("deeptune-file-io-link");
  const std::string target = dir.file("target.txt", "old");
  const std::string link = (dir.path / "link.txt").string();
  fs::create_symlink(target, link);
  writeFileAtomically(link, "new");
  CHECK(fs::is_symlink(link));
  CHECK(slurp(target) == "new");
  const std::string dangling = (dir.path / "dangling").string();
  fs::create_symlink((dir.path / "nowhere" / "x").string(), dangling);
  CHECK_THROWS_WITH(writeFileAtomically(dangling, "x"), Contains("symbolic link"));
  CHECK(fs::is_symlink(dangling));
}

TEST_CASE("writes: devices and FIFOs are streams, never replaced", "[file_io]") {
  writeFileAtomically("/dev/null", "discarded");
  CHECK(fs::is_character_file("/dev/null"));
  CHECK_THROWS_WITH(writeFileAtomically("/dev/full", "x"), Contains("/dev/full: write failed"));
  CHECK(fs::is_character_file("/dev/full"));

  ScratchDir dir("deeptune-file-io-fifo");
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char buffer[64];
    for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) received.append(buffer, got);
    ::close(fd);
  });
  writeFileAtomically(fifo, "through the pipe");
  reader.join();
  CHECK(received == "through the pipe");
  CHECK(fs::is_fifo(fifo));
}

TEST_CASE("output paths are checked before long work", "[file_io]") {
  ScratchDir dir("deeptune-file-io-check");
  deeptune::data::checkOutputPath((dir.path / "new.model").string());
  deeptune::data::checkOutputPath("/dev/null");
  CHECK_THROWS_AS(deeptune::data::checkOutputPath((dir.path / "missing" / "m").string()),
                  DataError);
  CHECK_THROWS_AS(deeptune::data::checkOutputPath(dir.path.string()), DataError);
  const std::string file = dir.file("f", "x");
  CHECK_THROWS_AS(deeptune::data::checkOutputPath(file + "/m"), DataError);
}

TEST_CASE("an output that is one of the inputs is refused; new paths and streams pass",
          "[file_io]") {
  using deeptune::data::checkOutputNotInput;
  using Kind = deeptune::data::OutputKind;
  ScratchDir dir("deeptune-file-io-inputs");
  const std::string data = dir.file("d.csv", "a\n1\n");
  const std::string other = dir.file("other.csv", "b\n");
  const std::string link = (dir.path / "link.csv").string();
  fs::create_symlink(data, link);
  const std::string fresh = (dir.path / "new.csv").string();
  // The same file, by name or through a link, on either side.
  CHECK_THROWS_WITH(checkOutputNotInput(data, {other, data}, Kind::kFile),
                    Contains(data + ":1:1: is the input " + data));
  CHECK_THROWS_WITH(checkOutputNotInput(link, {data}, Kind::kFileOrStdout),
                    Contains("is the input " + data));
  CHECK_THROWS_WITH(checkOutputNotInput(data, {link}, Kind::kFile), Contains("is the input"));
  CHECK_THROWS_WITH(checkOutputNotInput((dir.path / "." / "d.csv").string(), {data}, Kind::kFile),
                    Contains("is the input"));
  // Other files, a name not there yet, standard streams and inputs that are "-" or absent pass.
  CHECK_NOTHROW(checkOutputNotInput(other, {data, "-", "", fresh}, Kind::kFile));
  CHECK_NOTHROW(checkOutputNotInput(fresh, {data, fresh}, Kind::kFile));
  CHECK_NOTHROW(checkOutputNotInput("-", {data}, Kind::kFileOrStdout));
  CHECK_NOTHROW(checkOutputNotInput("/dev/stdout", {"/dev/stdin"}, Kind::kFile));
  // An empty path is an error everywhere; "-" where the command has no standard output.
  CHECK_THROWS_WITH(checkOutputNotInput("", {}, Kind::kFileOrStdout),
                    Contains("empty output path"));
  CHECK_THROWS_WITH(checkOutputNotInput("-", {}, Kind::kFile), Contains("standard output"));
  CHECK_THROWS_WITH(checkOutputNotInput("-", {}, Kind::kFolder), Contains("standard output"));
  // A report folder: refused when it holds an input (a report file could replace it).
  fs::create_directories(dir.path / "report");
  const std::string inside = dir.file("report/predictions.csv", "x\n");
  const std::string report = (dir.path / "report").string();
  CHECK_THROWS_WITH(checkOutputNotInput(report, {data, inside}, Kind::kFolder),
                    Contains(report + ":1:1: holds the input " + inside));
  CHECK_NOTHROW(checkOutputNotInput(report, {data}, Kind::kFolder));
  CHECK_NOTHROW(checkOutputNotInput((dir.path / "new-report").string(), {data}, Kind::kFolder));
  CHECK_THROWS_WITH(checkOutputNotInput(data, {data}, Kind::kFolder), Contains("is the input"));
}
