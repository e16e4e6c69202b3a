// `warpsim run [options] -- PROGRAM [ARGS...]`: runs an unmodified CUDA program on the simulator.
// The program must load libcudart.so.13 dynamically (nvcc -cudart shared); it is started with
// warpsim's drop-in libcudart.so.13 first on LD_LIBRARY_PATH and the run options in the
// WARPSIM_* environment variables the library reads (src/cudart/options.h).
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "commands/commands.h"
#include "commands/program_imports.h"
#include "runtime/error.h"

extern char** environ;

namespace warpsim::app {

namespace {

namespace fs = std::filesystem;
constexpr const char* kLibrary = "libcudart.so.13";

bool hasLibrary(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::exists(dir / kLibrary, ec);
}

// The directory of the drop-in library: where this build put it, else beside this executable
// (build tree: <build>/apps/warpsim/warpsim and <build>/cudart; installed: bin/ and lib/warpsim).
fs::path findLibraryDir() {
  std::vector<fs::path> tried;
#ifdef WARPSIM_CUDART_BUILD_DIR
  tried.emplace_back(WARPSIM_CUDART_BUILD_DIR);
#endif
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    tried.push_back(dir / "../../cudart");
    tried.push_back(dir / "../lib/warpsim");
    tried.push_back(dir / "cudart");
  }
  std::string list;
  for (const fs::path& d : tried) {
    if (hasLibrary(d)) return fs::weakly_canonical(d, ec);
    list += (list.empty() ? "" : ", ") + d.lexically_normal().string();
  }
  throw runtime::Error(fmt::format(
      "run: warpsim's {} was not found (looked in {}); build it: configure with "
      "-DWARPSIM_CUDART=ON and build the warpsim_cudart target",
      kLibrary, list));
}

// The file `name` names: a path when it contains '/', else the first executable on PATH.
std::string resolveProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0) {
      throw runtime::Error(fmt::format("run: program '{}' not found", name));
    }
    if (!S_ISREG(st.st_mode) || ::access(name.c_str(), X_OK) != 0) {
      throw runtime::Error(fmt::format("run: '{}' is not an executable file", name));
    }
    return name;
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = std::min(dirs.find(':', start), dirs.size());
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  throw runtime::Error(
      fmt::format("run: program '{}' not found (not a path, and not on PATH)", name));
}

// Refuses ELF programs that will not load libcudart.so.13 themselves. Scripts pass (whatever
// they start inherits the environment).
void checkImports(const std::string& shown, const std::string& file) {
  ProgramImports imports = readProgramImports(file);
  if (imports.kind == ProgramImports::Kind::NotElf) return;
  for (const std::string& lib : imports.needed) {
    if (lib == kLibrary) return;
  }
  for (const std::string& lib : imports.needed) {
    if (lib.rfind("libcudart.so.", 0) == 0) {
      throw runtime::Error(fmt::format(
          "run: {} loads {}, not {}: rebuild it with CUDA 13's `nvcc -cudart shared`", shown,
          lib, kLibrary));
    }
  }
  throw runtime::Error(fmt::format(
      "run: {} does not load {}, so the simulator cannot stand in for its CUDA runtime (nvcc "
      "links the runtime statically unless told otherwise); rebuild it with `nvcc -cudart shared`",
      shown, kLibrary));
}

std::string join(const std::vector<std::string>& items, char separator) {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += separator;
    out += s;
  }
  return out;
}

// This process's environment with `overrides` (NAME=value) replacing or adding variables.
std::vector<std::string> childEnvironment(const std::vector<std::string>& overrides) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& o : overrides) replaced = replaced || o.rfind(name + "=", 0) == 0;
    if (!replaced) env.push_back(std::move(entry));
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

