// The one cluster import (core/io/cluster_import.h): what `kplace convert kubectl` prints and the playground's
// kplace_import returns. The dumps in tests/data/import are shaped like real kubectl output (managedFields, status,
// Deployment -> ReplicaSet -> Pod owner chains with pod-template-hash, typed lists without kinds, concatenated
// documents, YAML manifests, Karpenter kwok's instance_types.json, errors); their expected conversions are the
// golden files in tests/data/import/expected, which tests/web/api.test.mjs holds the wasm core to as well.
// KPLACE_UPDATE_GOLDEN=1 rewrites them (review the diff).
#include "core/io/cluster_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/io/kwok_instance_types.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace::io {
namespace {

const std::filesystem::path kDir = std::filesystem::path(KPLACE_SOURCE_DIR) / "tests/data/import";

std::vector<std::string> Inputs() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kDir))
    if (e.is_regular_file()) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// What a golden file holds for one input: the import object (or the error) as pretty JSON, and the scenario.
struct Expected {
  std::string import;
  std::string scenario;  // empty for an error
};

Expected Convert(const std::string& text) {
  Expected e;
  try {
    ClusterImport im = ImportClusterDump(text);
    e.import = Json({{"import", ImportToJson(im)}}).dump(2) + "\n";
    e.scenario = im.scenario;
  } catch (const InputError& err) {
    e.import = Json({{"error", err.what()}}).dump(2) + "\n";
  }
  return e;
}

TEST(ClusterImport, Goldens) {
  const bool update = std::getenv("KPLACE_UPDATE_GOLDEN") != nullptr;
  const std::vector<std::string> inputs = Inputs();
  ASSERT_GE(inputs.size(), 6u);
  for (const auto& name : inputs) {
    SCOPED_TRACE(name);
    const Expected got = Convert(testing::ReadFile((kDir / name).string()));
    const std::filesystem::path import_file = kDir / "expected" / (name + ".import.json");
    const std::filesystem::path scenario_file = kDir / "expected" / (name + ".scenario.json");
    if (update) {
      std::filesystem::create_directories(kDir / "expected");
      std::ofstream(import_file, std::ios::binary) << got.import;
      std::filesystem::remove(scenario_file);
      if (!got.scenario.empty()) std::ofstream(scenario_file, std::ios::binary) << got.scenario;
      continue;
    }
    EXPECT_EQ(got.import, testing::ReadFile(import_file.string()));
    if (got.scenario.empty()) {
      EXPECT_FALSE(std::filesystem::exists(scenario_file));
      continue;
    }
    EXPECT_EQ(got.scenario, testing::ReadFile(scenario_file.string()));
    // The converted scenario runs as the dump does, and converts to itself (its Simulation kept, nothing added).
    if (name.rfind("kwok", 0) != 0) {  // a kwok file is no scenario by itself
      const Json a = ResultToJson(sim::Run(ParseScenario(testing::ReadFile((kDir / name).string()))));
      const Json b = ResultToJson(sim::Run(ParseScenario(got.scenario)));
      EXPECT_EQ(a["pods"], b["pods"]);
      EXPECT_EQ(a.value("events", Json()), b.value("events", Json()));
    }
    const ClusterImport again = ImportClusterDump(got.scenario);
    EXPECT_EQ(again.scenario, got.scenario);
    EXPECT_FALSE(again.simulation_added);
  }
}

// A text that may hold kwok instance types is read whole, any other as ParseScenario reads it: the errors are
// ParseScenario's either way.
TEST(ClusterImport, ErrorsAreTheParsers) {
  const std::string bad = R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"n"}},{"kind":"Pod",)"
                          R"("metadata":{"name":"p","labels":{"offerings":"x"}},"spec":{"containers":[{"name":"c"}],)"
                          R"("priority":"x"}}]})";
  for (const std::string& text : {bad, std::string(bad).replace(bad.find("offerings"), 9, "offering")}) {
    std::string parser_error;
    try {
      ParseScenario(text);
    } catch (const InputError& e) {
      parser_error = e.what();
    }
    EXPECT_EQ(parser_error, "items[1] (Pod default/p): spec.priority: expected integer, got string");
    try {
      ImportClusterDump(text);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.what(), parser_error);
    }
  }
}

