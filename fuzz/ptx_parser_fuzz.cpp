// libFuzzer target: the PTX front end must turn any input into a module or a ParseError.
// Any other exception, a crash, a sanitizer report, a hang or a multi-line message is a bug.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    warpsim::ir::Module m = warpsim::ptx::parseModule(text, "fuzz.ptx");
    (void)m;
  } catch (const warpsim::ptx::ParseError& e) {
    std::string_view msg = e.what();
    if (msg.find('\n') != std::string_view::npos || !msg.starts_with("fuzz.ptx:")) std::abort();
  }
  return 0;
}
