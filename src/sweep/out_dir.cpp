#include "sweep/out_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sweep/error.h"

namespace warpsim::sweep {

namespace fs = std::filesystem;

fs::path temporaryName(const fs::path& path) {
  fs::path tmp = path;
  tmp += ".tmp";
  return tmp;
}

void writeFileAtomically(const fs::path& path, std::string_view content) {
  const fs::path tmp = temporaryName(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw Error("sweep: " + tmp.string() + ": cannot create: " + std::strerror(errno));
  }
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw Error("sweep: " + tmp.string() + ": write failed: " + std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    throw Error("sweep: " + path.string() + ": cannot rename into place: " + std::strerror(errno));
  }
}

void moveIntoPlace(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0 && errno != ENOENT) {
    throw Error("sweep: " + to.string() + ": cannot rename into place: " + std::strerror(errno));
  }
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("sweep: " + path.string() + ": cannot read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string readFileTail(const fs::path& path, size_t maxBytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > static_cast<std::streamoff>(maxBytes)
                                   ? size - static_cast<std::streamoff>(maxBytes) : 0;
  in.seekg(start);
  std::string text(static_cast<size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

}  // namespace warpsim::sweep
