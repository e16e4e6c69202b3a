#include "runtime/resource_usage.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <cctype>

#include "runtime/process.h"

namespace warpsim::runtime {

const char* sourceName(ResourceUsage::Source s) {
  switch (s) {
    case ResourceUsage::Source::Ptxas: return "ptxas";
    case ResourceUsage::Source::Allocator: return "allocator";
    case ResourceUsage::Source::Estimate: break;
  }
  return "estimate";
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

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The decimal number written just before the first occurrence of `suffix` ("392" in
// "392 bytes stack frame"), or nullopt.
std::optional<uint32_t> numberBefore(std::string_view line, std::string_view suffix) {
  size_t at = line.find(suffix);
  if (at == std::string_view::npos) return std::nullopt;
  size_t begin = at;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1]))) --begin;
  if (begin == at || at - begin > 9) return std::nullopt;
  uint32_t value = 0;
  for (size_t i = begin; i < at; ++i) value = value * 10 + static_cast<uint32_t>(line[i] - '0');
  return value;
}

// The 'single-quoted' words of `line`, in order.
std::vector<std::string_view> quotedWords(std::string_view line) {
  std::vector<std::string_view> words;
  size_t open = line.find('\'');
  while (open != std::string_view::npos) {
    size_t close = line.find('\'', open + 1);
    if (close == std::string_view::npos) break;
    words.push_back(line.substr(open + 1, close - open - 1));
    open = line.find('\'', close + 1);
  }
  return words;
}

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
  std::vector<std::pair<std::string, ResourceUsage>> result;
  int current = -1;              // index into result of the entry being reported
  bool framesForCurrent = false; // the last "Function properties" block was the current entry's
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (size_t at = line.find("Compiling entry function '"); at != std::string_view::npos) {
      std::vector<std::string_view> quoted = quotedWords(line.substr(at));
      if (quoted.empty()) continue;
      ResourceUsage u;
      u.source = ResourceUsage::Source::Ptxas;
      if (quoted.size() > 1) u.note = std::string(quoted[1]);
      result.emplace_back(std::string(quoted[0]), u);
      current = static_cast<int>(result.size()) - 1;
      framesForCurrent = false;
    } else if (size_t at = line.find("Function properties for "); at != std::string_view::npos) {
      std::string_view name = trim(line.substr(at + 24));
      framesForCurrent = current >= 0 && name == result[static_cast<size_t>(current)].first;
    } else if (auto frame = numberBefore(line, " bytes stack frame")) {
      if (framesForCurrent) {
        ResourceUsage& u = result[static_cast<size_t>(current)].second;
        u.localBytes = *frame;
        u.spillStoreBytes = numberBefore(line, " bytes spill stores").value_or(0);
        u.spillLoadBytes = numberBefore(line, " bytes spill loads").value_or(0);
      }
    } else if (auto regs = numberBefore(line, " registers"); regs && current >= 0 &&
                                                               line.find("Used ") != std::string_view::npos) {
      ResourceUsage& u = result[static_cast<size_t>(current)].second;
      u.registers = *regs;
      u.barriers = numberBefore(line, " barriers").value_or(0);
      u.sharedBytes = numberBefore(line, " bytes smem").value_or(0);
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
