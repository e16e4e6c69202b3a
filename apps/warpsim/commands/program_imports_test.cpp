#include "commands/program_imports.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "runtime/error.h"

namespace warpsim::app {
namespace {

// A minimal 64-bit ELF file: header, two program headers (PT_LOAD covering the whole file at
// virtual address 0x400000, PT_DYNAMIC), a dynamic section and its string table.
std::string tinyElf(const std::vector<std::string>& needed, bool withDynamic = true) {
  std::string strtab(1, '\0');
  std::vector<uint64_t> offsets;
  for (const std::string& n : needed) {
    offsets.push_back(strtab.size());
    strtab += n + '\0';
  }
  const uint64_t vbase = 0x400000;
  const uint64_t phoff = sizeof(Elf64_Ehdr);
  const uint64_t dynoff = phoff + 2 * sizeof(Elf64_Phdr);
  const uint64_t dynCount = offsets.size() + 2;  // DT_NEEDED..., DT_STRTAB, DT_NULL
  const uint64_t stroff = dynoff + dynCount * sizeof(Elf64_Dyn);
  std::string file(stroff + strtab.size(), '\0');

  Elf64_Ehdr h{};
  std::memcpy(h.e_ident, ELFMAG, SELFMAG);
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_ident[EI_DATA] = ELFDATA2LSB;
  h.e_ident[EI_VERSION] = EV_CURRENT;
  h.e_type = ET_EXEC;
  h.e_machine = EM_X86_64;
  h.e_phoff = phoff;
  h.e_phentsize = sizeof(Elf64_Phdr);
  h.e_phnum = withDynamic ? 2 : 1;
  std::memcpy(file.data(), &h, sizeof h);

  Elf64_Phdr load{};
  load.p_type = PT_LOAD;
  load.p_vaddr = vbase;
  load.p_filesz = file.size();
  Elf64_Phdr dyn{};
  dyn.p_type = PT_DYNAMIC;
  dyn.p_offset = dynoff;
  dyn.p_vaddr = vbase + dynoff;
  dyn.p_filesz = dynCount * sizeof(Elf64_Dyn);
  std::memcpy(file.data() + phoff, &load, sizeof load);
  std::memcpy(file.data() + phoff + sizeof load, &dyn, sizeof dyn);

  uint64_t at = dynoff;
  auto put = [&](int64_t tag, uint64_t value) {
    Elf64_Dyn d{};
    d.d_tag = tag;
    d.d_un.d_val = value;
    std::memcpy(file.data() + at, &d, sizeof d);
    at += sizeof d;
  };
  for (uint64_t o : offsets) put(DT_NEEDED, o);
  put(DT_STRTAB, vbase + stroff);
  put(DT_NULL, 0);
  std::memcpy(file.data() + stroff, strtab.data(), strtab.size());
  return file;
}

TEST(ProgramImports, ListsNeededLibrariesInOrder) {
  ProgramImports p = parseProgramImports(tinyElf({"libcudart.so.13", "libc.so.6"}), "app");
  EXPECT_EQ(p.kind, ProgramImports::Kind::Dynamic);
  EXPECT_EQ(p.needed, (std::vector<std::string>{"libcudart.so.13", "libc.so.6"}));
}

TEST(ProgramImports, DynamicWithoutNeeded) {
  ProgramImports p = parseProgramImports(tinyElf({}), "app");
  EXPECT_EQ(p.kind, ProgramImports::Kind::Dynamic);
  EXPECT_TRUE(p.needed.empty());
}

TEST(ProgramImports, StaticProgram) {
  ProgramImports p = parseProgramImports(tinyElf({"libc.so.6"}, false), "app");
  EXPECT_EQ(p.kind, ProgramImports::Kind::Static);
  EXPECT_TRUE(p.needed.empty());
}

TEST(ProgramImports, ScriptIsNotElf) {
  EXPECT_EQ(parseProgramImports("#!/bin/sh\necho hi\n", "run.sh").kind,
            ProgramImports::Kind::NotElf);
  EXPECT_EQ(parseProgramImports("", "empty").kind, ProgramImports::Kind::NotElf);
}

TEST(ProgramImports, TruncatedFileIsAnErrorNamingIt) {
  std::string elf = tinyElf({"libcudart.so.13"});
  try {
    parseProgramImports(elf.substr(0, elf.size() - 20), "./cut");
    FAIL() << "expected an error";
  } catch (const runtime::Error& e) {
    EXPECT_EQ(std::string(e.what()), "./cut: malformed ELF file (a header points past its end)");
  }
  EXPECT_THROW(parseProgramImports(elf.substr(0, 30), "./cut"), runtime::Error);
}

TEST(ProgramImports, ThirtyTwoBitElfIsRefused) {
  std::string elf = tinyElf({});
  elf[EI_CLASS] = ELFCLASS32;
  EXPECT_THROW(parseProgramImports(elf, "app32"), runtime::Error);
}

TEST(ProgramImports, ReadsThisTestProgram) {
  ProgramImports p = readProgramImports("/proc/self/exe");
  EXPECT_EQ(p.kind, ProgramImports::Kind::Dynamic);
  bool libc = false;
  for (const std::string& n : p.needed) libc = libc || n.rfind("libc.so", 0) == 0;
  EXPECT_TRUE(libc);
  EXPECT_THROW(readProgramImports("/nonexistent/program"), runtime::Error);
}

}  // namespace
}  // namespace warpsim::app
