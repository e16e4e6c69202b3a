// The AST: one bit per atom, all 256 ids, clear at first.
#include "mech/xmem/atom_status_table.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace warpsim::mech::xmem {
namespace {

TEST(AtomStatusTable, ActivateAndDeactivateFlipOneBit) {
  AtomStatusTable ast;
  EXPECT_EQ(ast.activeCount(), 0u);
  ast.activate(0);
  ast.activate(255);
  EXPECT_TRUE(ast.isActive(0));
  EXPECT_TRUE(ast.isActive(255));
  EXPECT_FALSE(ast.isActive(1));
  EXPECT_EQ(ast.activeCount(), 2u);
  ast.deactivate(0);
  EXPECT_FALSE(ast.isActive(0));
  EXPECT_TRUE(ast.isActive(255));
  ast.deactivate(0);  // twice is harmless
  EXPECT_EQ(ast.activeCount(), 1u);
  ast.clear();
  EXPECT_FALSE(ast.isActive(255));
}

TEST(AtomStatusTable, IdsOf256OrMoreAreRefusedAndNeverActive) {
  AtomStatusTable ast;
  EXPECT_THROW(ast.activate(256), std::invalid_argument);
  EXPECT_THROW(ast.deactivate(256), std::invalid_argument);
  EXPECT_FALSE(ast.isActive(256));
  EXPECT_EQ(ast.activeCount(), 0u);
}

}  // namespace
}  // namespace warpsim::mech::xmem
