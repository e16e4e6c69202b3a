#include "sweep/json_path.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace warpsim::sweep {
namespace {

const nlohmann::json kStats = nlohmann::json::parse(R"({
  "totals": {"cycles": 1198, "timing": {"ipc": 0.5}},
  "kernels": [{"name": "first"}, {"name": "last", "0": "zero"}],
  "map": {"0": "key zero"}
})");

std::string at(const std::string& path) {
  const nlohmann::json* v = JsonPath::parse(path).find(kStats);
  return v ? v->dump() : "<none>";
}

TEST(JsonPath, FindsNamesAndIndices) {
  EXPECT_EQ(at("totals.cycles"), "1198");
  EXPECT_EQ(at("totals.timing.ipc"), "0.5");
  EXPECT_EQ(at("kernels.0.name"), "\"first\"");
  EXPECT_EQ(at("kernels[1].name"), "\"last\"");
  EXPECT_EQ(at("kernels[-1].name"), "\"last\"");
  EXPECT_EQ(at("kernels[1].0"), "\"zero\"");     // digits are a name in an object
  EXPECT_EQ(at("map.0"), "\"key zero\"");
  EXPECT_EQ(at("totals"), R"({"cycles":1198,"timing":{"ipc":0.5}})");
}

TEST(JsonPath, AbsentStepsFindNothing) {
  EXPECT_EQ(at("totals.ipc"), "<none>");
  EXPECT_EQ(at("kernels[2].name"), "<none>");
  EXPECT_EQ(at("kernels[-3].name"), "<none>");
  EXPECT_EQ(at("kernels.name"), "<none>");
  EXPECT_EQ(at("totals.cycles.x"), "<none>");
}

std::string parseError(const std::string& path) {
  try {
    JsonPath::parse(path);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(JsonPath, BadPathsSayWhatIsWrong) {
  EXPECT_EQ(parseError(""), "empty path");
  EXPECT_EQ(parseError("a..b"), "empty name at offset 2");
  EXPECT_EQ(parseError(".a"), "empty name at offset 0");
  EXPECT_EQ(parseError("a."), "path ends with '.'");
  EXPECT_EQ(parseError("a[1"), "'[' without ']' at offset 1");
  EXPECT_EQ(parseError("a[x]"), "'[x]' is not a whole-number index");
  EXPECT_EQ(parseError("a[\"0\"]"), "'[\"0\"]' is not a whole-number index");  // no quoted names
  EXPECT_EQ(parseError("a[1]b"), "expected '.' or '[' after ']' at offset 4");
  EXPECT_EQ(parseError("a]"), "']' without '[' at offset 1");
  EXPECT_EQ(parseError("a[1]."), "path ends with '.'");
}

}  // namespace
}  // namespace warpsim::sweep
