#include <gtest/gtest.h>

#include "sweep/spec_test_support.h"

namespace warpsim::sweep {
namespace {

TEST(SpecParser, ReadsEverySectionInFileOrder) {
  const Spec s = parseText(R"(name = "demo"
description = "what it is for"
[axes]
workload = ["saxpy", "vecadd"]
variant = ["gs", "base"]
size = ["small", 4096]
seed = [7]
registers = ["off", 32]
mode = ["timing"]
config = ["gtx480"]
[axes.set]
"sm.banks" = [4, 8]
"sm.policy" = ["gto", "two level"]
"gpu.scale" = [0.5, 2.0]
"sm.flag" = [true]
[variants.base]
options = ["--profile-values"]
[variants.gs]
description = "G-Scalar"
overlays = ["gscalar"]
sets = ["gpu.sample_interval=0"]
[[exclude]]
workload = "vecadd"
variant = ["gs"]
[[exclude]]
set = { "sm.banks" = 8 }
[columns]
ipc = "totals.timing.ipc"
cycles = "totals.cycles"
[derived.speedup]
ratio = "cycles"
baseline = { variant = "base", set = { "sm.banks" = 4 } }
invert = true
)");
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(s.description, "what it is for");
  std::vector<std::string> names;
  for (const Axis& a : s.axes) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"workload", "variant", "size", "seed", "registers",
                                             "mode", "config", "set:sm.banks", "set:sm.policy",
                                             "set:gpu.scale", "set:sm.flag"}));
  auto texts = [](const Axis& a) {
    std::vector<std::string> out;
    for (const AxisValue& v : a.values) out.push_back(v.text);
    return out;
  };
  EXPECT_EQ(texts(s.axes[0]), (std::vector<std::string>{"saxpy", "vecadd"}));
  EXPECT_EQ(texts(s.axes[2]), (std::vector<std::string>{"small", "4096"}));
  EXPECT_EQ(s.axes[2].values[1].kind, AxisValue::Kind::Integer);
  EXPECT_EQ(texts(s.axes[4]), (std::vector<std::string>{"off", "32"}));
  // --set values in TOML syntax: a string that is not a bare word is quoted; 2.0 stays a float.
  EXPECT_EQ(texts(s.axes[8]), (std::vector<std::string>{"gto", "\"two level\""}));
  EXPECT_EQ(texts(s.axes[9]), (std::vector<std::string>{"0.5", "2.0"}));
  EXPECT_EQ(s.axes[9].values[1].kind, AxisValue::Kind::Float);
  EXPECT_EQ(texts(s.axes[10]), (std::vector<std::string>{"true"}));
  EXPECT_EQ(s.axes[7].setKey, "sm.banks");
  EXPECT_EQ(s.axes[7].line, 12u);

  ASSERT_EQ(s.variants.size(), 2u);
  EXPECT_EQ(s.variants[0].name, "base");
  EXPECT_EQ(s.variants[0].options, (std::vector<std::string>{"--profile-values"}));
  EXPECT_EQ(s.variants[1].overlays, (std::vector<std::string>{"gscalar"}));
  EXPECT_EQ(s.variants[1].sets, (std::vector<std::string>{"gpu.sample_interval=0"}));
  EXPECT_EQ(s.variants[1].description, "G-Scalar");

  ASSERT_EQ(s.excludes.size(), 2u);
  EXPECT_EQ(s.excludes[0].axes.size(), 2u);
  EXPECT_EQ(s.excludes[0].axes[0].first, "workload");
  EXPECT_EQ(s.excludes[0].axes[1].second, (std::vector<std::string>{"gs"}));
  EXPECT_EQ(s.excludes[1].axes[0].first, "set:sm.banks");
  EXPECT_EQ(s.excludes[1].axes[0].second, (std::vector<std::string>{"8"}));

  ASSERT_EQ(s.columns.size(), 2u);
  EXPECT_EQ(s.columns[0].name, "ipc");
  EXPECT_EQ(s.columns[0].path.text(), "totals.timing.ipc");
  ASSERT_EQ(s.derived.size(), 1u);
  EXPECT_EQ(s.derived[0].ratio, "cycles");
  EXPECT_TRUE(s.derived[0].invert);
  EXPECT_EQ(s.derived[0].baseline,
            (std::vector<std::pair<std::string, std::string>>{{"variant", "base"},
                                                              {"set:sm.banks", "4"}}));
}

