// Karpenter kwok provider instance types (kwok/cloudprovider/helpers.go) -> kplace InstanceTypes. The fixture
// tests/data/io/kwok_instance_types.json holds three entries of upstream's kwok/cloudprovider/instance_types.json
// verbatim (kubernetes-sigs/karpenter a6c41279d9).
#include "core/io/kwok_instance_types.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "core/io/scenario_parser.h"

namespace kplace {
namespace {

std::string Fixture() {
  std::ifstream f(std::string(KPLACE_SOURCE_DIR) + "/tests/data/io/kwok_instance_types.json");
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string ExamplesFixture() {
  std::ifstream f(std::string(KPLACE_SOURCE_DIR) + "/tests/data/io/kwok_instance_types_examples.json");
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string Label(const InstanceType& t, const char* key) {
  auto v = t.meta.labels.Get(Intern(key));
  return v ? Text(*v) : "<absent>";
}

std::string ErrorOf(const std::string& text) {
  try {
    io::ParseKwokInstanceTypes(text);
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(KwokInstanceTypes, UpstreamEntries) {
  std::vector<InstanceType> types = io::ParseKwokInstanceTypes(Fixture());
  ASSERT_EQ(types.size(), 3u);
  EXPECT_EQ(types[0].meta.name, "c-1x-amd64-linux");
  EXPECT_EQ(types[1].meta.name, "s-4x-arm64-windows");
  EXPECT_EQ(types[2].meta.name, "m-256x-arm64-windows");

  const InstanceType& c1 = types[0];
  EXPECT_EQ(c1.capacity.milli_cpu, 1000);
  EXPECT_EQ(c1.capacity.memory, 2LL << 30);
  EXPECT_EQ(c1.capacity.allowed_pod_number, 16);
  EXPECT_EQ(c1.capacity.ephemeral_storage, 20LL << 30);
  // kubeReserved: allocatable = capacity - 100m cpu - 10Mi memory.
  EXPECT_EQ(c1.overhead.milli_cpu, 100);
  EXPECT_EQ(c1.overhead.memory, 10LL << 20);
  EXPECT_EQ(c1.overhead.allowed_pod_number, 0);
  EXPECT_EQ(Label(c1, "kubernetes.io/arch"), "amd64");
  EXPECT_EQ(Label(c1, "kubernetes.io/os"), "linux");
  EXPECT_EQ(Label(c1, "karpenter.kwok.sh/instance-size"), "1");
  EXPECT_EQ(Label(c1, "karpenter.kwok.sh/instance-family"), "c");
  EXPECT_EQ(Label(c1, "karpenter.kwok.sh/instance-cpu"), "1");
  EXPECT_EQ(Label(c1, "karpenter.kwok.sh/instance-memory"), "2Gi");
  EXPECT_TRUE(c1.requirements.empty());
  ASSERT_EQ(c1.offerings.size(), 8u);
  EXPECT_EQ(c1.offerings[0].zone, "test-zone-a");
  EXPECT_EQ(c1.offerings[0].capacity_type, "spot");
  EXPECT_DOUBLE_EQ(c1.offerings[0].price, 0.019003238553599998);
  EXPECT_TRUE(c1.offerings[0].available);
  EXPECT_EQ(c1.offerings[1].zone, "test-zone-a");
  EXPECT_EQ(c1.offerings[1].capacity_type, "on-demand");
  EXPECT_DOUBLE_EQ(c1.offerings[1].price, 0.027147483648);
  EXPECT_EQ(c1.offerings[7].zone, "test-zone-d");
  EXPECT_EQ(c1.offerings[7].capacity_type, "on-demand");

  const InstanceType& s4 = types[1];
  EXPECT_EQ(s4.capacity.milli_cpu, 4000);
  EXPECT_EQ(s4.capacity.memory, 16LL << 30);
  EXPECT_EQ(s4.capacity.allowed_pod_number, 64);
  EXPECT_EQ(Label(s4, "kubernetes.io/arch"), "arm64");
  EXPECT_EQ(Label(s4, "kubernetes.io/os"), "windows");
  EXPECT_EQ(Label(s4, "karpenter.kwok.sh/instance-family"), "s");
  EXPECT_EQ(Label(s4, "karpenter.kwok.sh/instance-memory"), "16Gi");

  const InstanceType& m256 = types[2];
  EXPECT_EQ(m256.capacity.milli_cpu, 256000);
  EXPECT_EQ(m256.capacity.memory, 2LL << 40);
  EXPECT_EQ(m256.capacity.allowed_pod_number, 1024);
  EXPECT_EQ(Label(m256, "karpenter.kwok.sh/instance-size"), "256");
  EXPECT_EQ(Label(m256, "karpenter.kwok.sh/instance-family"), "m");
  EXPECT_EQ(Label(m256, "karpenter.kwok.sh/instance-cpu"), "256");
  EXPECT_EQ(Label(m256, "karpenter.kwok.sh/instance-memory"), "2Ti");
  EXPECT_DOUBLE_EQ(m256.offerings[0].price, 6.019316278886399);
  EXPECT_DOUBLE_EQ(m256.offerings[1].price, 8.599023255552);
}

TEST(KwokInstanceTypes, DefaultsAndDerivedLabels) {
  std::vector<InstanceType> types = io::ParseKwokInstanceTypes(R"([
    {"name": "m5.large", "architecture": "amd64", "operatingSystems": ["linux", "windows"],
     "resources": {"cpu": "2", "memory": "8192Mi"},
     "offerings": [{"Price": 0.1, "Available": false, "Requirements": [
        {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["on-demand"]},
        {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z1", "z2"]}]}]},
    {"name": "n2-standard-4", "architecture": "arm64", "operatingSystems": ["linux"],
     "resources": {"cpu": "3.5", "memory": "1.5Gi", "pods": "20"},
     "offerings": [{"price": 0.2, "requirements": [
        {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z1"]},
        {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["spot"]}]}]},
    {"name": "Standard_D2s_v3", "architecture": "amd64", "operatingSystems": [],
     "resources": {"cpu": 2, "memory": "1000"},
     "offerings": [{"Price": 0.3, "Requirements": [
        {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z1"]},
        {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["reserved"]}]}]}
  ])");
  ASSERT_EQ(types.size(), 3u);
  const InstanceType& aws = types[0];
  EXPECT_EQ(aws.capacity.allowed_pod_number, 110);  // default
  EXPECT_EQ(Label(aws, "karpenter.kwok.sh/instance-size"), "large");
  EXPECT_EQ(Label(aws, "karpenter.kwok.sh/instance-family"), "m5");
  EXPECT_EQ(Label(aws, "karpenter.kwok.sh/instance-memory"), "8Gi");
  EXPECT_EQ(Label(aws, "kubernetes.io/os"), "<absent>");
  ASSERT_EQ(aws.requirements.size(), 1u);
  EXPECT_EQ(Text(aws.requirements[0].key), "kubernetes.io/os");
  EXPECT_EQ(aws.requirements[0].op, SelectorOp::In);
  EXPECT_EQ(aws.requirements[0].values.size(), 2u);
  // Available is forced true; several zones: one offering each.
  ASSERT_EQ(aws.offerings.size(), 2u);
  EXPECT_EQ(aws.offerings[0].zone, "z1");
  EXPECT_EQ(aws.offerings[1].zone, "z2");
  EXPECT_TRUE(aws.offerings[0].available);
  EXPECT_TRUE(aws.offerings[1].available);

  const InstanceType& gcp = types[1];
  EXPECT_EQ(gcp.capacity.allowed_pod_number, 20);
  EXPECT_EQ(Label(gcp, "karpenter.kwok.sh/instance-size"), "3500m");  // no AWS size: the cpu quantity
  EXPECT_EQ(Label(gcp, "karpenter.kwok.sh/instance-family"), "n2");
  EXPECT_EQ(Label(gcp, "karpenter.kwok.sh/instance-cpu"), "3500m");
  EXPECT_EQ(Label(gcp, "karpenter.kwok.sh/instance-memory"), "1536Mi");
  ASSERT_EQ(gcp.offerings.size(), 1u);
  EXPECT_EQ(gcp.offerings[0].capacity_type, "spot");  // keys match case-insensitively
  EXPECT_DOUBLE_EQ(gcp.offerings[0].price, 0.2);

  const InstanceType& azure = types[2];
  EXPECT_EQ(Label(azure, "karpenter.kwok.sh/instance-family"), "S");
  EXPECT_EQ(Label(azure, "karpenter.kwok.sh/instance-size"), "2");
  EXPECT_EQ(Label(azure, "karpenter.kwok.sh/instance-memory"), "1k");
  ASSERT_EQ(azure.requirements.size(), 1u);
  EXPECT_EQ(azure.requirements[0].op, SelectorOp::DoesNotExist);  // In with no operating systems
  EXPECT_EQ(azure.offerings[0].capacity_type, "reserved");
}

TEST(KwokInstanceTypes, CanonicalQuantity) {
  const std::pair<const char*, const char*> cases[] = {
      {"1", "1"},       {"0.5", "500m"},  {"1.5", "1500m"},  {"100m", "100m"},    {"1000", "1k"},
      {"1500", "1500"}, {"2Gi", "2Gi"},   {"2048Mi", "2Gi"}, {"1.5Gi", "1536Mi"}, {"0.5Ki", "512"},
      {"1536", "1536"}, {"20Gi", "20Gi"}, {"2Ti", "2Ti"},    {"1e3", "1e3"},      {"0", "0"},
      {"4G", "4G"},     {"4000M", "4G"},  {"1Ki", "1Ki"},    {"1025Ki", "1025Ki"}};
  for (const auto& [in, want] : cases) EXPECT_EQ(io::CanonicalQuantity(in).value_or("<none>"), want) << in;
  EXPECT_FALSE(io::CanonicalQuantity("abc"));
}

TEST(KwokInstanceTypes, ItemsParseAsScenarioInstanceTypes) {
  io::Json items = io::Json::parse(io::KwokInstanceTypesToItems(Fixture()));
  ASSERT_TRUE(items.is_array());
  ASSERT_EQ(items.size(), 3u);
  const io::Json& first = items[0];
  EXPECT_EQ(first["apiVersion"], "kplace.dev/v1alpha1");
  EXPECT_EQ(first["kind"], "InstanceType");
  EXPECT_EQ(first["metadata"]["name"], "c-1x-amd64-linux");
  EXPECT_EQ(first["metadata"]["labels"]["karpenter.kwok.sh/instance-memory"], "2Gi");
  EXPECT_EQ(first["spec"]["capacity"]["memory"], "2Gi");
  EXPECT_EQ(first["spec"]["overhead"], io::Json({{"cpu", "100m"}, {"memory", "10Mi"}}));
  EXPECT_EQ(
      first["spec"]["offerings"][0],
      io::Json(
          {{"zone", "test-zone-a"}, {"capacityType", "spot"}, {"price", 0.019003238553599998}, {"available", true}}));
  // Pasted into a scenario, they are the same InstanceTypes.
  Scenario sc = io::ParseScenarioJson({{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}});
  std::vector<InstanceType> direct = io::ParseKwokInstanceTypes(Fixture());
  ASSERT_EQ(sc.instance_types.size(), direct.size());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    EXPECT_EQ(sc.instance_types[i].meta.name, direct[i].meta.name);
    EXPECT_EQ(sc.instance_types[i].meta.labels.entries(), direct[i].meta.labels.entries());
    EXPECT_EQ(sc.instance_types[i].capacity.memory, direct[i].capacity.memory);
    EXPECT_EQ(sc.instance_types[i].offerings.size(), direct[i].offerings.size());
  }
}

TEST(KwokInstanceTypes, BadInput) {
  const std::string offering =
      R"({"Price": 0.1, "Requirements": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z"]},)"
      R"({"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["spot"]}]})";
  EXPECT_EQ(ErrorOf(R"({"name": "x"})"), "kwok instance types must be a JSON array, got object");
  EXPECT_EQ(ErrorOf("[1,"),
            "invalid JSON at line 1, column 4: syntax error while parsing value - unexpected end of "
            "input; expected '[', '{', or a literal");
  EXPECT_EQ(ErrorOf("[42]"), "[0]: expected object, got integer");
  EXPECT_EQ(ErrorOf(R"([{"offerings": [)" + offering + "]}]"), "[0]: name: required");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "offerings": []}])"), "[0] (a): offerings: must have at least one offering");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "resources": {"cpu": "abc"}, "offerings": [)" + offering + "]}]"),
            "[0] (a): resources.cpu: \"abc\" is not a quantity");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "resources": {"memory": true}, "offerings": [)" + offering + "]}]"),
            "[0] (a): resources.memory: expected string or number, got boolean");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "offerings": [)" + offering + R"(, {"Price": "cheap"}]}])"),
            "[0] (a): offerings[1].Price: expected number, got string");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "operatingSystems": "linux", "offerings": [)" + offering + "]}]"),
            "[0] (a): operatingSystems: expected array, got string");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "offerings": [{"Price": 1, "Requirements": [)"
                    R"({"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z"]}]}]}])"),
            "[0] (a): offerings[0].Requirements: needs a karpenter.sh/capacity-type In requirement");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "offerings": [{"Price": 1, "Requirements": [)"
                    R"({"key": "example.com/rack", "operator": "In", "values": ["r1"]}]}]}])"),
            "[0] (a): offerings[0].Requirements[0].key: unsupported offering requirement key \"example.com/rack\" "
            "(kplace offerings have a topology.kubernetes.io/zone and a karpenter.sh/capacity-type)");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "offerings": [{"Price": 1, "Requirements": [)"
                    R"({"key": "topology.kubernetes.io/zone", "operator": "NotIn", "values": ["z"]}]}]}])"),
            "[0] (a): offerings[0].Requirements[0].operator: unsupported operator \"NotIn\" for "
            "topology.kubernetes.io/zone (In)");
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "offerings": [{"Price": 1, "Requirements": [)"
                    R"({"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["cheap"]}]}]}])"),
            "[0] (a): offerings[0].Requirements[0].values[0]: unsupported capacity type \"cheap\" (on-demand, spot "
            "or reserved)");
  EXPECT_EQ(
      ErrorOf(R"([{"name": "a", "offerings": [)" + offering + R"(]}, {"name": "a", "offerings": [)" + offering + "]}]"),
      "[1] (a): name: duplicate instance type \"a\" (also [0])");
}

