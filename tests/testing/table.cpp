#include "tests/testing/table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
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

std::vector<TableCase> ListTableCases(const std::string& dir) {
  std::vector<TableCase> out;
  for (const auto& file : ListTables(dir)) {
    nlohmann::json t = LoadJson(DataPath(file));
    for (std::size_t i = 0; i < t.at("cases").size(); ++i) out.push_back({file, i});
  }
  return out;
}

std::string TableCaseName(const TableCase& c) {
  std::string f = std::filesystem::path(c.file).stem().string();
  return TestName(f + "_" + std::to_string(c.index));
}

void RunTableCase(const TableCase& c, const std::function<void(const nlohmann::json&)>& run) {
  nlohmann::json t = LoadJson(DataPath(c.file));
  const nlohmann::json& one = t["cases"][c.index];
  SCOPED_TRACE(c.file + ": " + one.value("name", ""));
  try {
    run(one);
  } catch (const std::exception& e) {
    FAIL() << "exception: " << e.what();
  }
}

}  // namespace kplace::testing
