#include "test_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace warpsim::test {

namespace {

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path freshDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "warpsim-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

}  // namespace

CliResult runCli(const std::vector<std::string>& args) {
  std::filesystem::path dir = freshDir();
  std::string command = shellQuote(WARPSIM_CLI_PATH);
  for (const std::string& a : args) command += " " + shellQuote(a);
  command += " >" + shellQuote((dir / "out").string()) + " 2>" + shellQuote((dir / "err").string()) +
             " </dev/null";
  int status = std::system(command.c_str());
  CliResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(dir / "out");
  r.err = readFile(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

TempFile::TempFile(const std::string& name, const std::string& text) {
  std::filesystem::path dir = freshDir();
  dir_ = dir.string();
  path_ = (dir / name).string();
  std::ofstream(path_, std::ios::binary) << text;
}

TempFile::~TempFile() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

}  // namespace warpsim::test
