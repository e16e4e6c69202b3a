// A thread-private array indexed with a runtime value: lives in local memory (a depot).
__global__ void local_array(const int* idx, int* out) {
  int arr[24];
  int t = threadIdx.x;
  for (int k = 0; k < 24; ++k) arr[k] = k * t + idx[k];
  out[t] = arr[idx[t] % 24] + arr[(t * 7) % 24];
}
