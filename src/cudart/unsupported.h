// The stubs of unsupported API calls (unsupported.cpp) report through this, which does not
// need the CUDA headers: prints "warpsim: <name>: not supported by warpsim" (unless
// WARPSIM_QUIET), records cudaErrorNotSupported as the last error and returns it.
#pragma once

namespace warpsim::cudart {
int reportUnsupportedCall(const char* name);
}
