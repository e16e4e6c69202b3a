// mummer: exact matching of sequencing reads against a small reference genome's suffix tree, a
// thread per read (MUMmerGPU-like; see mummer.cu). The host generates a genome with a realistic
// composition (GC-content isochores, interspersed repeat families, tandem repeats), builds its
// suffix tree with suffix links (Ukkonen) and lays the internal nodes out breadth-first; the reads
// are sampled from it with an Illumina-like error profile, a few from a contaminant. The GPU
// computes, for every read position, the longest match starting there and its tree node; the
// reference walks the same tree from the root at every position (no suffix links), and a sample
// of positions is checked against the genome itself by plain search.
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace mummer {

constexpr uint32_t kThreads = 256;          // unless a resource specification asks for another
constexpr int kReferenceLength = 1 << 16;   // bases: a small genome (the study's "small dataset")
constexpr int kContaminantLength = 1 << 14;
constexpr int kReadLength = 36;             // before quality trimming; at most 255 (byte lengths)
constexpr int kMinTrimmed = 25;
constexpr int kMemLength = 20;              // MUMmer's default minimum match length (summary)

// Symbols: A, C, G, T; N only in reads (matches nothing); $ ends the reference; a separator
// follows each read in the reads' buffer (matches nothing).
constexpr uint8_t kN = 4, kTerminator = 5, kSeparator = 6;

// Block sizes a resource specification may ask for: a warp to the largest CTA, with 192 and 384
// and 768 (the unified-storage study's 768 threads per SM, where GPU-mummer ran best).
const std::vector<uint32_t> kSpecThreads = {32, 64, 128, 192, 256, 384, 512, 768, 1024};

uint8_t randomBase(InputGenerator& gen, double gc) {
  const bool strong = uniformReal(gen, 0.0, 1.0) < gc;
  const bool second = (gen.next() & 1) != 0;
  return strong ? (second ? 2 : 1) : (second ? 3 : 0);  // G/C or T/A
}

std::vector<uint8_t> randomBases(InputGenerator& gen, int length, double gc) {
  std::vector<uint8_t> s(length);
  for (uint8_t& b : s) b = randomBase(gen, gc);
  return s;
}

void mutate(InputGenerator& gen, std::vector<uint8_t>& s, double rate) {
  for (uint8_t& b : s) {
    if (uniformReal(gen, 0.0, 1.0) < rate) b = static_cast<uint8_t>((b + gen.uniform(1, 3)) & 3);
  }
}

std::vector<uint8_t> reverseComplement(const std::vector<uint8_t>& s) {
  std::vector<uint8_t> r(s.rbegin(), s.rend());
  for (uint8_t& b : r) b = static_cast<uint8_t>(3 - b);  // A<->T, C<->G
  return r;
}

// The genome and where its bases came from.
struct Genome {
  std::vector<uint8_t> bases;
  int repeatBases = 0, tandemBases = 0, gcBases = 0;
};

// A small eukaryote-like genome, segment by segment: unique sequence whose GC content changes
// from isochore to isochore (36% to 56%, a new one every 4 to 12 kb); copies of five
// interspersed repeat families (two SINE-like elements of about 300 bp with poly-A tails, a
// LINE-like element of 1.5 to 2 kb inserted mostly 5'-truncated, two DNA transposons of 200 to
// 500 bp), each copy in either orientation and 2% to 18% diverged from its consensus (young and
// old insertions); and tandem repeats, micro- (units of 1 to 6 bases) and minisatellites (10 to
// 40), 3% of their bases mutated.
Genome makeGenome(InputGenerator& gen, int length) {
  std::vector<std::vector<uint8_t>> families;
  for (int f = 0; f < 2; ++f) {  // SINEs
    std::vector<uint8_t> e = randomBases(gen, static_cast<int>(gen.uniform(260, 320)), 0.55);
    e.insert(e.end(), static_cast<size_t>(gen.uniform(12, 30)), uint8_t{0});
    families.push_back(std::move(e));
  }
  families.push_back(randomBases(gen, static_cast<int>(gen.uniform(1500, 2000)), 0.40));  // LINE
  for (int f = 0; f < 2; ++f) {  // DNA transposons
    families.push_back(randomBases(gen, static_cast<int>(gen.uniform(200, 500)), 0.45));
  }

  Genome g;
  double gc = uniformReal(gen, 0.36, 0.56);
  int isochoreEnd = static_cast<int>(gen.uniform(4000, 12000));
  while (static_cast<int>(g.bases.size()) < length) {
    if (static_cast<int>(g.bases.size()) >= isochoreEnd) {
      gc = uniformReal(gen, 0.36, 0.56);
      isochoreEnd += static_cast<int>(gen.uniform(4000, 12000));
    }
    const int kind = static_cast<int>(gen.uniform(0, 99));
    std::vector<uint8_t> piece;
    if (kind < 62) {
      piece = randomBases(gen, static_cast<int>(gen.uniform(50, 800)), gc);
    } else if (kind < 93) {
      const int f = static_cast<int>(gen.uniform(0, 9));
      const int family = f < 4 ? 0 : f < 7 ? 1 : f < 8 ? 2 : f < 9 ? 3 : 4;  // SINEs commonest
      const std::vector<uint8_t>& e = families[family];
      // LINE copies are mostly 5'-truncated: they keep a random 3' part.
      const int from = family == 2 ? static_cast<int>(gen.uniform(0, e.size() - 200)) : 0;
      piece.assign(e.begin() + from, e.end());
      mutate(gen, piece, uniformReal(gen, 0.02, 0.18));
      if (gen.next() & 1) piece = reverseComplement(piece);
      g.repeatBases += static_cast<int>(piece.size());
    } else {
      const bool micro = gen.uniform(0, 9) < 7;
      const int unitLength = static_cast<int>(micro ? gen.uniform(1, 6) : gen.uniform(10, 40));
      const int total = static_cast<int>(micro ? gen.uniform(20, 100) : gen.uniform(60, 300));
      const std::vector<uint8_t> unit = randomBases(gen, unitLength, gc);
      for (int i = 0; i < total; ++i) piece.push_back(unit[i % unitLength]);
      mutate(gen, piece, 0.03);
      g.tandemBases += total;
    }
    g.bases.insert(g.bases.end(), piece.begin(), piece.end());
  }
  g.bases.resize(length);
  for (uint8_t b : g.bases) g.gcBases += (b == 1 || b == 2) ? 1 : 0;
  return g;
}

// The suffix tree of text (which ends with its unique terminator) by Ukkonen's algorithm, as
// edges into nodes: [start, end) in text (end -1 while a leaf grows), children per symbol
// (A, C, G, T, N, $; -1 none) and suffix links of internal nodes (the root, node 0, by default).
struct UkkonenTree {
  std::vector<int> start, end, link;
  std::vector<std::array<int, 6>> next;

  int add(int s, int e) {
    start.push_back(s);
    end.push_back(e);
    link.push_back(0);
    next.push_back({-1, -1, -1, -1, -1, -1});
    return static_cast<int>(start.size()) - 1;
  }
};

UkkonenTree ukkonen(const std::vector<uint8_t>& text) {
  UkkonenTree t;
  const int n = static_cast<int>(text.size());
  t.start.reserve(2 * n);
  t.end.reserve(2 * n);
  t.link.reserve(2 * n);
  t.next.reserve(2 * n);
  t.add(-1, -1);  // the root
  int activeNode = 0, activeEdge = 0, activeLength = 0, remainder = 0;
  for (int pos = 0; pos < n; ++pos) {
    ++remainder;
    int needsLink = -1;  // the internal node created last in this phase
    while (remainder > 0) {
      if (activeLength == 0) activeEdge = pos;
      const int c = text[activeEdge];
      const int edge = t.next[activeNode][c];
      if (edge == -1) {
        const int leaf = t.add(pos, -1);
        t.next[activeNode][c] = leaf;
        if (needsLink != -1) t.link[needsLink] = activeNode;
        needsLink = -1;
      } else {
        const int edgeLength = (t.end[edge] == -1 ? pos + 1 : t.end[edge]) - t.start[edge];
        if (activeLength >= edgeLength) {  // walk down to the next node
          activeEdge += edgeLength;
          activeLength -= edgeLength;
          activeNode = edge;
          continue;
        }
        if (text[t.start[edge] + activeLength] == text[pos]) {  // already there: next phase
          if (needsLink != -1 && activeNode != 0) t.link[needsLink] = activeNode;
          ++activeLength;
          break;
        }
        const int split = t.add(t.start[edge], t.start[edge] + activeLength);
        t.next[activeNode][c] = split;
        const int leaf = t.add(pos, -1);
        t.next[split][text[pos]] = leaf;
        t.start[edge] += activeLength;
        t.next[split][text[t.start[edge]]] = edge;
        if (needsLink != -1) t.link[needsLink] = split;
        needsLink = split;
      }
      --remainder;
      if (activeNode == 0 && activeLength > 0) {
        --activeLength;
        activeEdge = pos - remainder + 1;
      } else if (activeNode != 0) {
        activeNode = t.link[activeNode];
      }
    }
  }
  for (int& e : t.end) {
    if (e == -1) e = n;
  }
  return t;
}

// The tree as mummer.cu reads it: internal nodes breadth-first from the root, 8 ints each
// (children A, C, G, T encoded as 0 none, > 0 internal, -(suffix start) - 1 leaf; label start,
// depth, suffix link, unused). $-edges are left out: no read holds $.
struct Tree {
  std::vector<int> nodes;
  int internalNodes = 0;
};

Tree layOut(const UkkonenTree& u, int textLength) {
  const int total = static_cast<int>(u.start.size());
  std::vector<int> depth(total, 0), labelStart(total, 0), index(total, -1);
  std::vector<int> order = {0};  // internal nodes, breadth-first
  index[0] = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    const int v = order[k];
    for (int c = 0; c < 6; ++c) {
      const int w = u.next[v][c];
      if (w == -1) continue;
      depth[w] = depth[v] + (u.end[w] - u.start[w]);
      labelStart[w] = u.start[w] - depth[v];
      // A leaf's edge runs to the text's end, an internal node's never does (its label is
      // followed by two different symbols, so it stops before the unique terminator).
      const bool leaf = u.end[w] == textLength;
      if (!leaf) {
        index[w] = static_cast<int>(order.size());
        order.push_back(w);
      }
    }
  }
  Tree t;
  t.internalNodes = static_cast<int>(order.size());
  t.nodes.assign(static_cast<size_t>(t.internalNodes) * 8, 0);
  for (int k = 0; k < t.internalNodes; ++k) {
    const int v = order[k];
    int* rec = &t.nodes[static_cast<size_t>(k) * 8];
    for (int c = 0; c < 4; ++c) {
      const int w = u.next[v][c];
      if (w == -1) continue;
      rec[c] = index[w] >= 0 ? index[w] : -labelStart[w] - 1;
    }
    rec[4] = labelStart[v];
    rec[5] = depth[v];
    rec[6] = index[u.link[v]];
  }
  return t;
}

