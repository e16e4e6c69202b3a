// nvcc-flags: -arch=compute_80 -O3
// Counts the occurrences (overlapping ones too) of many short patterns in a text.
// Each CTA owns a chunk of CHUNK text positions: it copies the chunk and the MAX_LEN - 1 bytes
// after it into shared memory (zeros past the end of the text; patterns contain no zero byte),
// together with the patterns and a table of buckets. Patterns are at least two bytes long and
// filed by a hash of their first two bytes (a q-gram filter, q = 2): sorted by that hash h, the
// patterns that can start at a position whose two bytes hash to h are bucketStart[h] up to
// bucketStart[h + 1]. Each thread takes the positions threadIdx.x + k * THREADS of the chunk,
// compares the patterns of the position's bucket byte by byte, and counts matches in shared
// memory (shared atomics); the CTA finally adds its counts to the global ones.

#define THREADS 256
#define CHUNK 1024  // text positions per CTA
#define MAX_LEN 16  // longest pattern
#define MAX_PATTERNS 64
#define BUCKETS 256

__device__ __forceinline__ unsigned bucketOf(unsigned first, unsigned second) {
  return (first * 29u + second) & (BUCKETS - 1);
}

extern "C" __global__ void string_match(const unsigned* __restrict__ text, int length,
                                        const unsigned char* __restrict__ patternBytes,
                                        const int* __restrict__ patternStart,
                                        const int* __restrict__ bucketStart, int patterns,
                                        unsigned* __restrict__ counts) {
  __shared__ unsigned window[(CHUNK + MAX_LEN) / 4];
  __shared__ unsigned char pattern[MAX_PATTERNS * MAX_LEN];
  __shared__ int start[MAX_PATTERNS + 1];
  __shared__ int bucket[BUCKETS + 1];
  __shared__ unsigned found[MAX_PATTERNS];
  const int first = blockIdx.x * CHUNK;
  // The text is padded with zeros to a multiple of four bytes; words past it read as zero.
  const int words = (length + 3) / 4;
  for (int w = threadIdx.x; w < (CHUNK + MAX_LEN) / 4; w += THREADS) {
    const int at = first / 4 + w;
    window[w] = at < words ? text[at] : 0u;
  }
  const int patternLength = patternStart[patterns];
  for (int i = threadIdx.x; i < patternLength; i += THREADS) pattern[i] = patternBytes[i];
  for (int i = threadIdx.x; i <= patterns; i += THREADS) start[i] = patternStart[i];
  for (int i = threadIdx.x; i <= BUCKETS; i += THREADS) bucket[i] = bucketStart[i];
  for (int i = threadIdx.x; i < patterns; i += THREADS) found[i] = 0;
  __syncthreads();

  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(window);
  for (int p = threadIdx.x; p < CHUNK && first + p < length; p += THREADS) {
    const unsigned h = bucketOf(bytes[p], bytes[p + 1]);
    for (int j = bucket[h]; j < bucket[h + 1]; ++j) {
      const int len = start[j + 1] - start[j];
      int k = 0;
      while (k < len && bytes[p + k] == pattern[start[j] + k]) ++k;
      if (k == len) atomicAdd(&found[j], 1u);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < patterns; i += THREADS) {
    if (found[i] != 0) atomicAdd(&counts[i], found[i]);
  }
}
