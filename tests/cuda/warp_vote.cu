// nvcc-flags: -arch=compute_90 -O3
// Warp-level voting: all/any/ballot, match.any/match.all, activemask under divergence.

extern "C" __global__ void warp_vote(const int* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned full = 0xffffffffu;
  unsigned ballot = __ballot_sync(full, v > 0);
  int all = __all_sync(full, v >= 0);
  int any = __any_sync(full, v > 100);
  unsigned matchAny = __match_any_sync(full, v & 7);
  int pred = 0;
  unsigned matchAll = __match_all_sync(full, v >> 8, &pred);
  unsigned active = 0;
  if (v & 1) active = __activemask();  // only odd-valued lanes are active here
  if (i < n) {
    out[6 * i + 0] = ballot;
    out[6 * i + 1] = all;
    out[6 * i + 2] = any;
    out[6 * i + 3] = matchAny;
    out[6 * i + 4] = pred ? matchAll : 0xdeadbeefu;
    out[6 * i + 5] = active;
  }
}
