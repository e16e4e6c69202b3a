#include "sweep/csv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace warpsim::sweep {
namespace {

TEST(Csv, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(csvField("plain"), "plain");
  EXPECT_EQ(csvField(""), "");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csvField(" padded"), "\" padded\"");
  EXPECT_EQ(csvField("set:sm.banks"), "set:sm.banks");
  EXPECT_EQ(csvRow({"id", "a,b", "", "x"}), "id,\"a,b\",,x\n");
}

TEST(Csv, NumbersReadBackExactly) {
  EXPECT_EQ(formatNumber(0.1), "0.1");
  EXPECT_EQ(formatNumber(3.0), "3");
  EXPECT_EQ(formatNumber(1e20), "1e+20");
  EXPECT_EQ(formatNumber(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(formatNumber(0.5876460767946577), "0.5876460767946577");
  EXPECT_EQ(formatNumber(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(std::stod(formatNumber(1.0 / 3.0)), 1.0 / 3.0);
  EXPECT_EQ(formatNumber(std::numeric_limits<double>::infinity()), "");
  EXPECT_EQ(formatNumber(std::nan("")), "");
}

TEST(Csv, CellTextOfJsonValues) {
  using J = nlohmann::ordered_json;
  EXPECT_EQ(cellText(J()), "");
  EXPECT_EQ(cellText(J(true)), "true");
  EXPECT_EQ(cellText(J(18446744073709551615ull)), "18446744073709551615");
  EXPECT_EQ(cellText(J(-4)), "-4");
  EXPECT_EQ(cellText(J(2.0)), "2");
  EXPECT_EQ(cellText(J("text, with comma")), "text, with comma");
  EXPECT_EQ(cellText(J::parse(R"({"a":[1,2]})")), R"({"a":[1,2]})");
}

}  // namespace
}  // namespace warpsim::sweep