TEST(SpecParser, AllIsEveryWorkloadAndTheNameDefaultsToTheFile) {
  const Spec s = parseText("[axes]\nworkload = [\"all\"]\n");
  EXPECT_EQ(s.name, "s");
  std::vector<std::string> names;
  for (const AxisValue& v : s.axes[0].values) names.push_back(v.text);
  EXPECT_EQ(names, (std::vector<std::string>{"vecadd", "saxpy", "kmeans"}));
}

TEST(SpecParser, ProgramsAreAnAxis) {
  const Spec s = parseText(R"([axes]
program = ["app"]
[programs.app]
command = ["./app", "--n", "10"]
)");
  ASSERT_EQ(s.programs.size(), 1u);
  EXPECT_EQ(s.programs[0].command, (std::vector<std::string>{"./app", "--n", "10"}));
  EXPECT_EQ(s.axes[0].kind, AxisKind::Program);
}

struct BadSpec {
  const char* what;
  const char* text;
  const char* message;
};

void PrintTo(const BadSpec& b, std::ostream* os) { *os << b.what; }

class SpecErrors : public ::testing::TestWithParam<BadSpec> {};

TEST_P(SpecErrors, SayWhatAndWhere) { EXPECT_EQ(specError(GetParam().text), GetParam().message); }

