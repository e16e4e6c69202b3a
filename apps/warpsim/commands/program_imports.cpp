#include "commands/program_imports.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "runtime/error.h"

namespace warpsim::app {

namespace {

class ElfReader {
 public:
  ElfReader(std::string_view bytes, const std::string& what) : bytes_(bytes), what_(what) {}

  template <class T>
  T at(uint64_t offset) const {
    if (offset > bytes_.size() || sizeof(T) > bytes_.size() - offset) {
      throw runtime::Error(fmt::format("{}: malformed ELF file (a header points past its end)",
                                       what_));
    }
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }

  // The NUL-terminated string at `offset`.
  std::string string(uint64_t offset) const {
    if (offset >= bytes_.size()) at<char>(offset);  // throws
    size_t end = bytes_.find('\0', offset);
    if (end == std::string_view::npos) at<char>(bytes_.size());  // throws
    return std::string(bytes_.substr(offset, end - offset));
  }

 private:
  std::string_view bytes_;
  const std::string& what_;
};

// The file offset of virtual address `vaddr`, through the PT_LOAD segment that maps it.
uint64_t fileOffset(const std::vector<Elf64_Phdr>& segments, uint64_t vaddr,
                    const std::string& what) {
  for (const Elf64_Phdr& p : segments) {
    if (p.p_type == PT_LOAD && vaddr >= p.p_vaddr && vaddr - p.p_vaddr < p.p_filesz) {
      return p.p_offset + (vaddr - p.p_vaddr);
    }
  }
  throw runtime::Error(
      fmt::format("{}: malformed ELF file (its string table is not loaded)", what));
}

}  // namespace

ProgramImports parseProgramImports(std::string_view bytes, const std::string& what) {
  ProgramImports result;
  if (bytes.size() < SELFMAG || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) return result;
  if (bytes.size() < EI_NIDENT || bytes[EI_CLASS] != ELFCLASS64 || bytes[EI_DATA] != ELFDATA2LSB) {
    throw runtime::Error(fmt::format(
        "{}: not a 64-bit little-endian ELF program (CUDA programs for x86-64 are)", what));
  }
  ElfReader elf(bytes, what);
  const auto header = elf.at<Elf64_Ehdr>(0);
  std::vector<Elf64_Phdr> segments;
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    segments.push_back(elf.at<Elf64_Phdr>(header.e_phoff + uint64_t{i} * sizeof(Elf64_Phdr)));
  }
  const Elf64_Phdr* dynamic = nullptr;
  for (const Elf64_Phdr& p : segments) {
    if (p.p_type == PT_DYNAMIC) dynamic = &p;
  }
  result.kind = dynamic != nullptr ? ProgramImports::Kind::Dynamic : ProgramImports::Kind::Static;
  if (dynamic == nullptr) return result;

  std::vector<uint64_t> neededOffsets;
  uint64_t strtab = 0;
  bool haveStrtab = false;
  const uint64_t dynamicEnd = dynamic->p_offset + dynamic->p_filesz;
  for (uint64_t off = dynamic->p_offset; off + sizeof(Elf64_Dyn) <= dynamicEnd;
       off += sizeof(Elf64_Dyn)) {
    const auto d = elf.at<Elf64_Dyn>(off);
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) neededOffsets.push_back(d.d_un.d_val);
    if (d.d_tag == DT_STRTAB) {
      strtab = d.d_un.d_ptr;
      haveStrtab = true;
    }
  }
  if (neededOffsets.empty()) return result;
  if (!haveStrtab) {
    throw runtime::Error(fmt::format("{}: malformed ELF file (DT_NEEDED without DT_STRTAB)", what));
  }
  const uint64_t base = fileOffset(segments, strtab, what);
  for (uint64_t n : neededOffsets) result.needed.push_back(elf.string(base + n));
  return result;
}

ProgramImports readProgramImports(const std::string& path) {
  // Mapped rather than read: CUDA programs with large fat binaries can be hundreds of MB, of
  // which only the headers are looked at.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    throw runtime::Error(fmt::format("{}: cannot read the file: {}", path, std::strerror(err)));
  }
  if (st.st_size == 0) {
    ::close(fd);
    return {};
  }
  void* map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) {
    throw runtime::Error(fmt::format("{}: cannot read the file: {}", path, std::strerror(errno)));
  }
  struct Unmap {
    void* p;
    size_t n;
    ~Unmap() { ::munmap(p, n); }
  } unmap{map, static_cast<size_t>(st.st_size)};
  return parseProgramImports(std::string_view(static_cast<const char*>(map), unmap.n), path);
}

}  // namespace warpsim::app
