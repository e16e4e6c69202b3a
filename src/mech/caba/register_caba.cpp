// Registration of the CABA mechanism's implementations (called by the generated
// registerMechanisms(), src/mech/CMakeLists.txt).
#include <memory>

#include "mech/caba/caba_assist_warps.h"
#include "mech/caba/compressed_memory.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_caba(PluginRegistry& registry) {
  registry.add<mem::IMemoryCompression>(
      "line-compression",
      "compressed L2/DRAM lines from their real data (BDI, FPC, C-Pack or the best of them): "
      "whole-line bursts, per-line metadata with a metadata cache, compressed replies",
      [](const mem::IMemoryCompression::Context& c) {
        const mech::caba::MemoryCompressionParams p =
            c.tree != nullptr ? mech::caba::readMemoryCompressionParams(c.tree->section("compression"))
                              : mech::caba::MemoryCompressionParams{};
        return std::make_unique<mech::caba::CompressedMemory>(c, p);
      });
  registry.add<IAssistWarp>(
      "caba",
      "CABA assist warps: compressed lines arriving at the SM are decompressed by high-priority "
      "assist-warp routines (PTX) before the loads waiting for them resume; whole-line stores "
      "are compressed by low-priority ones before they leave",
      [](const IAssistWarp::Context& c) -> std::unique_ptr<IAssistWarp> {
        if (c.tree == nullptr)
          throw config::Error("config: error: sm.assist_warp.impl = \"caba\" needs the configuration");
        const mech::caba::MemoryCompressionParams memory =
            mech::caba::readMemoryCompressionParams(c.tree->section("compression"));
        const AssistControllerParams controller = readAssistControllerParams(c.section);
        const uint32_t line = c.tree->section("l2").u32("line", 128, "L2 line size in bytes");
        if (c.tree->section("l1").u32("line", 128, "L1 line size in bytes") != line)
          throw config::Error("config: error: sm.assist_warp.impl = \"caba\" needs l1.line = "
                              "l2.line (compressed lines move whole between them)");
        config::Section section = c.section;
        const uint32_t storeBuffer = section.u32(
            "store_buffer_lines", 16,
            "whole-line stores the SM holds while assist warps compress them (dedicated L1 sets)",
            0, 64);
        const bool directLoad = section.flag(
            "direct_load", false,
            "Direct-Load: the L1 keeps lines compressed (needs l1.keep_fill_form) and each load "
            "of a BDI line adds the base to the deltas the coalescer extracts, in a short assist "
            "routine, instead of decompressing the line");
        if (directLoad && memory.algorithm != mech::caba::Algorithm::BdiCaba)
          throw config::Error("config: error: sm.assist_warp.direct_load = true needs "
                              "compression.algorithm = \"bdi\" (base and deltas to extract)");
        if (directLoad && !c.tree->section("l1").flag("keep_fill_form", false,
                                                      "fills in a form stay in it"))
          throw config::Error("config: error: sm.assist_warp.direct_load = true needs "
                              "l1.keep_fill_form = true (the L1 keeps the lines compressed)");
        return std::make_unique<mech::caba::CabaAssistWarps>(c, memory, controller, line,
                                                             storeBuffer, directLoad);
      });
}

}  // namespace warpsim::timing