std::vector<std::string> runVariables(const RunArgs& args, const fs::path& libraryDir) {
  std::vector<std::string> vars;
  const char* old = std::getenv("LD_LIBRARY_PATH");
  std::string path = libraryDir.string();
  if (old != nullptr && *old != '\0') path += std::string(":") + old;
  vars.push_back("LD_LIBRARY_PATH=" + path);
  vars.push_back("WARPSIM_MODE=" + args.mode);
  if (!args.statsFile.empty()) vars.push_back("WARPSIM_STATS=" + args.statsFile);
  if (args.quiet) vars.push_back("WARPSIM_QUIET=1");
  if (args.sms != 0) vars.push_back(fmt::format("WARPSIM_SMS={}", args.sms));
  if (!args.config.empty()) vars.push_back("WARPSIM_CONFIG=" + args.config);
  if (!args.overlays.empty()) vars.push_back("WARPSIM_OVERLAYS=" + join(args.overlays, ';'));
  if (std::vector<std::string> sets = runSets(args); !sets.empty()) {
    vars.push_back("WARPSIM_SET=" + join(sets, ';'));
  }
  if (!args.estimate) vars.push_back("WARPSIM_RESOURCES=ptxas");
  if (args.memcheck) vars.push_back("WARPSIM_MEMCHECK=1");
  if (args.initcheck) vars.push_back("WARPSIM_INITCHECK=1");
  return vars;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Starts `file` with `argv` and `env`, waits for it and returns its exit status (128 + N when
// signal N ended it). An exec failure is passed back through a close-on-exec pipe.
int spawnAndWait(const std::string& shown, const std::string& file, std::vector<std::string> argv,
                 std::vector<std::string> env) {
  std::vector<char*> argp = pointers(argv), envp = pointers(env);
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) throw runtime::Error("run: cannot create a pipe");
  std::fflush(nullptr);
  // As system() does: the terminal's interrupt goes to the program; warpsim waits for it.
  struct sigaction ignore {}, oldInt {}, oldQuit {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &oldInt);
  ::sigaction(SIGQUIT, &ignore, &oldQuit);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGQUIT, &oldQuit, nullptr);
    ::close(pipefd[0]);
    ::execve(file.c_str(), argp.data(), envp.data());
    int err = errno;
    ssize_t written = ::write(pipefd[1], &err, sizeof err);
    (void)written;
    ::_exit(127);
  }
  ::close(pipefd[1]);
  int execError = 0;
  ssize_t got = pid > 0 ? ::read(pipefd[0], &execError, sizeof execError) : 0;
  ::close(pipefd[0]);
  int status = 0;
  if (pid > 0) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::sigaction(SIGINT, &oldInt, nullptr);
  ::sigaction(SIGQUIT, &oldQuit, nullptr);
  if (pid < 0) throw runtime::Error(fmt::format("run: cannot start {}: fork failed", shown));
  if (got == static_cast<ssize_t>(sizeof execError)) {
    throw runtime::Error(
        fmt::format("run: cannot execute {}: {}", shown, std::strerror(execError)));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::fprintf(stderr, "warpsim: error: run: %s was ended by signal %d (%s)\n", shown.c_str(),
                 sig, strsignal(sig));
    return 128 + sig;
  }
  return 1;
}

}  // namespace

int runProgram(const RunArgs& args) {
  if (args.program.empty()) throw runtime::Error("run: no program after --");
  if (!args.workload.empty()) {
    throw runtime::Error(fmt::format(
        "run: give either a workload ('{}') or a program after --, not both", args.workload));
  }
  if (args.all) throw runtime::Error("run: --all runs the workload suite, not a program");
  if (args.jobs > 1) throw runtime::Error("run: --jobs runs the workloads of --all in parallel, not a program");
  if (args.threadsPerBlock != 0 || args.sharedPerBlock != 0 || args.tileBytes != 0) {
    throw runtime::Error(fmt::format(
        "run: {} applies to the suite's workloads, not a program",
        args.threadsPerBlock != 0 ? "--threads-per-block"
                                  : (args.sharedPerBlock != 0 ? "--shared-per-block" : "--tile-bytes")));
  }
  if (args.mode != "functional" && args.mode != "timing") {
    throw runtime::Error(fmt::format("run: --mode '{}' is unknown (modes: functional, timing)",
                                     args.mode));
  }
  const std::string& shown = args.program.front();
  std::string file = resolveProgram(shown);
  checkImports(shown, file);
  fs::path libraryDir = findLibraryDir();
  return spawnAndWait(shown, file, args.program, childEnvironment(runVariables(args, libraryDir)));
}

}  // namespace warpsim::app
