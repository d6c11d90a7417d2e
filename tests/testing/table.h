// Loading of the JSON test tables under tests/data.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kplace::testing {

// The release a table case means when it names none (tests/data/README.md). Fixed, not kDefaultMinor: a case's
// expected messages belong to this release even after the default moves on.
inline constexpr int kTableDefaultMinor = 35;

// Absolute path of a file under tests/data.
std::string DataPath(const std::string& relative);
nlohmann::json LoadJson(const std::string& path);
// Every *.json under tests/data/<dir>, sorted, as paths relative to tests/data.
std::vector<std::string> ListTables(const std::string& dir);
std::string ReadFile(const std::string& path);
// The presets' names (presets/*.json without the extension), sorted.
std::vector<std::string> PresetNames();
// A GoogleTest-safe name: every character that is not a letter or digit becomes '_'.
std::string TestName(std::string s);

// One case of a table file under tests/data/<dir>: {"cases": [...]}.
struct TableCase {
  std::string file;  // relative to tests/data
  std::size_t index = 0;
};
// Every case of every table under tests/data/<dir> (or of the one table tests/data/<dir> when it ends in .json), in
// file then case order.
std::vector<TableCase> ListTableCases(const std::string& dir);
// The table file, parsed once per process.
const nlohmann::json& LoadTable(const std::string& file);
// "<file name without .json>_<index>", GoogleTest-safe.
std::string TableCaseName(const TableCase& c);
// Runs run(case JSON) with the file and case name in the failure trace; an exception fails the test. Every table
// test is a TEST_P over ListTableCases(dir) whose body is one RunTableCase call.
void RunTableCase(const TableCase& c, const std::function<void(const nlohmann::json&)>& run);
// The same, for runners that also read the table's own fields (e.g. "plugin").
void RunTableCase(const TableCase& c,
                  const std::function<void(const nlohmann::json& table, const nlohmann::json&)>& run);
// The name INSTANTIATE_TEST_SUITE_P gives a case.
inline std::string TableCaseParamName(const ::testing::TestParamInfo<TableCase>& info) {
  return TableCaseName(info.param);
}

}  // namespace kplace::testing
