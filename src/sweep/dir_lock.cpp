#include "sweep/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sweep/error.h"

namespace warpsim::sweep {

DirLock::DirLock(const std::filesystem::path& lockFile) {
  fd_ = ::open(lockFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw Error("sweep: " + lockFile.string() + ": cannot open: " + std::strerror(errno));
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    throw Error("sweep: " + lockFile.parent_path().string() +
                " is in use by another warpsim sweep (it holds " + lockFile.string() + ")");
  }
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace warpsim::sweep
