#include "sweep/result.h"

#include <fmt/format.h>
#include <sys/wait.h>

#include <fstream>

namespace warpsim::sweep {

const char* statusName(Status status) {
  switch (status) {
    case Status::Pass: return "pass";
    case Status::VerifyFailed: return "verify-failed";
    case Status::Fail: return "fail";
  }
  return "fail";
}

std::optional<Status> parseStatus(std::string_view name) {
  for (Status s : {Status::Pass, Status::VerifyFailed, Status::Fail}) {
    if (name == statusName(s)) return s;
  }
  return std::nullopt;
}

PointResult classify(const std::string& id, int waitStatus, bool statsWritten) {
  PointResult r;
  r.id = id;
  if (WIFSIGNALED(waitStatus)) {
    r.signal = WTERMSIG(waitStatus);
    r.exitStatus = 128 + r.signal;
    r.reason = fmt::format("killed by signal {}", r.signal);
    return r;
  }
  r.exitStatus = WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 1;
  if (r.exitStatus == 0 && statsWritten) {
    r.status = Status::Pass;
  } else if (r.exitStatus == 0) {
    r.reason = "no statistics written";
  } else if (r.exitStatus == 3) {
    r.status = Status::VerifyFailed;
    r.reason = "verification failed";
  } else {
    r.reason = fmt::format("exit status {}", r.exitStatus);
  }
  return r;
}

nlohmann::ordered_json resultJson(const PointResult& r) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["status"] = statusName(r.status);
  j["exit_status"] = r.exitStatus;
  if (r.signal != 0) j["signal"] = r.signal;
  j["reason"] = r.reason;
  j["wall_seconds"] = r.wallSeconds;
  j["host"] = r.host;
  j["argv"] = r.argv;
  j["stderr_tail"] = r.stderrTail;
  return j;
}

std::optional<PointResult> readResult(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    PointResult r;
    r.id = j.at("id").get<std::string>();
    const std::optional<Status> status = parseStatus(j.at("status").get<std::string>());
    if (!status) return std::nullopt;
    r.status = *status;
    r.exitStatus = j.at("exit_status").get<int>();
    r.signal = j.value("signal", 0);
    r.reason = j.value("reason", "");
    r.wallSeconds = j.value("wall_seconds", 0.0);
    r.host = j.value("host", "");
    r.argv = j.value("argv", std::vector<std::string>{});
    r.stderrTail = j.value("stderr_tail", std::vector<std::string>{});
    return r;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::vector<std::string> lastLines(std::string_view text, size_t count) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  std::vector<std::string> lines;
  bool more = !text.empty();
  while (more && lines.size() < count) {
    const size_t nl = text.rfind('\n');
    more = nl != std::string_view::npos;
    lines.emplace_back(more ? text.substr(nl + 1) : text);
    if (more) text = text.substr(0, nl);
  }
  return {lines.rbegin(), lines.rend()};
}

}  // namespace warpsim::sweep