TEST(ClusterImport, SimulationOfTheDumpIsKept) {
  const std::string text = R"({"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}},)"
                           R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","spec":{"mode":"scheduler"}}]})";
  const ClusterImport im = ImportClusterDump(text);
  EXPECT_FALSE(im.simulation_added);
  EXPECT_EQ(im.items, 2u);
  EXPECT_EQ(im.scenario,
            "{ \"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
            "  {\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}},\n"
            "  {\"apiVersion\":\"kplace.dev/v1alpha1\",\"kind\":\"Simulation\",\"spec\":{\"mode\":\"scheduler\"}}\n"
            "] }\n");
  const ClusterImport only = ImportClusterDump(R"([{"kind":"Simulation","apiVersion":"kplace.dev/v1alpha1"}])");
  EXPECT_EQ(only.scenario,
            "{ \"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
            "  {\"apiVersion\":\"kplace.dev/v1alpha1\",\"kind\":\"Simulation\"}\n] }\n");
  const ClusterImport empty = ImportClusterDump("[]");
  EXPECT_TRUE(empty.simulation_added);
  EXPECT_EQ(empty.items, 1u);
  EXPECT_EQ(ImportMessage(empty),
            "Imported a JSON array: 0 nodes, 0 pods bound, 0 pending; a Simulation added (mode "
            "cluster).");
}

// Karpenter kwok's instance_types.json: recognised by its shape, converted as `kplace convert kwok` converts it.
TEST(ClusterImport, KwokInstanceTypes) {
  const std::string text =
      testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/tests/data/io/kwok_instance_types.json");
  const Json doc = Json::parse(text);
  EXPECT_TRUE(IsKwokInstanceTypes(doc));
  EXPECT_FALSE(IsKwokInstanceTypes(Json::array()));
  EXPECT_FALSE(IsKwokInstanceTypes(Json::object()));
  Json with_kind = doc;
  with_kind[1]["kind"] = "InstanceType";
  EXPECT_FALSE(IsKwokInstanceTypes(with_kind));
  Json no_offerings = doc;
  no_offerings[2].erase("offerings");
  EXPECT_FALSE(IsKwokInstanceTypes(no_offerings));
  EXPECT_FALSE(IsKwokInstanceTypes(Json::parse(R"([{"name":"a","offerings":{}}])")));
  EXPECT_FALSE(IsKwokInstanceTypes(Json::parse(R"([{"name":"a","offerings":[],"items":[]}])")));  // a list

  const ClusterImport im = ImportClusterDump(text);
  EXPECT_EQ(im.instance_types, doc.size());
  EXPECT_TRUE(im.simulation_added);
  EXPECT_EQ(im.summary.shape, "Karpenter kwok instance types");
  const Json list = Json::parse(im.scenario);
  Json want = KwokInstanceTypesToItemsJson(text);
  ASSERT_EQ(list["items"].size(), want.size() + 1);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(list["items"][i + 1], want[i]);
  EXPECT_EQ(ImportMessage(im),
            "Imported Karpenter kwok instance types: 0 nodes, 0 pods bound, 0 pending; 3 instance types; a Simulation "
            "added (mode cluster).");

  // Next to a cluster dump (several documents), and an error named with its document.
  const std::string nodes = R"({"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n1"}}]})";
  const ClusterImport both = ImportClusterDump(nodes + "\n" + text);
  EXPECT_EQ(both.instance_types, 3u);
  EXPECT_EQ(both.summary.nodes, 1u);
  EXPECT_EQ(both.summary.shape, "2 documents");
  try {
    ImportClusterDump(nodes + R"([{"name":"a","offerings":[{"Price":"x"}]}])");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "document 2[0] (a): offerings[0].Price: expected number, got string");
  }
}

}  // namespace
}  // namespace kplace::io
