// nvcc-flags: -arch=compute_80 -O3
// Page view count as a MapReduce job over a web-server access log (common log format, one text
// line per request):
//   <ip> - - [26/Nov/2026:13:04:24 +0000] "GET /path/page.html HTTP/1.1" 200 5120
//  * pvc_map: one thread per line (the host split the log at the newlines, as a MapReduce
//    input reader does) scans the line for the request's opening quote, skips the method and
//    hashes the URL up to the next space (64-bit FNV-1a). It emits the intermediate record
//    (key = hash, value = the line number), stored as two arrays.
//  * the reduce groups by key in an open-addressing hash table in global memory (linear probing
//    from the slot the key hashes to), built in rounds so that the table, the instruction
//    counts and the final memory do not depend on the order in which threads get there. Every
//    record keeps its probe slot and status; a round is two launches:
//    pvc_claim    a probing record looks at its slot (the table is not written in this launch):
//                 its own key there: placed; another key: move to the next slot; empty: claim
//                 the slot with atomicMin of its record number;
//    pvc_settle   a claiming record reads the slot's winner (the smallest claimant): if the
//                 winner has the same key the record is placed (and the winner writes the key
//                 into the table), otherwise it moves to the next slot.
//    All the records of one key probe in step, so a key is placed once; the host repeats
//    rounds until no record is left probing (the longest probe run).
//  * pvc_reduce: one thread per record reduces with atomics at its slot: the view count (add)
//    and the first line that named the URL (min), from which the host reads the URL text back.

#define EMPTY_KEY 0ull

__device__ __forceinline__ unsigned long long fnv1aStep(unsigned long long h, unsigned char c) {
  return (h ^ c) * 0x100000001b3ull;
}

extern "C" __global__ void pvc_map(const unsigned char* __restrict__ log,
                                   const unsigned* __restrict__ lineStart, int lines,
                                   unsigned long long* __restrict__ keys,
                                   unsigned* __restrict__ values) {
  int line = blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  unsigned p = lineStart[line], end = lineStart[line + 1];
  while (p < end && log[p] != '"') ++p;  // the request starts at the first quote
  ++p;
  while (p < end && log[p] != ' ') ++p;  // skip the method
  ++p;
  unsigned long long h = 0xcbf29ce484222325ull;  // FNV-1a offset basis
  for (; p < end; ++p) {
    unsigned char c = log[p];
    if (c == ' ') break;
    h = fnv1aStep(h, c);
  }
  if (h == EMPTY_KEY) h = 1;  // 0 marks an empty slot
  keys[line] = h;
  values[line] = line;
}

#define PROBING 0
#define CLAIMING 1
#define PLACED 2

__device__ __forceinline__ unsigned homeSlot(unsigned long long key, unsigned mask) {
  // Fibonacci hashing of the key's high bits spreads FNV's output over the table.
  return static_cast<unsigned>((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

extern "C" __global__ void pvc_home(const unsigned long long* __restrict__ keys, int records,
                                    unsigned* __restrict__ slot, unsigned mask) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < records) slot[r] = homeSlot(keys[r], mask);
}

extern "C" __global__ void pvc_claim(const unsigned long long* __restrict__ keys, int records,
                                     const unsigned long long* __restrict__ tableKeys,
                                     unsigned* __restrict__ claim, unsigned* __restrict__ slot,
                                     unsigned char* __restrict__ status,
                                     unsigned* __restrict__ probing, unsigned mask) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= records || status[r] != PROBING) return;
  const unsigned s = slot[r];
  const unsigned long long there = tableKeys[s];
  if (there == keys[r]) {
    status[r] = PLACED;
  } else if (there != EMPTY_KEY) {
    slot[r] = (s + 1) & mask;
    atomicAdd(probing, 1u);
  } else {
    status[r] = CLAIMING;
    atomicMin(&claim[s], static_cast<unsigned>(r));
    atomicAdd(probing, 1u);
  }
}

extern "C" __global__ void pvc_settle(const unsigned long long* __restrict__ keys, int records,
                                      unsigned long long* __restrict__ tableKeys,
                                      const unsigned* __restrict__ claim,
                                      unsigned* __restrict__ slot,
                                      unsigned char* __restrict__ status, unsigned mask) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= records || status[r] != CLAIMING) return;
  const unsigned s = slot[r];
  const unsigned winner = claim[s];
  if (keys[winner] == keys[r]) {
    status[r] = PLACED;
    if (winner == static_cast<unsigned>(r)) tableKeys[s] = keys[r];
  } else {
    status[r] = PROBING;
    slot[r] = (s + 1) & mask;
  }
}

extern "C" __global__ void pvc_reduce(const unsigned* __restrict__ slot,
                                      const unsigned* __restrict__ values, int records,
                                      unsigned* tableCounts, unsigned* tableFirst) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= records) return;
  atomicAdd(&tableCounts[slot[r]], 1u);
  atomicMin(&tableFirst[slot[r]], values[r]);
}
