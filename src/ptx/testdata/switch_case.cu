// A switch statement (branch chains or jump-like comparisons) and a constant-memory table.
__constant__ int kTable[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__device__ const char* kNames[3] = {"zero", "one", "two"};

__global__ void switch_case(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t];
  int r;
  switch (v & 7) {
    case 0: r = v * 3; break;
    case 1: r = v + 11; break;
    case 2: r = v - 5; break;
    case 3: r = v << 2; break;
    case 5: r = v ^ 0x55; break;
    case 6: r = kTable[v & 7]; break;
    default: r = -1; break;
  }
  out[t] = r + kTable[t & 7] + (int)kNames[t % 3][0];
}
