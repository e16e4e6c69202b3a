// A sweep spec: the grid of `warpsim run` points an experiment consists of, and the statistics
// to tabulate from each point (docs/experiments.md describes the TOML form; spec_parser.h reads
// it). Everything is kept in spec (file) order, and every element remembers its line so that
// later checks can name it.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sweep/json_path.h"

namespace warpsim::sweep {

// What an axis sets on the `warpsim run` command line.
enum class AxisKind : uint8_t {
  Workload,   // the positional WORKLOAD
  Program,    // `-- COMMAND...` of a [programs.NAME]
  Size,       // --size
  Config,     // --config
  Mode,       // --mode
  Variant,    // the --overlay/--set/options of a [variants.NAME]
  Registers,  // --max-registers
  Seed,       // --seed
  Set,        // --set KEY=VALUE
};

// One value of an axis. `text` is what goes on the command line (a --set value in TOML syntax
// where a bare word would be misread) and in the table; `kind` keeps the TOML type for JSON.
struct AxisValue {
  enum class Kind : uint8_t { String, Integer, Float, Boolean };
  std::string text;
  Kind kind = Kind::String;
  uint32_t line = 0;
  friend bool operator==(const AxisValue& a, const AxisValue& b) { return a.text == b.text; }
};

struct Axis {
  AxisKind kind = AxisKind::Workload;
  std::string name;    // "workload", ..., or "set:KEY" for a configuration key
  std::string setKey;  // AxisKind::Set: the dotted configuration key
  std::vector<AxisValue> values;
  uint32_t line = 0;
};

// A named set of extra `warpsim run` options ([variants.NAME]).
struct Variant {
  std::string name;
  std::string description;
  std::vector<std::string> overlays;  // --overlay each, in order
  std::vector<std::string> sets;      // --set each ("key=value"), in order
  std::vector<std::string> options;   // further options, verbatim
  uint32_t line = 0;
  uint32_t optionsLine = 0;
};

// An external CUDA program ([programs.NAME]): run as `warpsim run <options> -- COMMAND...`.
struct Program {
  std::string name;
  std::string description;
  std::vector<std::string> command;
  uint32_t line = 0;
};

// Axis values a point must have: one entry per axis named, matching any of its values.
struct AxisMatch {
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;  // axis name -> texts
  uint32_t line = 0;
};

// A table column: a value from each point's statistics file.
struct Column {
  std::string name;
  JsonPath path;
  uint32_t line = 0;
};

// A derived column: `ratio` at the baseline point (this point's axes with `baseline`'s values
// put in) divided by `ratio` at this point; `invert` divides the other way.
struct Derived {
  std::string name;
  std::string ratio;  // a [columns] name or "wall_seconds"
  std::vector<std::pair<std::string, std::string>> baseline;  // axis name -> value text
  bool invert = false;
  uint32_t line = 0;
};

struct Spec {
  std::string file;  // as given, for messages
  std::string name;
  std::string description;
  std::vector<Axis> axes;  // outermost first
  std::vector<Variant> variants;
  std::vector<Program> programs;
  std::vector<AxisMatch> excludes;
  std::vector<Column> columns;
  std::vector<Derived> derived;

  const Axis* axis(const std::string& name) const;
  const Variant* variant(const std::string& name) const;
  const Program* program(const std::string& name) const;
};

}  // namespace warpsim::sweep
