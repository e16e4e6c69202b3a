// CSV as RFC 4180 describes it, except that rows end in "\n" (which every reader, pandas
// included, accepts): fields separated by ",", a field quoted when it holds ",", a quote, CR,
// LF, or a leading or trailing space, with quotes doubled. And the text of a table cell.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::sweep {

std::string csvField(std::string_view text);
// The fields joined by ',' and ended by '\n'.
std::string csvRow(const std::vector<std::string>& fields);

// The shortest text that reads back as the same double ("0.1", "1e+20", "3"); "" for NaN and
// infinities, which would not load as numbers everywhere.
std::string formatNumber(double value);

// The cell text of a JSON value: numbers as above (integers exactly), strings as they are,
// true/false, "" for null; arrays and objects as compact JSON.
std::string cellText(const nlohmann::ordered_json& value);

}  // namespace warpsim::sweep
