// XMem atoms (include/warpsim/xmem.h) through libwarpsim_xmem, which forwards to the drop-in
// runtime: one CreateAtom site gives one id however often it runs, maps (1-D and 2-D),
// activations and unmaps go with the next launch, a bad call is refused with one line, and none
// changes what the kernel computes. A third kernel maps, activates, unmaps and deactivates atoms
// itself at its tile boundaries (the device calls: 12 operations per CTA). run_case.sh checks the
// launches' atom counts in the statistics.
#include <cstdio>
#include <vector>

#include "check.h"
#include "warpsim/xmem.h"

__global__ void scale(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i] + 1.0f;
}

// Each CTA scales its chunk of kTiles tiles of blockDim.x floats, one tile at a time: thread 0
// maps the tile it is about to read to atom `tile` (activating the atom at the first tile) and
// unmaps it once the CTA is done with it; the chunk's output is described as a 2-D block of
// atom `output` at the start (the first half of each 1 KB row) and unmapped as a 3-D block at the
// end. 1 + 4 + 1 + 4 + 1 + 1 = 12 operations per CTA.
constexpr int kTiles = 4;
__global__ void scale_tiled(float* out, const float* in, warpsimAtomId tile, warpsimAtomId output) {
  const size_t tileBytes = blockDim.x * sizeof(float);
  const int chunk = blockIdx.x * kTiles * blockDim.x;
  if (threadIdx.x == 0) warpsimAtom2DMapDevice(output, out + chunk, 1024, 512, kTiles * tileBytes / 1024, 1);
  for (int t = 0; t < kTiles; ++t) {
    const float* part = in + chunk + t * blockDim.x;
    if (threadIdx.x == 0) {
      warpsimAtomMapDevice(tile, part, tileBytes, 1);
      if (t == 0) warpsimAtomActivateDevice(tile);
    }
    __syncthreads();
    out[chunk + t * blockDim.x + threadIdx.x] = 2.0f * part[threadIdx.x] + 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) warpsimAtomMapDevice(tile, part, tileBytes, 0);
  }
  if (threadIdx.x == 0) {
    warpsimAtomDeactivateDevice(tile);
    warpsimAtom3DMapDevice(output, out + chunk, 1024, 2, 512, 2, kTiles * tileBytes / 2048, 0);
  }
}

int main() {
  const int n = 4096;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 0.25f * static_cast<float>(i % 97) - 3.0f;
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  warpsimAtomId input = -1;
  for (int i = 0; i < 3; ++i) {  // one program point: one atom
    input = warpsimCreateAtom(WARPSIM_ATOM_FLOAT32, (warpsimAtomAccessPattern{WARPSIM_ATOM_REGULAR, 4, 200}), 0,
                              WARPSIM_ATOM_READ_ONLY);
  }
  const warpsimAtomId output =
      warpsimCreateAtom(WARPSIM_ATOM_FLOAT32, (warpsimAtomAccessPattern{WARPSIM_ATOM_REGULAR, 4, 100}), 0,
                        WARPSIM_ATOM_WRITE_ONLY);
  std::printf("ids: %d %d\n", input, output);
  std::printf("map: %d\n", warpsimAtomMap(input, in, n * sizeof(float), 1));
  // The output as a 2-D block: 16 rows of 1 KB, the first 512 bytes of each.
  std::printf("2-D map: %d\n", warpsimAtom2DMap(output, out, 1024, 512, 16, 1));
  std::printf("activate: %d %d\n", warpsimAtomActivate(input), warpsimAtomActivate(output));
  std::printf("bad map: %d\n", warpsimAtomMap(input, host.data(), 64, 1));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("unknown atom: %d\n", warpsimAtomActivate(7));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  for (int launch = 0; launch < 2; ++launch) {  // 4 operations, then 2
    if (launch == 1) {
      std::printf("deactivate: %d\n", warpsimAtomDeactivate(output));
      std::printf("unmap: %d\n", warpsimAtomMap(input, in, n * sizeof(float), 0));
    }
    scale<<<n / 256, 256>>>(out, in, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::vector<float> result(n);
  CHECK(cudaMemcpy(result.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += result[i] != 2.0f * host[i] + 1.0f;
  EXPECT(wrong == 0, "results unchanged by the atoms");

  // The kernel's own atom operations: 4 CTAs of 256 threads, 4 tiles of 1 KB each.
  const warpsimAtomId tile =
      warpsimCreateAtom(WARPSIM_ATOM_FLOAT32, (warpsimAtomAccessPattern{WARPSIM_ATOM_REGULAR, 4, 250}), 8,
                        WARPSIM_ATOM_READ_ONLY);
  std::printf("tile id: %d\n", tile);
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  scale_tiled<<<n / (kTiles * 256), 256>>>(out, in, tile, output);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(result.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < n; ++i) wrong += result[i] != 2.0f * host[i] + 1.0f;
  EXPECT(wrong == 0, "results unchanged by the kernel's atom operations");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("PASS\n");
  return 0;
}
