#include "runtime/resource_usage.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "runtime/process.h"

namespace warpsim::runtime {

const char* sourceName(ResourceUsage::Source s) {
  return s == ResourceUsage::Source::Ptxas ? "ptxas" : "estimate";
}

namespace {

bool isExecutable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

std::optional<std::string> searchPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::string_view rest(path);
  while (!rest.empty()) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      std::filesystem::path candidate = std::filesystem::path(std::string(dir)) / name;
      if (isExecutable(candidate)) return candidate.string();
    }
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return std::nullopt;
}

uint32_t toU32(const std::string& s) { return static_cast<uint32_t>(std::stoul(s)); }

// First line of `text` that looks like an error, for one-line messages.
std::string firstErrorLine(const std::string& text) {
  size_t start = 0;
  std::string fallback;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (line.find("error") != std::string::npos) return line;
    if (fallback.empty() && !line.empty()) fallback = line;
    start = end + 1;
  }
  return fallback.empty() ? "no output" : fallback;
}

}  // namespace

std::optional<std::string> findPtxas() {
  if (const char* env = std::getenv("WARPSIM_PTXAS"); env != nullptr && *env != '\0') {
    std::string value(env);
    if (value == "off" || value == "none" || value == "0") return std::nullopt;
    if (value.find('/') == std::string::npos) return searchPath(value);
    if (isExecutable(value)) return value;
    return std::nullopt;
  }
  if (auto found = searchPath("ptxas")) return found;
  if (isExecutable("/usr/local/cuda/bin/ptxas")) return std::string("/usr/local/cuda/bin/ptxas");
  return std::nullopt;
}

std::vector<std::pair<std::string, ResourceUsage>> parsePtxasReport(std::string_view text) {
  // ptxas -v prints, per function:
  //   ptxas info    : Compiling entry function 'NAME' for 'sm_80'
  //   ptxas info    : Function properties for NAME
  //       392 bytes stack frame, 668 bytes spill stores, 812 bytes spill loads
  //   ptxas info    : Used 24 registers, used 0 barriers, 2048 bytes smem, 372 bytes cmem[0]
  // Non-entry functions get only the "Function properties" block.
  static const std::regex compiling(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex properties(R"(Function properties for (\S+))");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");

  std::vector<std::pair<std::string, ResourceUsage>> result;
  int current = -1;             // index into result of the entry being reported
  bool framesForCurrent = false;// the last "Function properties" block was the current entry's
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    start = end + 1;
    std::smatch m;
    if (std::regex_search(line, m, compiling)) {
      ResourceUsage u;
      u.source = ResourceUsage::Source::Ptxas;
      u.note = m[2].str();
      result.emplace_back(m[1].str(), u);
      current = static_cast<int>(result.size()) - 1;
      framesForCurrent = false;
    } else if (std::regex_search(line, m, properties)) {
      framesForCurrent = current >= 0 && m[1].str() == result[current].first;
    } else if (std::regex_search(line, m, frame)) {
      if (framesForCurrent) {
        ResourceUsage& u = result[current].second;
        u.localBytes = toU32(m[1].str());
        u.spillStoreBytes = toU32(m[2].str());
        u.spillLoadBytes = toU32(m[3].str());
      }
    } else if (std::regex_search(line, m, used) && current >= 0) {
      ResourceUsage& u = result[current].second;
      u.registers = toU32(m[1].str());
      if (std::regex_search(line, m, barriers)) u.barriers = toU32(m[1].str());
      if (std::regex_search(line, m, smem)) u.sharedBytes = toU32(m[1].str());
    }
  }
  return result;
}

PtxasRun runPtxas(const std::string& ptxas, std::string_view ptxText, uint32_t smTarget) {
  PtxasRun run;
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string pattern = (dir / "warpsim-ptxas-XXXXXX.ptx").string();
  int fd = mkstemps(pattern.data(), 4);
  if (fd < 0) {
    run.error = "cannot create a temporary file in " + dir.string();
    return run;
  }
  {
    size_t written = 0;
    while (written < ptxText.size()) {
      ssize_t n = write(fd, ptxText.data() + written, ptxText.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    close(fd);
    if (written != ptxText.size()) {
      std::filesystem::remove(pattern);
      run.error = "cannot write " + pattern;
      return run;
    }
  }
  std::string gpu = "sm_" + std::to_string(smTarget == 0 ? 80 : smTarget);
  ProcessResult p = runProcess({ptxas, "-v", "--gpu-name", gpu, pattern, "-o", "/dev/null"});
  std::filesystem::remove(pattern);
  if (!p.started) {
    run.error = "cannot execute " + ptxas;
    return run;
  }
  if (p.exitCode != 0) {
    run.error = "ptxas failed for " + gpu + ": " + firstErrorLine(p.output);
    return run;
  }
  run.ok = true;
  run.kernels = parsePtxasReport(p.output);
  return run;
}

ResourceUsage estimateResources(const ir::Function& kernel, uint32_t staticSharedBytes,
                                const std::string& why) {
  ResourceUsage u;
  u.source = ResourceUsage::Source::Estimate;
  uint32_t regs = (kernel.maxLiveRegs + 7) / 8 * 8;
  uint32_t cap = kernel.maxnreg != 0 ? kernel.maxnreg : 255;
  u.registers = std::min(std::max(regs, 16u), std::max(cap, 16u));
  u.sharedBytes = staticSharedBytes;
  u.localBytes = kernel.localBytes;
  u.note = why;
  return u;
}

}  // namespace warpsim::runtime