// The reads: 36 bases (the Illumina Genome Analyzer's read length when MUMmerGPU appeared), 40%
// of them quality-trimmed to 25..35; 8% from a contaminant (a high-GC bacterium), the rest from
// the genome's forward strand. Illumina-like errors: a substitution rate rising from 0.4% at the
// first base to 2.4% at the last (1.4% on average), an N in one base of a thousand, and rare
// single-base insertions and deletions (3 in 10^4 bases each).
struct Reads {
  std::vector<uint8_t> bases;
  std::vector<int> start;  // read r is bases[start[r] .. start[r + 1] - 1), then a separator
  int contaminants = 0;
  int length(int r) const { return start[r + 1] - start[r] - 1; }
};

Reads makeReads(InputGenerator& gen, int count, const std::vector<uint8_t>& genome,
                const std::vector<uint8_t>& contaminant) {
  Reads r;
  r.start.push_back(0);
  for (int q = 0; q < count; ++q) {
    const bool foreign = gen.uniform(0, 99) < 8;
    r.contaminants += foreign ? 1 : 0;
    const std::vector<uint8_t>& source = foreign ? contaminant : genome;
    const int length = gen.uniform(0, 9) < 6
                           ? kReadLength
                           : static_cast<int>(gen.uniform(kMinTrimmed, kReadLength - 1));
    size_t pos = static_cast<size_t>(gen.uniform(0, static_cast<int64_t>(source.size()) - length));
    for (int j = 0; j < length && pos < source.size(); ++j) {
      const double indel = uniformReal(gen, 0.0, 1.0);
      if (indel < 0.0003) {  // an inserted base
        r.bases.push_back(randomBase(gen, 0.5));
        continue;
      }
      if (indel < 0.0006 && pos + 1 < source.size()) ++pos;  // a deleted base
      uint8_t b = source[pos++];
      const double substitution = 0.004 + 0.02 * j / (kReadLength - 1);
      const double u = uniformReal(gen, 0.0, 1.0);
      if (u < 0.001) {
        b = kN;
      } else if (u < 0.001 + substitution) {
        b = static_cast<uint8_t>((b + gen.uniform(1, 3)) & 3);
      }
      r.bases.push_back(b);
    }
    r.bases.push_back(kSeparator);
    r.start.push_back(static_cast<int>(r.bases.size()));
  }
  return r;
}

