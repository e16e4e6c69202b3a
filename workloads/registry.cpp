#include <fmt/format.h>

#include "embedded_ptx.h"
#include "runtime/error.h"
#include "workload.h"

namespace warpsim::workloads {

// One per workload directory (defined in <name>/driver.cpp).
Workload vecaddWorkload();
Workload saxpyWorkload();
Workload sgemmTiledWorkload();

std::vector<Workload> allWorkloads() {
  return {
      vecaddWorkload(),     saxpyWorkload(),       
      sgemmTiledWorkload(),   
       
         
      
           
                     
      
                      
               
        
  };
}

uint64_t presetSize(const Workload& w, SizePreset preset) {
  switch (preset) {
    case SizePreset::Small: return w.smallSize;
    case SizePreset::Default: return w.defaultSize;
    case SizePreset::Large: return w.largeSize;
  }
  return w.defaultSize;
}

void registerAll(app::ExampleRegistry& registry) {
  for (Workload& w : allWorkloads()) {
    registry.add({w.name, fmt::format("[{}] {}", w.category, w.description), w.defaultSize,
                  w.maxSize, w.sizeMeaning, std::move(w.run)});
  }
}

std::string_view workloadPtx(std::string_view name) {
  for (const EmbeddedPtx& f : embeddedWorkloadPtx()) {
    if (f.name == name) return f.text;
  }
  throw runtime::Error(fmt::format("no embedded PTX for workload '{}'", name));
}

}  // namespace warpsim::workloads
