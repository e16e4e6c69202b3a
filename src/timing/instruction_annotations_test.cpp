// InstructionAnnotations: tables sized per function, typed look-up, replacement, and the pass
// requests of models.
#include "timing/instruction_annotations.h"

#include <gtest/gtest.h>

namespace warpsim::timing {
namespace {

struct Levels {
  uint8_t src = 0, dst = 0;
};

TEST(InstructionAnnotations, TablesAreIndexedByFunctionAndPc) {
  InstructionAnnotations notes;
  notes.setCodeSizes({3, 2});
  AnnotationTable<Levels>& t = notes.add<Levels>("levels");
  ASSERT_EQ(t.functions(), 2u);
  EXPECT_EQ(t.size(0), 3u);
  EXPECT_EQ(t.size(1), 2u);
  t.at(1, 0).src = 7;
  t.at(0, 2).dst = 5;
  const AnnotationTable<Levels>* found = notes.find<Levels>("levels");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->at(1, 0).src, 7);
  EXPECT_EQ(found->at(0, 2).dst, 5);
  EXPECT_EQ(found->at(0, 0).src, 0);  // records start as T{}
}

TEST(InstructionAnnotations, LookUpNeedsTheNameAndTheType) {
  InstructionAnnotations notes;
  notes.setCodeSizes({1});
  notes.add<Levels>("levels");
  EXPECT_EQ(notes.find<Levels>("other"), nullptr);
  EXPECT_EQ(notes.find<DescheduleMark>("levels"), nullptr);
  notes.add<DescheduleMark>("levels").at(0, 0).boundary = true;  // replaces the first table
  EXPECT_EQ(notes.find<Levels>("levels"), nullptr);
  EXPECT_TRUE(notes.find<DescheduleMark>("levels")->at(0, 0).boundary);
}

TEST(PassRequests, EachPassOnceInTheOrderFirstAsked) {
  PassRequests r;
  r.require("b");
  r.require("a");
  r.require("b");
  EXPECT_EQ(r.names(), (std::vector<std::string>{"b", "a"}));
}

}  // namespace
}  // namespace warpsim::timing
