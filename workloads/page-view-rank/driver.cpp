// page-view-rank: views per page from a click log of (source, target) page records (global
// atomics), then the pages ordered by views with an LSD radix sort and their ranks (see
// page-view-rank.cu).
#include <algorithm>
#include <numeric>

#include "check.h"
#include "workload.h"
#include "zipf.h"

namespace warpsim::workloads {

namespace page_view_rank {

constexpr uint32_t kThreads = 256;       // THREADS of page-view-rank.cu
constexpr uint32_t kTile = 1024;         // TILE
constexpr uint32_t kScanThreads = 1024;  // SCAN_THREADS
constexpr int kKeyBits = 24;             // keys are 0xffffff - views (views <= records <= 2^23)

// A web site of `pages` pages: page 0 is the home page, the rest fall into sections of 32 to 256
// consecutive ids whose first page is the section's index. Every page links to the home page,
// its section's index, the previous and next page of its section, 2 to 6 other pages of its
// section and one or two of the site's featured pages.
std::vector<std::vector<int>> makeSite(InputGenerator& gen, int pages,
                                       std::vector<int>& sectionIndexes) {
  std::vector<std::vector<int>> links(pages);
  std::vector<int> featured(16);
  for (int& f : featured) f = static_cast<int>(gen.uniform(1, pages - 1));
  for (int first = 1; first < pages;) {
    int last = std::min(pages - 1, first + static_cast<int>(gen.uniform(32, 256)) - 1);
    sectionIndexes.push_back(first);
    for (int p = first; p <= last; ++p) {
      std::vector<int>& out = links[p];
      out.push_back(0);
      if (p != first) out.push_back(first);
      if (p > first) out.push_back(p - 1);
      if (p < last) out.push_back(p + 1);
      for (int k = static_cast<int>(gen.uniform(2, 6)); k > 0; --k) {
        out.push_back(static_cast<int>(gen.uniform(first, last)));
      }
      for (int k = static_cast<int>(gen.uniform(1, 2)); k > 0; --k) {
        out.push_back(featured[gen.next() % featured.size()]);
      }
    }
    first = last + 1;
  }
  for (int s : sectionIndexes) links[0].push_back(s);  // the home page's menu
  for (int f : featured) links[0].push_back(f);
  return links;
}

// The click log: eight visits at a time, interleaved as a server logs them. A visit enters from
// outside (source -1: a search engine or a bookmark) at the home page (30%), a section index
// (20%, Zipf over the sections) or a deep page (Zipf over a random order of the pages), then
// follows a link of the current page with probability 3/4 at every step.
std::vector<int> makeLog(InputGenerator& gen, int pages, size_t records) {
  std::vector<int> sections;
  const std::vector<std::vector<int>> links = makeSite(gen, pages, sections);
  std::vector<int> landing(pages);
  std::iota(landing.begin(), landing.end(), 0);
  for (int i = pages - 1; i > 0; --i) std::swap(landing[i], landing[gen.next() % (i + 1)]);
  const Zipf sectionPopularity(sections.size()), pagePopularity(pages);
  std::vector<int> log;
  log.reserve(2 * records);
  std::vector<int> current(8, -1);  // -1: the visit is over, start a new one
  while (log.size() < 2 * records) {
    int& page = current[gen.next() % current.size()];
    int next;
    if (page < 0 || gen.uniform(0, 3) == 0) {
      int u = static_cast<int>(gen.uniform(0, 9));
      next = u < 3   ? 0
             : u < 5 ? sections[sectionPopularity.sample(gen)]
                     : landing[pagePopularity.sample(gen)];
      page = -1;
    } else {
      const std::vector<int>& out = links[page];
      next = out[gen.next() % out.size()];
    }
    log.push_back(page);
    log.push_back(next);
    page = next;
  }
  return log;
}

Outcome run(WorkloadContext& ctx) {
  const int records = static_cast<int>(ctx.size);
  const int pages = std::max(1024, records / 16);
  InputGenerator gen(ctx.seed);
  std::vector<int> log = makeLog(gen, pages, records);

  // Reference: views per page, the pages by views (descending) then id, and the ranks.
  // Verification is exact (integers, and a total order).
  std::vector<unsigned> views(pages, 0);
  for (int r = 0; r < records; ++r) ++views[log[2 * r + 1]];
  std::vector<unsigned> order(pages), rank(pages);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return views[a] > views[b]; });
  for (int i = 0; i < pages; ++i) rank[order[i]] = i;

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("page-view-rank"), "page-view-rank.ptx");
  const uint32_t tiles = ceilDiv(pages, kTile);
  uint64_t dLog = gpu.upload(log), dViews = gpu.malloc(pages * sizeof(unsigned));
  uint64_t dKeys[2] = {gpu.malloc(pages * 4ull), gpu.malloc(pages * 4ull)};
  uint64_t dValues[2] = {gpu.malloc(pages * 4ull), gpu.malloc(pages * 4ull)};
  uint64_t dHist = gpu.malloc(256ull * tiles * sizeof(unsigned));
  uint64_t dRank = gpu.malloc(pages * sizeof(unsigned));
  gpu.memset(dViews, 0, pages * sizeof(unsigned));
  launch(ctx, mod.kernel("pvr_count"), {ceilDiv(records, kThreads)}, {kThreads}, 0, dLog, records,
         dViews);
  launch(ctx, mod.kernel("pvr_keys"), {ceilDiv(pages, kThreads)}, {kThreads}, 0, dViews, pages,
         dKeys[0], dValues[0]);
  int in = 0;
  for (int shift = 0; shift < kKeyBits; shift += 8, in ^= 1) {
    launch(ctx, mod.kernel("radix_histogram"), {tiles}, {kThreads}, 0, dKeys[in], pages, shift,
           dHist);
    launch(ctx, mod.kernel("radix_scan"), {1}, {kScanThreads}, 0, dHist,
           static_cast<int>(256 * tiles));
    launch(ctx, mod.kernel("radix_scatter"), {tiles}, {kThreads}, 0, dKeys[in], dValues[in], pages,
           shift, dHist, dKeys[in ^ 1], dValues[in ^ 1]);
  }
  launch(ctx, mod.kernel("pvr_rank"), {ceilDiv(pages, kThreads)}, {kThreads}, 0, dValues[in], pages,
         dRank);

  std::string bad = exactMismatch("views", gpu.download<unsigned>(dViews, pages), views);
  if (bad.empty()) bad = exactMismatch("order", gpu.download<unsigned>(dValues[in], pages), order);
  if (bad.empty()) bad = exactMismatch("rank", gpu.download<unsigned>(dRank, pages), rank);
  if (!bad.empty()) return fail(bad);
  const size_t unseen = std::count(views.begin(), views.end(), 0u);
  return {true,
          fmt::format("{} records over {} pages (most viewed: page {} with {} views; {} never "
                      "viewed), exact",
                      records, pages, order[0], views[order[0]], unseen)};
}

}  // namespace page_view_rank

Workload pageViewRankWorkload() {
  return {"page-view-rank",
          "reduction",
          "MapReduce page view rank of a click log: atomic view counts, radix sort by views",
          "click records (pages = records / 16)",
          1u << 16,
          1u << 20,
          1u << 22,
          1u << 23,
          page_view_rank::run};
}

}  // namespace warpsim::workloads
