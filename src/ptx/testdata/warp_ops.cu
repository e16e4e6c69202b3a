// Warp-level primitives: shuffles, votes, match, activemask, lane masks.
__global__ void warp_ops(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int x = __shfl_xor_sync(0xffffffffu, in[t], 1);
  int y = __shfl_up_sync(0xffffffffu, in[t], 2);
  int z = __shfl_sync(0xffffffffu, in[t], 5);
  unsigned ballot = __ballot_sync(0xffffffffu, in[t] > 0);
  int any = __any_sync(0xffffffffu, in[t] == 3);
  int all = __all_sync(0xffffffffu, in[t] != 0);
  unsigned m = __match_any_sync(0xffffffffu, in[t]);
  int pred;
  unsigned ma = __match_all_sync(0xffffffffu, in[t], &pred);
  unsigned act = __activemask();
  __syncwarp();
  out[t] = v + x + y + z + (int)ballot + any + all + (int)m + (int)ma + pred + (int)act +
           __popc(ballot) + __clz(x) + __ffs(y) + (int)__brev((unsigned)z);
}
