// nvcc-flags: -arch=compute_80 -O3
// Exact matching of short reads against a reference's suffix tree, in the manner of MUMmerGPU
// (Schatz et al., 2007): the host builds the tree, the GPU runs one thread per read. For every
// position i of its read the thread finds the longest prefix of read[i..] that occurs in the
// reference (the matching statistics MUMmer's maximal exact matches are read from) and the tree
// node that match ends at. Consecutive positions are linked by suffix links (Chang and Lawler):
// once read[i..i+len) is matched at a node of depth d, the node's suffix link leads to the node
// of read[i+1..i+d), and the rest of the len - 1 known characters is skipped over by depths
// alone ("skip/count"), so each read character is compared about once on success.
//
// The tree (see driver.cpp) is an array of internal nodes, 8 ints each:
//   [0..3] children for A, C, G, T: 0 none (the root, node 0, is nobody's child), > 0 an
//          internal node, < 0 the leaf of the suffix starting at -child - 1;
//   [4]    start: a reference position where the node's label (path from the root) occurs;
//   [5]    depth: the label's length;
//   [6]    suffix link: the node whose label is this one's without its first character;
//   [7]    unused (a node is 32 bytes, four to a 128-byte line).
// The edge into a node of label ref[start .. start + depth) from a parent of depth p is
// ref[start + p .. start + depth); a leaf's label runs to the reference's terminator, so its
// depth is refLength + 1 - start. Symbols are 0..3 (A, C, G, T); reads may hold 4 (N), which
// matches nothing; the reference ends in 5 ($), which no read holds, so a match never runs off
// the end of a leaf's edge.
//
// Everything is read through ordinary global loads (the L1): the node array and the reference
// by pointer chasing with lengths that differ from lane to lane, each thread's read byte by
// byte. No shared memory. Output per read position: the match length (a byte: reads are at
// most 255 bases) and the match's node (the end point's edge's lower node, or the node itself
// when the match ends exactly on it), encoded as the children are.

extern "C" __global__ void mummer_match(const int* __restrict__ nodes,
                                        const unsigned char* __restrict__ ref, int refLength,
                                        const unsigned char* __restrict__ reads,
                                        const int* __restrict__ readStart, int numReads,
                                        unsigned char* __restrict__ matchLength,
                                        int* __restrict__ matchNode) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= numReads) return;
  const int first = readStart[q];
  const int length = readStart[q + 1] - first - 1;  // the separator after the read excluded
  const unsigned char* read = reads + first;

  // The match of read[i .. i + len): v is the deepest node whose label is a prefix of it,
  // depth(v) = vDepth <= len; when len > vDepth the end point is inside the edge below v.
  int v = 0, vDepth = 0, len = 0;
  for (int i = 0; i < length; ++i) {
    // Go down edge by edge: over edges the known len characters cover whole by their depths
    // alone (skip/count), then comparing while the read and the reference agree.
    int locus;
    for (;;) {
      const int c = read[i + vDepth];  // vDepth <= len <= length - i: at most the separator
      const int child = c < 4 ? nodes[v * 8 + c] : 0;
      if (child == 0) {  // only when len == vDepth: the match ends on v
        locus = v;
        break;
      }
      int cStart, cDepth;
      if (child < 0) {
        cStart = -child - 1;
        cDepth = refLength + 1 - cStart;
      } else {
        const int2 sd = *reinterpret_cast<const int2*>(nodes + child * 8 + 4);
        cStart = sd.x;
        cDepth = sd.y;
      }
      // The separator and N match no reference symbol, $ no read symbol.
      while (len < cDepth && read[i + len] == ref[cStart + len]) ++len;
      if (len < cDepth) {  // a mismatch or the read's end inside the edge (at least one
        locus = child;     // character of it matched: its first is c)
        break;
      }
      v = child;  // the whole edge matched: an internal node (a leaf's edge ends in $)
      vDepth = cDepth;
    }
    matchLength[first + i] = static_cast<unsigned char>(len);
    matchNode[first + i] = locus;

    // Move to read[i + 1 ..]: the same match without its first character, from v's suffix
    // link; the next round skips down over the len - 1 known characters.
    if (len == 0) continue;  // v is the root
    --len;
    if (v != 0) {
      v = nodes[v * 8 + 6];
      --vDepth;
    }
  }
}
