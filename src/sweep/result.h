// How one point's run ended: DIR/points/<id>/result.json (out_dir.h). It is the last file a
// run writes, and a point counts as done exactly when it exists.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::sweep {

enum class Status : uint8_t {
  Pass,          // exit status 0 and a statistics file
  VerifyFailed,  // exit status 3: the results did not match the CPU reference
  Fail,          // anything else: an error (exit status 1), a signal, no statistics
};
const char* statusName(Status status);  // "pass", "verify-failed", "fail"
std::optional<Status> parseStatus(std::string_view name);

struct PointResult {
  std::string id;
  Status status = Status::Fail;
  int exitStatus = 0;  // 128 + N when signal N ended the run (as a shell reports it)
  int signal = 0;      // the signal that ended the run, or 0
  std::string reason;  // "", "verification failed", "exit status 1", "killed by signal 9", ...
  double wallSeconds = 0.0;
  std::string host;
  std::vector<std::string> argv;        // the point's `warpsim run` arguments
  std::vector<std::string> stderrTail;  // the last lines of stderr.log (at most kStderrTail)
};
inline constexpr size_t kStderrTail = 20;

// What a run's wait status (waitpid) and its statistics file say about it.
PointResult classify(const std::string& id, int waitStatus, bool statsWritten);

nlohmann::ordered_json resultJson(const PointResult& r);
// nullopt when the file is missing or is not a result (a half-written file cannot exist, but a
// file from an unrelated tool might).
std::optional<PointResult> readResult(const std::filesystem::path& path);

// The last `count` lines of `text` (a final newline ends the last line, it does not start an
// empty one).
std::vector<std::string> lastLines(std::string_view text, size_t count);

}  // namespace warpsim::sweep
