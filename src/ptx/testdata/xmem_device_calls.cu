// XMem atom operations from device code (include/warpsim/xmem.h): every call passes the same
// constants at every site, which nvcc would otherwise propagate into the callees and drop from
// their signatures; each call must keep all its arguments and stay a call.
#include "../../../include/warpsim/xmem.h"

__global__ void tiles(float* a, int n) {
  for (int t = 0; t < 2; ++t) {
    if (threadIdx.x == 0) {
      warpsimAtomMapDevice(0, a + t * 256, 1024, 1);
      warpsimAtom2DMapDevice(1, a, 4096, 64, 8, 0);
      warpsimAtom3DMapDevice(1, a, 1024, 8, 64, 4, 2, 1);
      warpsimAtomActivateDevice(0);
      warpsimAtomDeactivateDevice(1);
    }
    __syncthreads();
    a[threadIdx.x + t * 256] += 1.0f;
  }
}
