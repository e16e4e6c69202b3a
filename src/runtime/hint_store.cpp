#include "runtime/hint_store.h"

#include <cxxabi.h>

#include <cstdlib>

#include "runtime/error.h"

namespace warpsim::runtime {

namespace {

void checkAgainst(const hints::LocalityDescriptor& d, const std::vector<hints::LocalityDescriptor>& others) {
  for (const hints::LocalityDescriptor& o : others) {
    if (std::string why = hints::checkOverlap(d, o); !why.empty()) throw Error(why);
  }
}

// A kernel's name as its source declares it: the PTX entry name demangled, without its
// parameter list ("_Z10histo_mainPj" -> "histo_main"); an extern "C" name as it is.
std::string declaredName(const std::string& entry) {
  int status = 0;
  char* text = abi::__cxa_demangle(entry.c_str(), nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return entry;
  std::string name(text);
  std::free(text);
  return name.substr(0, name.find('('));
}

}  // namespace

void HintStore::add(const hints::LocalityDescriptor& d, const std::string& kernel) {
  if (std::string why = hints::checkLocalityDescriptor(d); !why.empty()) throw Error(why);
  // A launch of `kernel` takes its own and the next launch's descriptors together; a descriptor
  // for the next launch meets those of whichever kernel comes, so it is checked against its
  // fellows only.
  checkAgainst(d, next_);
  if (!kernel.empty()) checkAgainst(d, byKernel_[kernel]);
  (kernel.empty() ? next_ : byKernel_[kernel]).push_back(d);
}

void HintStore::clear(const std::string& kernel) {
  if (kernel.empty()) {
    next_.clear();
  } else {
    byKernel_.erase(kernel);
  }
}

std::shared_ptr<const hints::LaunchHints> HintStore::take(const std::string& kernel) {
  auto own = byKernel_.find(kernel);
  if (own == byKernel_.end()) own = byKernel_.find(declaredName(kernel));
  if (next_.empty() && own == byKernel_.end() && atoms_.empty()) return nullptr;
  auto out = std::make_shared<hints::LaunchHints>();
  out->atoms = atoms_.take();
  if (own != byKernel_.end()) out->locality = own->second;
  const std::vector<hints::LocalityDescriptor> next = std::move(next_);
  next_.clear();  // used up even when the launch refuses them
  for (const hints::LocalityDescriptor& d : next) {
    checkAgainst(d, out->locality);
    out->locality.push_back(d);
  }
  return out;
}

}  // namespace warpsim::runtime