const BadSpec kBadSpecs[] = {
    {"unknown top-level key", "[axes]\nworkload = [\"vecadd\"]\n[colums]\n",
     "s.toml:3: error: unknown key 'colums' in the top level (known: name, description, axes, "
     "variants, programs, exclude, columns, derived)"},
    {"unknown axis", "[axes]\nworkload = [\"vecadd\"]\nsizes = [1]\n",
     "s.toml:3: error: unknown key 'sizes' in [axes] (known: workload, program, size, config, "
     "mode, variant, registers, seed, set)"},
    {"name not a string", "name = 3\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:1: error: 'name' must be a string"},
    {"no axes", "name = \"x\"\n",
     "s.toml: error: no [axes] table (the grid: workload = [...], variant = [...], ...)"},
    {"neither workload nor program", "\n[axes]\nsize = [1]\n",
     "s.toml:2: error: [axes] needs a 'workload' axis (suite workloads) or a 'program' axis "
     "(external programs)"},
    {"workload and program",
     "[axes]\nworkload = [\"vecadd\"]\nprogram = [\"p\"]\n[programs.p]\ncommand = [\"./p\"]\n",
     "s.toml:3: error: axes 'workload' and 'program' exclude each other (a point runs a suite "
     "workload or an external program)"},
    {"empty axis", "[axes]\nworkload = [\"vecadd\"]\nseed = []\n",
     "s.toml:3: error: axis 'seed' is empty (give at least one value)"},
    {"axis not an array", "[axes]\nworkload = \"vecadd\"\n",
     "s.toml:2: error: axis 'workload' must be an array ([...])"},
    {"float size", "[axes]\nworkload = [\"vecadd\"]\nsize = [\n  1.5,\n]\n",
     "s.toml:4: error: a value of axis 'size' must be a string or a whole number"},
    {"unknown workload", "[axes]\nworkload = [\"vecadd\", \"vecad\"]\n",
     "s.toml:2: error: unknown workload 'vecad' (known: vecadd, saxpy, kmeans)"},
    {"repeated value", "[axes]\nworkload = [\"vecadd\"]\nsize = [\"small\", \"small\"]\n",
     "s.toml:3: error: 'small' appears twice in axis 'size'"},
    {"repeated workload through all", "[axes]\nworkload = [\"saxpy\", \"all\"]\n",
     "s.toml:2: error: 'saxpy' appears twice in axis 'workload'"},
    {"unknown variant", "[axes]\nworkload = [\"vecadd\"]\nvariant = [\"gs\"]\n",
     "s.toml:3: error: no [variants.gs] for variant 'gs'"},
    {"unknown program", "[axes]\nprogram = [\"app\"]\n",
     "s.toml:2: error: no [programs.app] for program 'app'"},
    {"bad size", "[axes]\nworkload = [\"vecadd\"]\nsize = [\"huge\"]\n",
     "s.toml:3: error: size 'huge' is neither small, default, large nor a whole number of at "
     "least 1"},
    {"size zero", "[axes]\nworkload = [\"vecadd\"]\nsize = [0]\n",
     "s.toml:3: error: size '0' is neither small, default, large nor a whole number of at least 1"},
    {"bad mode", "[axes]\nworkload = [\"vecadd\"]\nmode = [\"fast\"]\n",
     "s.toml:3: error: mode 'fast' is neither timing nor functional"},
    {"bad registers", "[axes]\nworkload = [\"vecadd\"]\nregisters = [256]\n",
     "s.toml:3: error: registers '256' is neither off, minimal nor a count from 1 to 255"},
    {"negative seed", "[axes]\nworkload = [\"vecadd\"]\nseed = [-1]\n",
     "s.toml:3: error: seed '-1' is not a whole number"},
    {"unknown config", "[axes]\nworkload = [\"vecadd\"]\nconfig = [\"gtx48\"]\n",
     "s.toml:3: error: config 'gtx48': no configuration of that name"},
    {"bad set key", "[axes]\nworkload = [\"vecadd\"]\n[axes.set]\n\"sm banks\" = [1]\n",
     "s.toml:4: error: 'sm banks' in [axes.set] is not a configuration key (dotted names of "
     "letters, digits, '_' and '-')"},
    {"set value of a bad type", "[axes]\nworkload = [\"vecadd\"]\n[axes.set]\n\"a.b\" = [[1]]\n",
     "s.toml:4: error: a value of axis 'set:a.b' must be a string, a number or true/false"},
    {"unknown variant key", "[variants.v]\noverlay = [\"gscalar\"]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:2: error: unknown key 'overlay' in [variants.v] (known: description, overlays, sets, "
     "options)"},
    {"unknown overlay", "[variants.v]\noverlays = [\"gscalar\", \"gscalr\"]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:2: error: overlay 'gscalr': no overlay of that name"},
    {"set not key=value", "[variants.v]\nsets = [\"sm.banks\"]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:2: error: 'sm.banks' in 'sets' is not key=value"},
    {"overlays not strings", "[variants.v]\noverlays = [1]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:2: error: 'overlays' must be an array of strings"},
    {"option the sweep gives", "[variants.v]\noptions = [\"--stats=x.json\"]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:2: error: variant 'v': option '--stats=x.json' is the sweep's own (it adds --stats "
     "and -q to every run)"},
    {"option of an axis",
     "[variants.v]\n\noptions = [\"--size\", \"4\"]\n[axes]\nworkload = [\"vecadd\"]\nsize = [1]\n",
     "s.toml:3: error: variant 'v': option '--size' conflicts with the 'size' axis"},
    {"program without command", "[programs.p]\ndescription = \"x\"\n[axes]\nprogram = [\"p\"]\n",
     "s.toml:1: error: [programs.p] has no 'command'"},
    {"program with empty command", "[programs.p]\ncommand = []\n[axes]\nprogram = [\"p\"]\n",
     "s.toml:2: error: [programs.p]: 'command' needs at least the program to run"},
    {"exclude names no axis",
     "[axes]\nworkload = [\"vecadd\"]\n[[exclude]]\nvariant = \"gs\"\n",
     "s.toml:4: error: 'variant' in [[exclude]] is not an axis of this sweep (axes: workload)"},
    {"exclude value off the axis",
     "[axes]\nworkload = [\"vecadd\", \"saxpy\"]\n[[exclude]]\nworkload = [\"saxpy\", \"kmeans\"]\n",
     "s.toml:4: error: 'kmeans' in [[exclude]] is not a value of axis 'workload'"},
    {"exclude set key off the axes",
     "[axes]\nworkload = [\"vecadd\"]\n[[exclude]]\nset = { \"sm.x\" = 1 }\n",
     "s.toml:4: error: 'set:sm.x' in [[exclude]] is not an axis of this sweep (axes: workload)"},
    {"empty exclude", "[axes]\nworkload = [\"vecadd\"]\n[[exclude]]\n",
     "s.toml:3: error: [[exclude]] names no axis"},
    {"exclude not tables", "exclude = [1]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:1: error: 'exclude' must be an array of tables ([[exclude]])"},
    {"bad JSON path", "[axes]\nworkload = [\"vecadd\"]\n[columns]\nipc = \"totals..ipc\"\n",
     "s.toml:4: error: column 'ipc': bad JSON path 'totals..ipc': empty name at offset 7"},
    {"column path not a string", "[axes]\nworkload = [\"vecadd\"]\n[columns]\nipc = 1\n",
     "s.toml:4: error: column 'ipc' (a JSON path) must be a string"},
    {"column with an axis name", "[axes]\nworkload = [\"vecadd\"]\n[columns]\nworkload = \"workload\"\n",
     "s.toml:4: error: column 'workload' has the name of a fixed column (id, the axes, status, "
     "wall_seconds)"},
    {"derived ratio of no column",
     "[axes]\nworkload = [\"vecadd\"]\n[columns]\ncycles = \"totals.cycles\"\n[derived.s]\n"
     "ratio = \"cyles\"\nbaseline = { workload = \"vecadd\" }\n",
     "s.toml:6: error: [derived.s]: ratio 'cyles' is not a column (columns: cycles, wall_seconds)"},
    {"derived without ratio", "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nbaseline = { workload = \"vecadd\" }\n",
     "s.toml:3: error: [derived.s] needs 'ratio' (the column to divide)"},
    {"derived without baseline", "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = \"wall_seconds\"\n",
     "s.toml:3: error: [derived.s] needs 'baseline' (the axis values of the point to compare with)"},
    {"derived baseline of no axis",
     "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = \"wall_seconds\"\nbaseline = { variant = \"base\" }\n",
     "s.toml:5: error: 'variant' in [derived.s] baseline is not an axis of this sweep (axes: "
     "workload)"},
    {"derived baseline value off the axis",
     "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = \"wall_seconds\"\nbaseline = { workload = \"saxpy\" }\n",
     "s.toml:5: error: 'saxpy' in [derived.s] baseline is not a value of axis 'workload'"},
    {"derived baseline with a list",
     "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = \"wall_seconds\"\nbaseline = { workload = [\"vecadd\"] }\n",
     "s.toml:5: error: 'workload' in [derived.s] baseline must be a string or a whole number"},
    {"derived unknown key",
     "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = \"wall_seconds\"\ninverse = true\n",
     "s.toml:5: error: unknown key 'inverse' in [derived.s] (known: ratio, baseline, invert)"},
    {"derived named like a column",
     "[axes]\nworkload = [\"vecadd\"]\n[columns]\ns = \"a\"\n[derived.s]\nratio = \"s\"\n",
     "s.toml:5: error: derived column 's' has the name of a [columns] entry"},
    {"invert not a boolean",
     "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = \"wall_seconds\"\ninvert = 1\n"
     "baseline = { workload = \"vecadd\" }\n",
     "s.toml:5: error: 'invert' must be true or false"},
    {"axes not a table", "axes = [1]\n", "s.toml:1: error: [axes] must be a table"},
    {"variants not tables", "variants = { v = 1 }\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:1: error: [variants.v] must be a table"},
    {"sets not an array", "[variants.v]\nsets = \"a=1\"\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:2: error: 'sets' must be an array ([...])"},
    {"variant description not a string",
     "[variants.v]\ndescription = [\"x\"]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:2: error: 'description' must be a string"},
    {"exclude with an empty list", "[axes]\nworkload = [\"vecadd\"]\n[[exclude]]\nworkload = []\n",
     "s.toml:4: error: 'workload' in [[exclude]] has no values"},
    {"exclude value of a bad type", "[axes]\nworkload = [\"vecadd\"]\n[[exclude]]\nworkload = true\n",
     "s.toml:4: error: 'workload' in [[exclude]] must be a string or a whole number"},
    {"columns not a table", "columns = [\"a\"]\n[axes]\nworkload = [\"vecadd\"]\n",
     "s.toml:1: error: [columns] must be a table"},
    {"derived baseline naming no axis",
     "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = \"wall_seconds\"\nbaseline = {}\n",
     "s.toml:5: error: [derived.s] baseline names no axis"},
    {"ratio not a string",
     "[axes]\nworkload = [\"vecadd\"]\n[derived.s]\nratio = 1\nbaseline = { workload = \"vecadd\" }\n",
     "s.toml:4: error: 'ratio' must be a string"},
};

INSTANTIATE_TEST_SUITE_P(All, SpecErrors, ::testing::ValuesIn(kBadSpecs),
                         [](const ::testing::TestParamInfo<BadSpec>& info) {
                           std::string name;
                           for (char c : std::string(info.param.what)) {
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           }
                           return name;
                         });

TEST(SpecParser, TomlSyntaxErrorsNameTheLine) {
  const std::string message = specError("[axes]\nworkload = [\"vecadd\"\n");
  EXPECT_EQ(message.rfind("s.toml:2: error: ", 0), 0u) << message;
}

TEST(SpecParser, MissingFileIsAnError) {
  try {
    loadSpec("/nonexistent/spec.toml", testContext());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/spec.toml: error: cannot read the sweep spec");
  }
}

}  // namespace
}  // namespace warpsim::sweep
