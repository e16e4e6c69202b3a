#include "sweep/table.h"

#include <gtest/gtest.h>

#include "sweep/grid.h"
#include "sweep/spec_test_support.h"

namespace warpsim::sweep {
namespace {

const char* kSpec = R"([axes]
workload = ["vecadd", "saxpy"]
variant = ["base", "gs"]
[variants.base]
[variants.gs]
overlays = ["gscalar"]
[columns]
cycles = "totals.cycles"
name = "kernels[0].name"
[derived.speedup]
ratio = "cycles"
baseline = { variant = "base" }
[derived.slowdown]
ratio = "cycles"
baseline = { variant = "base" }
invert = true
)";

PointData passed(const std::string& id, double wall, const std::string& stats) {
  PointData d;
  d.result = PointResult{};
  d.result->id = id;
  d.result->status = Status::Pass;
  d.result->wallSeconds = wall;
  d.stats = nlohmann::json::parse(stats);
  return d;
}

struct Fixture {
  Spec spec = parseText(kSpec);
  PointList list;
  std::vector<PointData> data;
  Fixture() {
    list.axisNames = {"workload", "variant"};
    list.points = expandGrid(spec, "0.1.0");
    // vecadd: base 1000 cycles, gs 800; saxpy: base missing, gs failed without statistics.
    data.push_back(passed(list.points[0].id, 0.5, R"({"totals":{"cycles":1000},"kernels":[{"name":"k, \"1\""}]})"));
    data.push_back(passed(list.points[1].id, 0.25, R"({"totals":{"cycles":800},"kernels":[]})"));
    data.push_back(PointData{});
    PointData failed;
    failed.result = PointResult{};
    failed.result->id = list.points[3].id;
    failed.result->status = Status::Fail;
    failed.result->wallSeconds = 0.125;
    data.push_back(failed);
  }
};

TEST(Table, RowsInGridOrderWithColumnsAndDerivedValues) {
  Fixture f;
  const Table t = buildTable(f.list, f.data, f.spec.columns, f.spec.derived);
  EXPECT_EQ(t.header, (std::vector<std::string>{"id", "workload", "variant", "status",
                                                "wall_seconds", "cycles", "name", "speedup",
                                                "slowdown"}));
  const std::string& a = f.list.points[0].id;
  const std::string& b = f.list.points[1].id;
  const std::string& c = f.list.points[2].id;
  const std::string& d = f.list.points[3].id;
  EXPECT_EQ(tableCsv(t),
            "id,workload,variant,status,wall_seconds,cycles,name,speedup,slowdown\n" +
            a + ",vecadd,base,pass,0.5,1000,\"k, \"\"1\"\"\",1,1\n" +
            b + ",vecadd,gs,pass,0.25,800,,1.25,0.8\n" +
            c + ",saxpy,base,missing,,,,,\n" +
            d + ",saxpy,gs,fail,0.125,,,,\n");
  EXPECT_EQ(tableJsonl(t).substr(0, tableJsonl(t).find('\n')),
            R"({"id":")" + a + R"(","workload":"vecadd","variant":"base","status":"pass",)"
            R"("wall_seconds":0.5,"cycles":1000,"name":"k, \"1\"","speedup":1.0,"slowdown":1.0})");
  EXPECT_TRUE(t.columnsNeverFound.empty());
}

TEST(Table, ColumnsNoPointHadAreReported) {
  Fixture f;
  std::vector<Column> columns = f.spec.columns;
  columns.push_back(Column{"ipc", JsonPath::parse("totals.ipc"), 0});
  const Table t = buildTable(f.list, f.data, columns, {});
  EXPECT_EQ(t.columnsNeverFound, (std::vector<std::string>{"ipc"}));
}

TEST(Table, AZeroDenominatorLeavesTheCellEmpty) {
  Fixture f;
  f.data[1] = passed(f.list.points[1].id, 0.25, R"({"totals":{"cycles":0}})");
  const Table t = buildTable(f.list, f.data, f.spec.columns, f.spec.derived);
  EXPECT_TRUE(t.rows[1][7].is_null());   // speedup = 1000 / 0
  EXPECT_EQ(t.rows[1][8].dump(), "0.0");  // slowdown = 0 / 1000
}

}  // namespace
}  // namespace warpsim::sweep