// The longest prefix of s[0 .. length) that occurs in the reference and its node (encoded as
// the children are), walking down from the root: the definition the kernel computes with suffix
// links.
struct Match {
  int length, node;
};

Match longestMatch(const Tree& t, const std::vector<uint8_t>& ref, const uint8_t* s,
                   int length) {
  const int refLength = static_cast<int>(ref.size()) - 1;
  int v = 0, m = 0;  // at node v, whose depth is m
  for (;;) {
    if (m == length || s[m] >= 4) return {m, v};
    const int child = t.nodes[static_cast<size_t>(v) * 8 + s[m]];
    if (child == 0) return {m, v};
    int start, depth;
    if (child < 0) {
      start = -child - 1;
      depth = refLength + 1 - start;
    } else {
      start = t.nodes[static_cast<size_t>(child) * 8 + 4];
      depth = t.nodes[static_cast<size_t>(child) * 8 + 5];
    }
    while (m < depth && m < length && s[m] == ref[start + m]) ++m;
    if (m < depth) return {m, child};
    v = child;
  }
}

// The tree and the walk checked against the genome itself: at a sample of positions the match
// occurs in it and one more character (when the read has one) does not.
std::string checkAgainstGenome(const std::vector<uint8_t>& ref, const Reads& reads,
                               const std::vector<uint8_t>& length, int samples) {
  const std::string_view text(reinterpret_cast<const char*>(ref.data()), ref.size() - 1);
  const size_t total = reads.bases.size();
  const int numReads = static_cast<int>(reads.start.size()) - 1;
  for (int k = 0; k < samples; ++k) {
    const size_t p = total * k / samples;
    const int q = static_cast<int>(
        std::upper_bound(reads.start.begin(), reads.start.end(), static_cast<int>(p)) -
        reads.start.begin() - 1);
    if (q < 0 || q >= numReads || p >= static_cast<size_t>(reads.start[q + 1] - 1)) continue;
    const size_t readEnd = reads.start[q + 1] - 1;
    const std::string_view s(reinterpret_cast<const char*>(reads.bases.data()) + p, readEnd - p);
    const size_t m = length[p];
    if (text.find(s.substr(0, m)) == std::string_view::npos) {
      return fmt::format("read {} base {}: its {}-base match is not in the genome", q,
                         p - reads.start[q], m);
    }
    if (m < s.size() && text.find(s.substr(0, m + 1)) != std::string_view::npos) {
      return fmt::format("read {} base {}: its match could be longer than {} bases", q,
                         p - reads.start[q], m);
    }
  }
  return {};
}

