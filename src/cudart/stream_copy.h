// Stream-ordered copies and fills (cudaMemcpyAsync, cudaMemsetAsync and their 2D and symbol
// forms): recorded as a memcpy or memset node when the stream captures, run at once otherwise.
#pragma once
#include <cuda_runtime_api.h>

namespace warpsim::cudart {

class Context;

cudaError_t copyOnStream(Context& cx, const char* call, cudaStream_t stream,
                         const cudaMemcpy3DParms& p);
cudaError_t fillOnStream(Context& cx, const char* call, cudaStream_t stream,
                         const cudaMemsetParams& p);

}  // namespace warpsim::cudart
