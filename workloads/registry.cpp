#include <fmt/format.h>

#include "embedded_ptx.h"
#include "runtime/error.h"
#include "workload.h"

namespace warpsim::workloads {

// One per workload directory (defined in <name>/driver.cpp).
Workload vecaddWorkload();
Workload saxpyWorkload();
Workload sgemmNaiveWorkload();
Workload sgemvNaiveWorkload();
Workload sgemmTiledWorkload();
Workload dgemmTiledWorkload();
Workload transposeWorkload();
Workload convSeparableWorkload();
Workload blackscholesWorkload();
Workload dct8x8Workload();
Workload reduceTreeWorkload();
Workload reduceShflWorkload();
Workload scanWorkload();
Workload histogramWorkload();
Workload scalarProdWorkload();
Workload bitonicSortWorkload();
Workload stencil2dWorkload();
Workload stencil3dWorkload();
Workload sradWorkload();
Workload hotspotWorkload();
Workload nbodyWorkload();
Workload barnesHutWorkload();
Workload ludWorkload();
Workload gaussianWorkload();
Workload backpropWorkload();
Workload fastWalshWorkload();
Workload binomialOptionsWorkload();
Workload monteCarloWorkload();
Workload mriQWorkload();
Workload cfdWorkload();
Workload bfsWorkload();
Workload spmvWorkload();
Workload kmeansWorkload();
Workload nwWorkload();
Workload pathfinderWorkload();
Workload mandelbrotWorkload();
Workload privateSortWorkload();
Workload spillWorkload();
Workload heartwallWorkload();
Workload pageViewCountWorkload();
Workload pageViewRankWorkload();
Workload ssspWorkload();
Workload mstWorkload();
Workload laplace3dWorkload();
Workload jpegDecodeWorkload();
Workload rayTraceWorkload();
Workload stringMatchWorkload();
Workload nqueensWorkload();
Workload pcrWorkload();
Workload mummerWorkload();
Workload syrkWorkload();
Workload ataxWorkload();
Workload mvtWorkload();
Workload doitgenWorkload();
Workload gemmL2tiledWorkload();
Workload gemvL2tiledWorkload();
Workload stencil2dL2tiledWorkload();
Workload conv2dL2tiledWorkload();
Workload syr2kL2tiledWorkload();
Workload conv2dWorkload();
Workload liborWorkload();
Workload lavamdWorkload();
Workload dwt2dWorkload();
Workload particlefilterWorkload();
Workload streamclusterWorkload();

std::vector<Workload> allWorkloads() {
  return {
      // streaming and dense
      vecaddWorkload(),
      saxpyWorkload(),
      sgemmNaiveWorkload(),
      sgemvNaiveWorkload(),
      sgemmTiledWorkload(),
      dgemmTiledWorkload(),
      transposeWorkload(),
      convSeparableWorkload(),
      blackscholesWorkload(),
      dct8x8Workload(),
      jpegDecodeWorkload(),
      syrkWorkload(),
      ataxWorkload(),
      mvtWorkload(),
      doitgenWorkload(),
      gemmL2tiledWorkload(),
      gemvL2tiledWorkload(),
      syr2kL2tiledWorkload(),
      // reductions, scans and sorting
      reduceTreeWorkload(),
      reduceShflWorkload(),
      scanWorkload(),
      histogramWorkload(),
      scalarProdWorkload(),
      bitonicSortWorkload(),
      pageViewCountWorkload(),
      pageViewRankWorkload(),
      // stencils and science
      stencil2dWorkload(),
      stencil2dL2tiledWorkload(),
      stencil3dWorkload(),
      laplace3dWorkload(),
      conv2dWorkload(),
      conv2dL2tiledWorkload(),
      dwt2dWorkload(),
      sradWorkload(),
      hotspotWorkload(),
      nbodyWorkload(),
      barnesHutWorkload(),
      ludWorkload(),
      gaussianWorkload(),
      backpropWorkload(),
      fastWalshWorkload(),
      binomialOptionsWorkload(),
      monteCarloWorkload(),
      liborWorkload(),
      mriQWorkload(),
      cfdWorkload(),
      lavamdWorkload(),
      pcrWorkload(),
      particlefilterWorkload(),
      // irregular and dynamic programming
      bfsWorkload(),
      ssspWorkload(),
      mstWorkload(),
      stringMatchWorkload(),
      mummerWorkload(),
      nqueensWorkload(),
      spmvWorkload(),
      kmeansWorkload(),
      streamclusterWorkload(),
      nwWorkload(),
      pathfinderWorkload(),
      // divergence and thread-private data
      mandelbrotWorkload(),
      rayTraceWorkload(),
      privateSortWorkload(),
      spillWorkload(),
      heartwallWorkload(),
  };
}

uint64_t presetSize(const Workload& w, SizePreset preset) {
  switch (preset) {
    case SizePreset::Small:
      return w.smallSize;
    case SizePreset::Default:
      return w.defaultSize;
    case SizePreset::Large:
      return w.largeSize;
  }
  return w.defaultSize;
}

const char* presetName(SizePreset preset) {
  switch (preset) {
    case SizePreset::Small:
      return "small";
    case SizePreset::Default:
      return "default";
    case SizePreset::Large:
      return "large";
  }
  return "default";
}

std::optional<SizePreset> parsePreset(std::string_view name) {
  if (name == "small") return SizePreset::Small;
  if (name == "default") return SizePreset::Default;
  if (name == "large") return SizePreset::Large;
  return std::nullopt;
}

const Workload* findWorkload(const std::vector<Workload>& all, std::string_view name) {
  for (const Workload& w : all) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

std::string_view workloadPtx(std::string_view name) {
  for (const EmbeddedPtx& f : embeddedWorkloadPtx()) {
    if (f.name == name) return f.text;
  }
  throw runtime::Error(fmt::format("no embedded PTX for workload '{}'", name));
}

}  // namespace warpsim::workloads
