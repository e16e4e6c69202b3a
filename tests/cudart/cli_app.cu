// The program `warpsim run -- ./cli_app N STATUS` runs in the CLI tests: squares 0..N-1 on the
// device, prints their sum and exits with STATUS. `./cli_app abort` ends by SIGABRT.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void squares(long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<long long>(i) * i;
}

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "abort") == 0) std::abort();
  if (argc != 3) {
    std::fprintf(stderr, "usage: cli_app N STATUS\n");
    return 64;
  }
  int n = std::atoi(argv[1]), status = std::atoi(argv[2]);
  long long* d;
  if (cudaMalloc(&d, n * sizeof(long long)) != cudaSuccess) return 1;
  squares<<<(n + 127) / 128, 128>>>(d, n);
  long long* h = new long long[n];
  if (cudaMemcpy(h, d, n * sizeof(long long), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  std::printf("sum of squares below %d: %lld\n", n, sum);
  delete[] h;
  cudaFree(d);
  return status;
}