Outcome run(WorkloadContext& ctx) {
  if (ctx.size < 1 || ctx.size > (1u << 18)) {
    throw runtime::Error(fmt::format("mummer: 1 to 262144 reads, not {}", ctx.size));
  }
  if (ctx.threadsPerBlock != 0 &&
      std::find(kSpecThreads.begin(), kSpecThreads.end(), ctx.threadsPerBlock) ==
          kSpecThreads.end()) {
    throw runtime::Error(fmt::format("mummer: {} threads per block is not one of {}",
                                     ctx.threadsPerBlock, fmt::join(kSpecThreads, ", ")));
  }
  if (ctx.sharedBytesPerBlock != 0) {
    throw runtime::Error("mummer: uses no shared memory (no --shared-per-block)");
  }
  const int numReads = static_cast<int>(ctx.size);
  const uint32_t threads = ctx.threadsPerBlock == 0 ? kThreads : ctx.threadsPerBlock;

  InputGenerator gen(ctx.seed);
  const Genome genome = makeGenome(gen, kReferenceLength);
  const std::vector<uint8_t> contaminant = randomBases(gen, kContaminantLength, 0.66);
  const Reads reads = makeReads(gen, numReads, genome.bases, contaminant);
  std::vector<uint8_t> ref = genome.bases;
  ref.push_back(kTerminator);
  const Tree tree = layOut(ukkonen(ref), static_cast<int>(ref.size()));
  const size_t positions = reads.bases.size() - numReads;  // bases, without the separators

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("mummer"), "mummer.ptx");
  const uint64_t dNodes = gpu.upload(tree.nodes), dRef = gpu.upload(ref),
                 dReads = gpu.upload(reads.bases), dStart = gpu.upload(reads.start);
  // Indexed as the reads' buffer (a separator's slot is not written).
  const size_t slots = reads.bases.size();
  const uint64_t dLength = gpu.malloc(slots);
  const uint64_t dNode = gpu.malloc(slots * sizeof(int));
  launch(ctx, mod.kernel("mummer_match"), {ceilDiv(numReads, threads)}, {threads}, 0, dNodes,
         dRef, kReferenceLength, dReads, dStart, numReads, dLength, dNode);
  const std::vector<uint8_t> gotLength = gpu.download<uint8_t>(dLength, slots);
  const std::vector<int> gotNode = gpu.download<int>(dNode, slots);

  // Exact: lengths and nodes are integers, and a match's node is unique (the node at or below
  // the end of its path from the root), so the suffix-link walk and the walk from the root
  // agree on both, in any order of the threads.
  size_t mems = 0, fullReads = 0;
  for (int q = 0; q < numReads; ++q) {
    const int first = reads.start[q], length = reads.length(q);
    for (int i = 0; i < length; ++i) {
      const Match m = longestMatch(tree, ref, &reads.bases[first + i], length - i);
      const size_t p = static_cast<size_t>(first) + i;
      if (gotLength[p] != m.length || gotNode[p] != m.node) {
        return fail(fmt::format("read {} base {}: match length {} node {}, expected {} node {}",
                                q, i, gotLength[p], gotNode[p], m.length, m.node));
      }
      mems += m.length >= kMemLength ? 1 : 0;
      if (i == 0 && m.length == length) ++fullReads;
    }
  }
  if (std::string bad = checkAgainstGenome(ref, reads, gotLength, 512); !bad.empty()) {
    return fail(bad);
  }
  const double pct = 100.0 / kReferenceLength;
  return {true,
          fmt::format("{} reads ({} from a contaminant), {} positions: match lengths and nodes "
                      "exact; {:.1f}% of positions start a match of >= {} bases, {:.1f}% of "
                      "reads match whole; suffix tree of {} internal nodes ({} KiB) over a "
                      "{}-base genome (GC {:.0f}%, {:.0f}% interspersed repeats, {:.0f}% tandem)",
                      numReads, reads.contaminants, positions, 100.0 * mems / positions,
                      kMemLength, 100.0 * fullReads / numReads, tree.internalNodes,
                      tree.nodes.size() * sizeof(int) / 1024, kReferenceLength,
                      genome.gcBases * pct, genome.repeatBases * pct, genome.tandemBases * pct)};
}

}  // namespace mummer

Workload mummerWorkload() {
  return {"mummer",
          "irregular",
          "MUMmerGPU-like exact matching of sequencing reads on a genome's suffix tree, a thread "
          "per read: the longest match at every read position by suffix links",
          "reads (against a 64 Kbp genome)",
          1024,
          4096,
          65536,
          1u << 18,
          mummer::run,
          {mummer::kSpecThreads, {}, "threads per CTA of mummer_match (a thread per read)"}};
}

}  // namespace warpsim::workloads
