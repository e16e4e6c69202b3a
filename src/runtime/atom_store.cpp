#include "runtime/atom_store.h"

#include <fmt/format.h>

#include "runtime/error.h"

namespace warpsim::runtime {

uint32_t AtomStore::create(const std::string& site, const hints::AtomAttributes& attributes) {
  if (auto it = bySite_.find(site); it != bySite_.end()) return it->second;
  if (attributes_.size() >= hints::kMaxAtoms) {
    throw Error(fmt::format("CreateAtom at {}: the program already has {} atoms, the most atom ids hold", site,
                            hints::kMaxAtoms));
  }
  const auto id = static_cast<uint32_t>(attributes_.size());
  attributes_.push_back(attributes);
  bySite_.emplace(site, id);
  return id;
}

void AtomStore::issue(const hints::AtomOp& op) {
  if (std::string why = hints::checkAtomId(op, attributes_.size()); !why.empty()) throw Error(why);
  if (std::string why = hints::checkAtomOp(op); !why.empty()) throw Error(why);
  pending_.push_back(op);
}

hints::LaunchAtoms AtomStore::take() {
  hints::LaunchAtoms out;
  out.attributes = attributes_;
  out.newOps = pending_.size();
  if (!pending_.empty()) history_.push_back(std::make_shared<const std::vector<hints::AtomOp>>(std::move(pending_)));
  pending_.clear();
  out.history = history_;
  return out;
}

}  // namespace warpsim::runtime
