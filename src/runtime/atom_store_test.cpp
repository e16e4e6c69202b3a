// XMem atoms until a launch takes them: ids per site, the id limit, the operations in order, and
// the one-line errors.
#include "runtime/atom_store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/error.h"
#include "runtime/hint_store.h"

namespace warpsim::runtime {
namespace {

hints::AtomAttributes reuse(uint8_t r) {
  hints::AtomAttributes a;
  a.reuse = r;
  return a;
}

hints::AtomOp map(uint32_t atom, uint64_t base, uint64_t bytes) {
  hints::AtomOp op;
  op.atom = atom;
  op.base = base;
  op.lenX = op.sizeX = bytes;
  return op;
}

TEST(AtomStore, OneSiteOneAtomAndItsFirstAttributesStay) {
  AtomStore s;
  EXPECT_EQ(s.create("a.cu:10", reuse(3)), 0u);
  EXPECT_EQ(s.create("a.cu:12", reuse(5)), 1u);
  EXPECT_EQ(s.create("a.cu:10", reuse(9)), 0u);  // the same site: the same atom, attributes unchanged
  const hints::LaunchAtoms taken = s.take();
  ASSERT_EQ(taken.attributes.size(), 2u);
  EXPECT_EQ(taken.attributes[0].reuse, 3);
  EXPECT_EQ(taken.attributes[1].reuse, 5);
}

TEST(AtomStore, At256AtomsTheNextSiteIsRefused) {
  AtomStore s;
  for (uint32_t i = 0; i < hints::kMaxAtoms; ++i) EXPECT_EQ(s.create("k.cu:" + std::to_string(i), reuse(0)), i);
  EXPECT_EQ(s.create("k.cu:7", reuse(0)), 7u);  // a known site still answers
  try {
    s.create("k.cu:999", reuse(0));
    FAIL() << "a 257th atom was created";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "CreateAtom at k.cu:999: the program already has 256 atoms, the most atom ids hold");
  }
}

TEST(AtomStore, OperationsGoWithTheNextTakeInOrder) {
  AtomStore s;
  s.create("x:1", reuse(1));
  s.issue(map(0, 0x1000, 64));
  hints::AtomOp on;
  on.kind = hints::AtomOp::Kind::Activate;
  s.issue(on);
  hints::LaunchAtoms first = s.take();
  EXPECT_EQ(first.newOps, 2u);
  std::vector<hints::AtomOp> ops;
  first.forEachOpFrom(0, [&](const hints::AtomOp& op) { ops.push_back(op); });
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].kind, hints::AtomOp::Kind::Map);
  EXPECT_EQ(ops[0].base, 0x1000u);
  EXPECT_EQ(ops[1].kind, hints::AtomOp::Kind::Activate);
  const hints::LaunchAtoms second = s.take();
  EXPECT_EQ(second.newOps, 0u);
  EXPECT_EQ(second.opCount(), 2u);          // the history goes with every launch
  EXPECT_EQ(second.attributes.size(), 1u);  // and so do the atoms
  s.issue(map(0, 0x2000, 64));
  const hints::LaunchAtoms third = s.take();
  EXPECT_EQ(third.newOps, 1u);
  ASSERT_EQ(third.history.size(), 2u);
  ops.clear();
  third.forEachOpFrom(1, [&](const hints::AtomOp& op) { ops.push_back(op); });  // a unit that applied one
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].kind, hints::AtomOp::Kind::Activate);
  EXPECT_EQ(ops[1].base, 0x2000u);
  EXPECT_EQ(first.opCount(), 2u);  // an earlier launch's history is unchanged
}

TEST(AtomStore, AnUnknownAtomOrAMalformedBlockIsRefused) {
  AtomStore s;
  s.create("x:1", reuse(1));
  EXPECT_THROW(s.issue(map(1, 0x1000, 64)), Error);
  try {
    s.issue(map(0, 0x1000, 0));
    FAIL() << "an empty block was taken";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "AtomMap: the block is empty (sizeX 0, sizeY 1, sizeZ 1)");
  }
  EXPECT_EQ(s.take().opCount(), 0u);
}

TEST(AtomStore, LaunchesWithoutDescriptorsTakeTheAtoms) {
  HintStore h;
  EXPECT_EQ(h.take("k"), nullptr);
  h.atoms().create("x:1", reuse(1));
  h.atoms().issue(map(0, 0x1000, 64));
  const auto hints = h.take("k");
  ASSERT_NE(hints, nullptr);
  EXPECT_TRUE(hints->locality.empty());
  EXPECT_EQ(hints->atoms.newOps, 1u);
  EXPECT_FALSE(hints->empty());
}

}  // namespace
}  // namespace warpsim::runtime
