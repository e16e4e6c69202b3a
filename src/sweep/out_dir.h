// The output directory of a sweep (docs/experiments.md, "The output directory"):
//
//   DIR/spec.toml                 the spec the last `warpsim sweep` ran (a copy)
//   DIR/points.jsonl              one line per point in grid order: id, axes, argv
//   DIR/points/<id>/result.json   how the run ended (result.h); written last, so a point is done
//                                 exactly when this file exists
//   DIR/points/<id>/stats.json    the run's --stats file (pass and verify-failed)
//   DIR/points/<id>/stderr.log    what the run wrote on stderr (stdout.log: stdout, if any)
//   DIR/table.csv, table.jsonl    one row per point (table.h)
//   DIR/slurm/                    the SLURM executor's job script, task lists and task output
//
// Every file is written under a temporary name in the same directory and renamed into place,
// so a reader never sees half a file and a killed sweep leaves only whole ones.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace warpsim::sweep {

class OutDir {
 public:
  explicit OutDir(std::filesystem::path root) : root_(std::move(root)) {}
  const std::filesystem::path& root() const { return root_; }

  std::filesystem::path spec() const { return root_ / "spec.toml"; }
  std::filesystem::path pointsList() const { return root_ / "points.jsonl"; }
  std::filesystem::path pointDir(const std::string& id) const { return root_ / "points" / id; }
  std::filesystem::path result(const std::string& id) const { return pointDir(id) / "result.json"; }
  std::filesystem::path stats(const std::string& id) const { return pointDir(id) / "stats.json"; }
  std::filesystem::path stderrLog(const std::string& id) const { return pointDir(id) / "stderr.log"; }
  std::filesystem::path stdoutLog(const std::string& id) const { return pointDir(id) / "stdout.log"; }
  std::filesystem::path tableCsv() const { return root_ / "table.csv"; }
  std::filesystem::path tableJsonl() const { return root_ / "table.jsonl"; }
  std::filesystem::path slurmDir() const { return root_ / "slurm"; }
  std::filesystem::path jobScript() const { return slurmDir() / "job.sh"; }
  std::filesystem::path jobId() const { return slurmDir() / "job-id"; }
  std::filesystem::path tasks() const { return slurmDir() / "tasks.txt"; }
  std::filesystem::path lock() const { return root_ / ".lock"; }

 private:
  std::filesystem::path root_;
};

// The name a file is written under before it is renamed to `path` ("<path>.tmp").
std::filesystem::path temporaryName(const std::filesystem::path& path);

// Writes `content` to a temporary file beside `path` and renames it over `path`. Throws Error
// "sweep: PATH: ..." when that fails.
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);
// Renames a finished temporary file into place (no-op when `from` does not exist).
void moveIntoPlace(const std::filesystem::path& from, const std::filesystem::path& to);

// The whole file; Error "sweep: PATH: cannot read" when it cannot be read.
std::string readFile(const std::filesystem::path& path);
// At most the last `maxBytes` of the file; "" when it cannot be read.
std::string readFileTail(const std::filesystem::path& path, size_t maxBytes);

}  // namespace warpsim::sweep
