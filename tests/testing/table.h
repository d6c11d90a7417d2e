// Loading of the JSON test tables under tests/data.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kplace::testing {

// Absolute path of a file under tests/data.
std::string DataPath(const std::string& relative);
nlohmann::json LoadJson(const std::string& path);
// Every *.json under tests/data/<dir>, sorted, as paths relative to tests/data.
std::vector<std::string> ListTables(const std::string& dir);
std::string ReadFile(const std::string& path);
// A GoogleTest-safe name: every character that is not a letter or digit becomes '_'.
std::string TestName(std::string s);

}  // namespace kplace::testing
