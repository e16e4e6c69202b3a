// Test helper: one SM with a fixed-latency fake memory pipeline, a hand-written PTX kernel and
// an issue trace. Test-only (included from *_test.cpp).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "func/functional_gpu.h"
#include "func/testing/kernel_runner.h"
#include "timing/plugin_registry.h"
#include "timing/sm/sm.h"
#include "timing/sm/sm_baselines.h"

namespace warpsim::timing::testing {

// Completes every instruction `latency` cycles after it is accepted; accepts at most
// `perCycle` instructions per cycle, and only in cycles that are multiples of `every`.
class FakeMemory final : public SmMemory {
 public:
  explicit FakeMemory(uint32_t latency, uint32_t perCycle = 1000, uint32_t every = 1)
      : latency_(latency), perCycle_(perCycle), every_(every) {}
  bool canAccept(const func::ExecRecord&) const override {
    return acceptedThisCycle_ < perCycle_ && now_ % every_ == 0;
  }
  void accept(const func::ExecRecord& r, uint32_t token, Cycle now) override {
    if (now != lastAccept_) acceptedThisCycle_ = 0;
    lastAccept_ = now;
    ++acceptedThisCycle_;
    pending_.push_back({token, now + latency_});
    accepted.push_back({r.space, r.isStore, r.isAtomic, r.execMask, r.addr[0], now});
  }
  void cycle(Cycle now) override {
    now_ = now;
    if (now != lastAccept_) acceptedThisCycle_ = 0;
    while (!pending_.empty() && pending_.front().done <= now) {
      done_.push_back(pending_.front().token);
      pending_.pop_front();
    }
  }
  bool popCompleted(uint32_t& token) override {
    if (done_.empty()) return false;
    token = done_.front();
    done_.pop_front();
    return true;
  }
  bool idle() const override { return pending_.empty() && done_.empty(); }
  Cycle nextEvent(Cycle now) const override {
    if (!done_.empty()) return now;
    return pending_.empty() ? kNever : std::max(now, pending_.front().done);
  }

  struct Access {
    ir::Space space;
    bool isStore, isAtomic;
    uint32_t execMask;
    uint64_t addr0;
    Cycle at;
  };
  std::vector<Access> accepted;

 private:
  struct Pending {
    uint32_t token;
    Cycle done;
  };
  uint32_t latency_, perCycle_, every_;
  uint32_t acceptedThisCycle_ = 0;
  Cycle now_ = 0;
  Cycle lastAccept_ = kNever;
  std::deque<Pending> pending_;
  std::deque<uint32_t> done_;
};

struct Issue {
  uint32_t scheduler, slot, warp, cta, pc;
  Cycle at;
};

class TraceRecorder final : public SmTrace {
 public:
  void onIssue(uint32_t, uint32_t scheduler, uint32_t slot, const func::ExecRecord& r, Cycle now) override {
    issues.push_back({scheduler, slot, r.warpInCta, r.ctaLinear, r.pc, now});
  }
  // Issue cycles of warp `warp` (CTA `cta`), in order.
  std::vector<Cycle> cyclesOf(uint32_t warp, uint32_t cta = 0) const {
    std::vector<Cycle> out;
    for (const Issue& i : issues)
      if (i.warp == warp && i.cta == cta) out.push_back(i.at);
    return out;
  }
  // Issue cycle of warp's instruction at `pc` (first time), or kNever.
  Cycle at(uint32_t warp, uint32_t pc, uint32_t cta = 0) const {
    for (const Issue& i : issues)
      if (i.warp == warp && i.pc == pc && i.cta == cta) return i.at;
    return kNever;
  }
  std::vector<Issue> issues;
};

// A small SM configuration for exact-cycle tests: one scheduler, GTO, a large instruction
// cache line so kernels sit in one line, short latencies. `overrides` ("table.key", "value" in
// TOML syntax) replace or add keys.
inline std::string testConfig(const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
  std::vector<std::pair<std::string, std::string>> keys = {
      {"sm.max_warps", "8"},           {"sm.schedulers", "1"},
      {"sm.ibuffer_entries", "2"},     {"sm.decode_latency", "1"},
      {"sm.icache.size", "4096"},      {"sm.icache.line", "512"},
      {"sm.icache.assoc", "2"},        {"sm.icache.miss_latency", "10"},
      {"sm.units.alu.count", "2"},     {"sm.units.alu.lanes", "16"},
      {"sm.units.alu.latency", "4"},   {"sm.units.sfu.count", "1"},
      {"sm.units.sfu.lanes", "4"},     {"sm.units.sfu.latency", "10"},
      {"sm.units.fp64.latency", "8"},  {"sm.units.lsu.count", "1"},
      {"sm.units.lsu.lanes", "16"},    {"sm.units.lsu.latency", "1"},
      {"sm.register_file.banks", "16"}, {"sm.register_file.collectors", "8"},
  };
  for (const auto& [k, v] : overrides) {
    bool found = false;
    for (auto& kv : keys)
      if (kv.first == k) {
        kv.second = v;
        found = true;
      }
    if (!found) keys.emplace_back(k, v);
  }
  // Group by table, in order of first appearance.
  std::vector<std::string> tables;
  for (const auto& kv : keys) {
    const std::string table = kv.first.substr(0, kv.first.rfind('.'));
    if (std::find(tables.begin(), tables.end(), table) == tables.end()) tables.push_back(table);
  }
  std::string out;
  for (const std::string& t : tables) {
    out += "[" + t + "]\n";
    for (const auto& kv : keys)
      if (kv.first.substr(0, kv.first.rfind('.')) == t) out += kv.first.substr(t.size() + 1) + " = " + kv.second + "\n";
  }
  return out;
}

// Runs a kernel's CTAs on one SM until all retire.
class SmHarness {
 public:
  SmHarness(const std::string& body, const std::string& toml, uint32_t memLatency = 20)
      : runner(func::testing::ptxModule(body)),
        tree(config::Tree::fromString(toml, "test.toml")),
        memory(memLatency) {
    registerSmBaselines(registry);
  }

