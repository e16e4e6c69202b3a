// nvcc-flags: -arch=compute_80 -O3
// Training steps of the input-to-hidden layer of a perceptron with 16 hidden units:
//  * bp_layer_forward: a 16 x 16 block multiplies 16 inputs by their 16 weight rows and sums
//    each hidden unit's 16 products by a tree in shared memory: one partial sum per (chunk of
//    16 inputs, hidden unit);
//  * bp_hidden_activate: one block adds the partial sums of each hidden unit (16 slices per
//    unit, then a tree) and applies the logistic function;
//  * bp_adjust_weights: w += eta * delta_j * x_i + momentum * (previous change).
// The output layer and the deltas are computed by the host between the kernels.

#define HIDDEN 16
#define CHUNK 16

extern "C" __global__ void bp_layer_forward(const float* __restrict__ input,
                                            const float* __restrict__ weights,
                                            float* __restrict__ partial, int n) {
  __shared__ float product[CHUNK][HIDDEN];
  int j = threadIdx.x, r = threadIdx.y;
  int i = blockIdx.x * CHUNK + r;
  product[r][j] = i < n ? input[i] * weights[i * HIDDEN + j] : 0.0f;
  __syncthreads();
  for (int half = CHUNK / 2; half > 0; half >>= 1) {
    if (r < half) product[r][j] += product[r + half][j];
    __syncthreads();
  }
  if (r == 0) partial[blockIdx.x * HIDDEN + j] = product[0][j];
}

// One block of (HIDDEN, 16) threads.
extern "C" __global__ void bp_hidden_activate(const float* __restrict__ partial, int chunks,
                                              const float* __restrict__ bias,
                                              float* __restrict__ hidden) {
  __shared__ float slice[16][HIDDEN];
  int j = threadIdx.x, s = threadIdx.y;
  float sum = 0.0f;
  for (int c = s; c < chunks; c += 16) sum += partial[c * HIDDEN + j];
  slice[s][j] = sum;
  __syncthreads();
  for (int half = 8; half > 0; half >>= 1) {
    if (s < half) slice[s][j] += slice[s + half][j];
    __syncthreads();
  }
  if (s == 0) hidden[j] = 1.0f / (1.0f + expf(-(slice[0][j] + bias[j])));
}

extern "C" __global__ void bp_adjust_weights(float* __restrict__ weights,
                                             float* __restrict__ previousChange,
                                             const float* __restrict__ input,
                                             const float* __restrict__ hiddenDelta, int n,
                                             float eta, float momentum) {
  int j = threadIdx.x;
  int i = blockIdx.x * CHUNK + threadIdx.y;
  if (i >= n) return;
  int at = i * HIDDEN + j;
  float change = eta * hiddenDelta[j] * input[i] + momentum * previousChange[at];
  weights[at] += change;
  previousChange[at] = change;
}
