#include "tests/testing/table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace kplace::testing {

std::string DataPath(const std::string& relative) { return std::string(KPLACE_SOURCE_DIR) + "/tests/data/" + relative; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> PresetNames() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KPLACE_SOURCE_DIR) + "/presets"))
    if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string TestName(std::string s) {
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

nlohmann::json LoadJson(const std::string& path) { return nlohmann::json::parse(ReadFile(path)); }

std::vector<std::string> ListTables(const std::string& dir) {
  std::vector<std::string> out;
  std::filesystem::path root = DataPath("");
  for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
    if (e.is_regular_file() && e.path().extension() == ".json")
      out.push_back(std::filesystem::relative(e.path(), root).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const nlohmann::json& LoadTable(const std::string& file) {
  static std::map<std::string, nlohmann::json> tables;
  auto it = tables.find(file);
  if (it == tables.end()) it = tables.emplace(file, LoadJson(DataPath(file))).first;
  return it->second;
}

std::vector<TableCase> ListTableCases(const std::string& dir) {
  std::vector<TableCase> out;
  const bool one = dir.size() > 5 && dir.compare(dir.size() - 5, 5, ".json") == 0;
  for (const auto& file : one ? std::vector<std::string>{dir} : ListTables(dir)) {
    const nlohmann::json& t = LoadTable(file);
    for (std::size_t i = 0; i < t.at("cases").size(); ++i) out.push_back({file, i});
  }
  return out;
}

std::string TableCaseName(const TableCase& c) {
  std::string f = std::filesystem::path(c.file).stem().string();
  return TestName(f + "_" + std::to_string(c.index));
}

void RunTableCase(const TableCase& c,
                  const std::function<void(const nlohmann::json& table, const nlohmann::json&)>& run) {
  const nlohmann::json& t = LoadTable(c.file);
  const nlohmann::json& one = t.at("cases").at(c.index);
  SCOPED_TRACE(c.file + ": " + one.value("name", ""));
  try {
    run(t, one);
  } catch (const std::exception& e) {
    FAIL() << "exception: " << e.what();
  }
}

void RunTableCase(const TableCase& c, const std::function<void(const nlohmann::json&)>& run) {
  RunTableCase(c, [&](const nlohmann::json&, const nlohmann::json& one) { run(one); });
}

}  // namespace kplace::testing
