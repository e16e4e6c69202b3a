// Every other function NVIDIA's libcudart.so.13 exports exists here too, so that programs load
// whatever they import: calling one prints one line naming it (unless WARPSIM_QUIET) and returns
// cudaErrorNotSupported (801), recorded as the last error. The list is generated
// (gen_unsupported.sh). The stubs take no parameters: with the x86-64 C calling convention the
// caller owns its arguments, so a stub may be called with any signature.
#include "cudart/unsupported.h"

#define UNSUPPORTED(name)                                                      \
  extern "C" int name##_warpsim_stub() __asm__(#name);                         \
  extern "C" int name##_warpsim_stub() {                                       \
    return warpsim::cudart::reportUnsupportedCall(#name);                      \
  }
#include "cudart/unsupported_calls.inc"
