// Test helper: a fresh directory of TOML files that is removed afterwards.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "config/config.h"

namespace warpsim::config {

class TempConfigDir {
 public:
  TempConfigDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("warpsim-config-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "overlays");
  }
  ~TempConfigDir() { std::filesystem::remove_all(dir_); }

  // Writes `text` to <dir>/<relative> and returns the full path.
  std::string write(const std::string& relative, const std::string& text) const {
    const auto path = dir_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  std::string path() const { return dir_.string(); }

 private:
  std::filesystem::path dir_;
};

// Sets WARPSIM_CONFIG_PATH for the lifetime of the object (restoring the previous value).
class ScopedConfigPath {
 public:
  explicit ScopedConfigPath(const std::string& value) {
    if (const char* old = std::getenv("WARPSIM_CONFIG_PATH")) {
      had_ = true;
      old_ = old;
    }
    ::setenv("WARPSIM_CONFIG_PATH", value.c_str(), 1);
  }
  ~ScopedConfigPath() {
    if (had_) {
      ::setenv("WARPSIM_CONFIG_PATH", old_.c_str(), 1);
    } else {
      ::unsetenv("WARPSIM_CONFIG_PATH");
    }
  }

 private:
  bool had_ = false;
  std::string old_;
};

// Runs `f` and returns the Error message ("" when nothing was thrown).
template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace warpsim::config