  // Builds the SM (done by run() if not yet; call earlier to register test plug-ins first).
  Sm& build() {
    if (!sm) {
      SmContext c;
      c.id = 3;
      c.tree = &tree;
      c.registry = &registry;
      c.memory = &memory;
      sm = std::make_unique<Sm>(c);
      sm->setTrace(&trace);
    }
    return *sm;
  }

  // Launches `kernel` with `ctas` CTAs of `threads` threads and 64-bit arguments; runs until
  // every CTA retired (or `limit` cycles). skip: jump to nextEvent() instead of every cycle.
  // Returns the cycle in which the last CTA retired.
  Cycle run(const std::string& kernel, uint32_t ctas, uint32_t threads, std::vector<uint64_t> args = {},
            bool skip = true, Cycle limit = 100000) {
    prepare(kernel, ctas, threads, std::move(args));
    sm->beginKernel(*grid);
    return loop(ctas, threads, skip, limit);
  }

  // The launch's grid (in `grid`), the SM built.
  void prepare(const std::string& kernel, uint32_t ctas, uint32_t threads, std::vector<uint64_t> args) {
    build();
    const func::Program& p = runner.program();
    const int k = p.findKernel(kernel);
    EXPECT_GE(k, 0);
    cfg.grid = {ctas, 1, 1};
    cfg.block = {threads, 1, 1};
    const ir::Function& f = p.module().functions[static_cast<size_t>(k)];
    cfg.params.assign(f.kernelParamBytes, 0);
    for (size_t i = 0; i < args.size() && i < f.params.size(); ++i)
      std::memcpy(cfg.params.data() + f.params[i].offset, &args[i], std::min<uint32_t>(f.params[i].size, 8));
    EXPECT_EQ(func::validateLaunch(p, static_cast<uint32_t>(k), cfg, options), "");
    grid = std::make_unique<func::GridContext>(func::prepareGrid(p, static_cast<uint32_t>(k), cfg, runner.memory, options));
  }

  Cycle loop(uint32_t ctas, uint32_t threads, bool skip, Cycle limit) {
    uint32_t next = 0, done = 0;
    Cycle now = 0, last = 0;
    pool.clear();
    while (done < ctas && now < limit) {
      while (next < ctas && sm->freeWarpSlots() >= (threads + 31) / 32) {
        pool.push_back(std::make_unique<func::Cta>(*grid, next++));
        sm->admit(*pool.back(), now);
      }
      sm->cycle(now);
      if (!sm->error().empty()) break;
      for (func::Cta* c; sm->popRetired(c);) {
        ++done;
        last = now;
      }
      if (done == ctas) break;
      const bool admitNext = next < ctas && sm->freeWarpSlots() >= (threads + 31) / 32;
      now = skip && !admitNext ? std::max(now + 1, sm->nextEvent(now + 1)) : now + 1;
      if (now == kNever) break;
    }
    allRetired = done == ctas;
    if (expectAllRetired) {
      EXPECT_TRUE(allRetired) << "not all CTAs retired; SM state:\n" << sm->describeWarps();
    }
    sm->finishKernel(last + 1);
    return last;
  }

  nlohmann::json stats() const {
    nlohmann::json j = nlohmann::json::object();
    sm->reportStats(j);
    return j;
  }
  uint64_t issue(const char* reason) const { return stats()["issue"][reason].get<uint64_t>(); }
  uint64_t rf(const char* counter) const { return stats()["register_file"][counter].get<uint64_t>(); }

  bool expectAllRetired = true;  // run() fails the test when a CTA is left
  bool allRetired = false;
  func::testing::KernelRunner runner;
  config::Tree tree;
  PluginRegistry registry;
  FakeMemory memory;
  TraceRecorder trace;
  std::unique_ptr<Sm> sm;
  func::LaunchConfig cfg;
  func::RunOptions options;
  std::unique_ptr<func::GridContext> grid;
  std::vector<std::unique_ptr<func::Cta>> pool;
};

}  // namespace warpsim::timing::testing