// kwok/README.md points to kwok/examples/instance_types.json, still in the offering shape {capacityType, zone, price}
// that no released kwok provider reads (v1.0.0+ ignore both keys): an error naming the shape and the rewrite. The
// fixture is that file verbatim (kubernetes-sigs/karpenter 2266468104).
TEST(KwokInstanceTypes, OlderOfferingShapeIsNamed) {
  EXPECT_EQ(ErrorOf(ExamplesFixture()),
            "[0] (g5.4xlarge): offerings[0]: older kwok offering shape {capacityType, zone, price} (as in karpenter's "
            "kwok/examples/instance_types.json); expected {Price, Requirements}: the kwok provider reads offerings as "
            "{Price, Available, Requirements} since Karpenter v1.0.0 and ignores capacityType and zone. Write this "
            "offering as {\"Price\":1.624,\"Requirements\":[{\"key\":\"karpenter.sh/capacity-type\",\"operator\":"
            "\"In\",\"values\":[\"on-demand\"]},{\"key\":\"topology.kubernetes.io/zone\",\"operator\":\"In\","
            "\"values\":[\"us-east-1a\"]}]}");
  // The keys match case-insensitively, as encoding/json does (upstream's own file used "CapacityType", "Zone").
  EXPECT_EQ(ErrorOf(R"([{"name": "a", "offerings": [{"Zone": "z", "Price": 2, "Available": true}]}])"),
            "[0] (a): offerings[0]: older kwok offering shape {capacityType, zone, price} (as in karpenter's "
            "kwok/examples/instance_types.json); expected {Price, Requirements}: the kwok provider reads offerings as "
            "{Price, Available, Requirements} since Karpenter v1.0.0 and ignores capacityType and zone. Write this "
            "offering as {\"Price\":2,\"Requirements\":[{\"key\":\"karpenter.sh/capacity-type\",\"operator\":"
            "\"In\",\"values\":[\"...\"]},{\"key\":\"topology.kubernetes.io/zone\",\"operator\":\"In\","
            "\"values\":[\"z\"]}]}");
  // With Requirements the offering is today's shape; a stray zone key is dropped, as encoding/json drops it.
  std::vector<InstanceType> types =
      io::ParseKwokInstanceTypes(R"([{"name": "a", "offerings": [{"zone": "ignored", "Price": 1, "Requirements": [)"
                                 R"({"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z"]},)"
                                 R"({"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["spot"]}]}]}])");
  ASSERT_EQ(types.size(), 1u);
  ASSERT_EQ(types[0].offerings.size(), 1u);
  EXPECT_EQ(types[0].offerings[0].zone, "z");
}

}  // namespace
}  // namespace kplace
