// One `warpsim sweep` at a time per output directory: an exclusive flock on DIR/.lock, held
// while the sweep runs (SLURM array tasks do not take it; they write only their own points).
#pragma once
#include <filesystem>

namespace warpsim::sweep {

class DirLock {
 public:
  // Throws Error "sweep: DIR is in use by another warpsim sweep" when the lock is held.
  explicit DirLock(const std::filesystem::path& lockFile);
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace warpsim::sweep
