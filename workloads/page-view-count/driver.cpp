// page-view-count: MapReduce page view count over a synthetic web-server access log: a map
// kernel parses each line and hashes its URL, the reduce groups the keys in a global hash table
// built in claim-and-settle rounds (deterministic under any timing) and counts with atomics
// (see page-view-count.cu).
#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <unordered_map>

#include "check.h"
#include "workload.h"
#include "zipf.h"

namespace warpsim::workloads {

namespace page_view_count {

constexpr uint32_t kThreads = 256;

template <size_t N>
const char* pick(InputGenerator& gen, const std::array<const char*, N>& words) {
  return words[gen.next() % N];
}

const std::array<const char*, 12> kCategories = {"laptops", "phones",  "cameras", "audio",
                                                 "garden",  "kitchen", "books",   "toys",
                                                 "shoes",   "bikes",   "tools",   "games"};
const std::array<const char*, 24> kWords = {
    "fast",   "compact", "classic", "pro",    "mini",    "outdoor", "wireless", "smart",
    "travel", "home",    "review",  "guide",  "setup",   "update",  "release",  "notes",
    "tips",   "best",    "cheap",   "how-to", "compare", "summer",  "winter",   "support"};
const std::array<const char*, 8> kDocTopics = {"install", "config",  "api",      "faq",
                                               "billing", "account", "shipping", "returns"};
// What vulnerability scanners ask for (all 404).
const std::array<const char*, 10> kProbes = {
    "/wp-login.php", "/.env",         "/admin/config.php", "/phpmyadmin/index.php",
    "/.git/config",  "/xmlrpc.php",   "/cgi-bin/test.cgi", "/wp-admin/setup.php",
    "/backup.zip",   "/server-status"};

struct Page {
  std::string path;
  int bytes;
};

// The site: a few entry pages, then product, blog, documentation, search and image pages in
// random order. A page's index is its popularity rank.
std::vector<Page> makeSite(InputGenerator& gen, size_t count) {
  std::vector<Page> site = {{"/", 8312},       {"/index.html", 8312}, {"/products/", 15220},
                            {"/blog/", 11876}, {"/about.html", 4410}, {"/contact.html", 3985}};
  std::set<std::string> seen;
  for (const Page& p : site) seen.insert(p.path);
  while (site.size() < count) {
    std::string path;
    int bytes = 0;
    int kind = static_cast<int>(gen.uniform(0, 99));
    if (kind < 45) {
      path = fmt::format("/products/{}/{}-{}-{}.html", pick(gen, kCategories), pick(gen, kWords),
                         pick(gen, kWords), gen.uniform(1000, 9999));
      bytes = static_cast<int>(gen.uniform(9000, 42000));
    } else if (kind < 70) {
      path =
          fmt::format("/blog/{}/{:02}/{}-{}-{}.html", gen.uniform(2019, 2026), gen.uniform(1, 12),
                      pick(gen, kWords), pick(gen, kWords), pick(gen, kWords));
      bytes = static_cast<int>(gen.uniform(12000, 64000));
    } else if (kind < 82) {
      path = fmt::format("/docs/{}/{}-{}.html", pick(gen, kDocTopics), pick(gen, kWords),
                         pick(gen, kWords));
      bytes = static_cast<int>(gen.uniform(5000, 30000));
    } else if (kind < 90) {
      path = fmt::format("/search?q={}+{}", pick(gen, kCategories), pick(gen, kWords));
      bytes = static_cast<int>(gen.uniform(6000, 20000));
    } else {
      path = fmt::format("/images/{}/{}.jpg", pick(gen, kCategories), gen.uniform(10000, 99999));
      bytes = static_cast<int>(gen.uniform(20000, 400000));
    }
    if (seen.insert(path).second) site.push_back({path, bytes});
  }
  return site;
}

// Clients: addresses in a few dozen public /8 blocks, several of them in the same /16 (one
// ISP's customers), activity Zipf-like (a few crawlers and proxies do most of the requests).
std::vector<std::string> makeClients(InputGenerator& gen, size_t count) {
  static const std::array<int, 24> firstOctets = {24,  31,  46,  62,  66,  73,  78,  81,
                                                  82,  86,  88,  90,  93,  98,  104, 109,
                                                  151, 176, 185, 188, 193, 203, 212, 217};
  std::vector<std::string> clients;
  std::set<std::string> seen;
  std::vector<std::pair<int, int>> isps;
  for (int i = 0; i < 16; ++i) {
    isps.push_back(
        {firstOctets[gen.next() % firstOctets.size()], static_cast<int>(gen.uniform(0, 255))});
  }
  while (clients.size() < count) {
    auto [a, b] = isps[gen.next() % isps.size()];
    std::string ip = fmt::format("{}.{}.{}.{}", a, b, gen.uniform(0, 255), gen.uniform(1, 254));
    if (seen.insert(ip).second) clients.push_back(ip);
  }
  return clients;
}

// Seconds since 1 Jan 2026 00:00:00 as an access-log timestamp "[dd/Mon/yyyy:hh:mm:ss +0000]".
std::string timestamp(int64_t seconds) {
  static const std::array<const char*, 12> months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  static const std::array<int, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int64_t day = seconds / 86400, rest = seconds % 86400;
  int year = 2026, month = 0;
  while (day >= days[month]) {  // 2026 and 2027 are not leap years
    day -= days[month];
    if (++month == 12) month = 0, ++year;
  }
  return fmt::format("[{:02}/{}/{}:{:02}:{:02}:{:02} +0000]", day + 1, months[month], year,
                     rest / 3600, rest / 60 % 60, rest % 60);
}

struct Log {
  std::string text;
  std::vector<unsigned> lineStart;  // lines + 1 offsets (the last is the end of the text)
  std::vector<std::string> urls;    // the URL of each line
};

// The access log: a handful of concurrent visits interleaved, each a client viewing 1 to 8
// pages (Zipf popularity) a few seconds apart; a page view often pulls the stylesheet, the
// script and the logo (mostly "304 Not Modified"); 2% of the lines are a scanner's probes (404).
// The clock advances by 0 to 2 seconds a line.
Log makeLog(InputGenerator& gen, size_t lines) {
  const std::vector<Page> site = makeSite(gen, std::max<size_t>(256, lines / 8));
  const std::vector<std::string> clients = makeClients(gen, std::max<size_t>(64, lines / 64));
  const Zipf pagePopularity(site.size()), clientActivity(clients.size());
  const std::array<std::pair<const char*, int>, 3> assets = {
      std::pair{"/css/site.css", 18430}, {"/js/app.js", 96211}, {"/images/logo.png", 7104}};
  struct Visit {
    size_t client;
    int pagesLeft;
    std::vector<std::pair<std::string, int>> pending;  // requests about to follow (assets)
  };
  auto newVisit = [&] {
    return Visit{clientActivity.sample(gen), static_cast<int>(gen.uniform(1, 8)), {}};
  };
  std::vector<Visit> visits;
  for (int i = 0; i < 6; ++i) visits.push_back(newVisit());
  const std::string scanner =
      fmt::format("45.{}.{}.{}", gen.uniform(0, 255), gen.uniform(0, 255), gen.uniform(1, 254));
  Log log;
  int64_t clock = 86400 * 58 + 6 * 3600 + gen.uniform(0, 3599);  // a morning in late February
  while (log.urls.size() < lines) {
    clock += gen.uniform(0, 2);
    std::string ip, method = "GET", url;
    int status = 200, bytes = 0;
    if (gen.uniform(0, 99) < 2) {
      ip = scanner;
      url = pick(gen, kProbes);
      method = gen.uniform(0, 3) == 0 ? "POST" : "GET";
      status = 404;
      bytes = 196;
    } else {
      Visit& v = visits[gen.next() % visits.size()];
      ip = clients[v.client];
      if (!v.pending.empty()) {
        std::tie(url, bytes) = v.pending.back();
        v.pending.pop_back();
        if (gen.uniform(0, 9) < 8) status = 304;
      } else {
        const Page& page = site[pagePopularity.sample(gen)];
        url = page.path;
        bytes = page.bytes + static_cast<int>(gen.uniform(-page.bytes / 10, page.bytes / 10));
        if (url.rfind("/search", 0) != 0 && gen.uniform(0, 99) < 3) method = "HEAD";
        if (gen.uniform(0, 99) < 6) status = 304;
        for (const auto& a : assets) {
          if (gen.uniform(0, 3) == 0) v.pending.push_back(a);
        }
        --v.pagesLeft;
      }
      if (v.pending.empty() && v.pagesLeft <= 0) v = newVisit();
    }
    const char* version = gen.uniform(0, 4) == 0 ? "HTTP/2.0" : "HTTP/1.1";
    std::string size = status == 304 ? "-" : std::to_string(bytes);
    log.lineStart.push_back(static_cast<unsigned>(log.text.size()));
    log.text += fmt::format("{} - - {} \"{} {} {}\" {} {}\n", ip, timestamp(clock), method, url,
                            version, status, size);
    log.urls.push_back(url);
  }
  log.lineStart.push_back(static_cast<unsigned>(log.text.size()));
  return log;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h == 0 ? 1 : h;
}

Outcome run(WorkloadContext& ctx) {
  const int lines = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  Log log = makeLog(gen, lines);
  // The reference groups the URLs as strings. Verification is exact: integer counts and line
  // numbers. It also needs distinct URLs to have distinct 64-bit hashes (the kernel groups by
  // hash); a collision would be reported as such.
  struct Expected {
    unsigned count = 0, firstLine = 0;
    std::string url;
  };
  std::unordered_map<uint64_t, Expected> expect;
  for (int i = 0; i < lines; ++i) {
    auto [it, added] =
        expect.try_emplace(fnv1a(log.urls[i]), Expected{0, static_cast<unsigned>(i), log.urls[i]});
    if (!added && it->second.url != log.urls[i]) {
      return fail(
          fmt::format("input: '{}' and '{}' have the same hash", it->second.url, log.urls[i]));
    }
    ++it->second.count;
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("page-view-count"), "page-view-count.ptx");
  std::vector<uint8_t> text(log.text.begin(), log.text.end());
  text.resize((text.size() + 3) / 4 * 4, ' ');
  // The table holds at least twice as many slots as there could be URLs (one per four lines).
  uint32_t capacity = 1024;
  while (capacity < static_cast<uint32_t>(lines) / 2) capacity *= 2;
  uint64_t dLog = gpu.upload(text), dLineStart = gpu.upload(log.lineStart);
  uint64_t dKeys = gpu.malloc(lines * sizeof(uint64_t)),
           dValues = gpu.malloc(lines * sizeof(unsigned));
  uint64_t dTableKeys = gpu.malloc(capacity * sizeof(uint64_t));
  uint64_t dTableCounts = gpu.malloc(capacity * sizeof(unsigned));
  uint64_t dTableFirst = gpu.malloc(capacity * sizeof(unsigned));
  gpu.memset(dTableKeys, 0, capacity * sizeof(uint64_t));
  gpu.memset(dTableCounts, 0, capacity * sizeof(unsigned));
  gpu.memset(dTableFirst, 0xff, capacity * sizeof(unsigned));
  const uint32_t blocks = ceilDiv(lines, kThreads);
  launch(ctx, mod.kernel("pvc_map"), {blocks}, {kThreads}, 0, dLog, dLineStart, lines, dKeys,
         dValues);
  uint64_t dSlot = gpu.malloc(lines * sizeof(unsigned)), dStatus = gpu.malloc(lines);
  uint64_t dClaim = gpu.malloc(capacity * sizeof(unsigned)),
           dProbing = gpu.malloc(sizeof(unsigned));
  gpu.memset(dStatus, 0, lines);  // PROBING
  gpu.memset(dClaim, 0xff, capacity * sizeof(unsigned));
  launch(ctx, mod.kernel("pvc_home"), {blocks}, {kThreads}, 0, dKeys, lines, dSlot, capacity - 1);
  int rounds = 0;
  for (unsigned probing = 1; probing != 0; ++rounds) {
    // Every round places the records of at least one key (the smallest record among those
    // claiming), so there are at most as many rounds as distinct keys.
    if (rounds > lines) return fail("the hash table never settled");
    gpu.memset(dProbing, 0, sizeof(unsigned));
    launch(ctx, mod.kernel("pvc_claim"), {blocks}, {kThreads}, 0, dKeys, lines, dTableKeys, dClaim,
           dSlot, dStatus, dProbing, capacity - 1);
    launch(ctx, mod.kernel("pvc_settle"), {blocks}, {kThreads}, 0, dKeys, lines, dTableKeys, dClaim,
           dSlot, dStatus, capacity - 1);
    probing = gpu.download<unsigned>(dProbing, 1)[0];
  }
  launch(ctx, mod.kernel("pvc_reduce"), {blocks}, {kThreads}, 0, dSlot, dValues, lines,
         dTableCounts, dTableFirst);

  std::vector<uint64_t> keys = gpu.download<uint64_t>(dTableKeys, capacity);
  std::vector<unsigned> counts = gpu.download<unsigned>(dTableCounts, capacity);
  std::vector<unsigned> first = gpu.download<unsigned>(dTableFirst, capacity);
  size_t occupied = 0;
  for (uint32_t s = 0; s < capacity; ++s) {
    if (keys[s] == 0) continue;
    ++occupied;
    auto it = expect.find(keys[s]);
    if (it == expect.end()) {
      return fail(fmt::format("slot {}: key {:#x} is the hash of no URL of the log", s, keys[s]));
    }
    if (counts[s] != it->second.count || first[s] != it->second.firstLine) {
      return fail(fmt::format("'{}': {} views first on line {}, expected {} first on line {}",
                              it->second.url, counts[s], first[s], it->second.count,
                              it->second.firstLine));
    }
  }
  if (occupied != expect.size()) {
    return fail(fmt::format("{} URLs in the table, expected {}", occupied, expect.size()));
  }
  unsigned top = 0;
  for (const auto& [key, e] : expect) top = std::max(top, e.count);
  return {true, fmt::format("{} log lines ({} bytes), {} distinct URLs (the most viewed {} "
                            "times) in a {}-slot table ({} rounds), exact",
                            lines, log.text.size(), expect.size(), top, capacity, rounds)};
}

}  // namespace page_view_count

Workload pageViewCountWorkload() {
  return {"page-view-count",
          "reduction",
          "MapReduce page view count of a web access log: parse and hash URLs, hash-table reduce",
          "log lines",
          4096,
          65536,
          1u << 20,
          1u << 22,
          page_view_count::run};
}

}  // namespace warpsim::workloads
