// The second translation unit of two_units_main.cu.
__device__ int offset = 1000;
__global__ void addOffset(int* v) { v[threadIdx.x] += offset; }
void addOffsetElsewhere(int* v) { addOffset<<<1, 32>>>(v); }
