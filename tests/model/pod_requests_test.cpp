// Runs tests/data/model/pod_requests.json (component-helpers PodRequests, the scheduler's PodInfo resource
// accounting and non-zero requests) through the real pod parser and framework::NewPodInfo.
// One GoogleTest test per case: PodRequestsTable/<case index>.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/io/scenario_parser.h"
#include "core/scheduler/framework/types.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

// A resource list as framework.Resource sees it: names that are not scheduler resources (e.g. "storage") drop.
Resource SchedulerResource(const Json& list) {
  Resource r = io::Reader("want", "").AsResourceList(list);
  std::erase_if(r.scalar, [](const auto& e) { return !IsScalarResourceName(Text(e.first)); });
  return r;
}

std::string Show(const Resource& r) {
  std::ostringstream out;
  out << "{cpu=" << r.milli_cpu << "m memory=" << r.memory << " ephemeral-storage=" << r.ephemeral_storage
      << " pods=" << r.allowed_pod_number;
  std::vector<std::pair<std::string, std::int64_t>> scalars;
  for (const auto& [k, v] : r.scalar) scalars.emplace_back(Text(k), v);
  std::sort(scalars.begin(), scalars.end());
  for (const auto& [k, v] : scalars) out << " " << k << "=" << v;
  out << "}";
  return out.str();
}

void RunCase(const Json& c) {
  int minor = c.contains("kubernetesVersion")
                  ? io::ParseKubernetesVersion(c["kubernetesVersion"].get<std::string>(), io::Reader("case", ""))
                  : testing::kTableDefaultMinor;
  // The parser applies the API server's container limit -> request defaulting, so the admitted result is what
  // kplace must reproduce.
  Pod pod = io::ParsePod(c.at("pod"), io::Reader("pod", ""));
  auto info = framework::NewPodInfo(pod, 0, Features(minor));
  const Json& want = c.contains("wantAdmitted") ? c["wantAdmitted"] : c.at("want");
  EXPECT_EQ(Show(info->requests), Show(SchedulerResource(want))) << "requests";
  if (c.contains("nonZero")) {
    Resource nz = SchedulerResource(c["nonZero"]);
    EXPECT_EQ(info->non_zero_milli_cpu, nz.milli_cpu) << "non-zero cpu";
    EXPECT_EQ(info->non_zero_memory, nz.memory) << "non-zero memory";
  }
}

// Resource name classes as in pkg/apis/core/v1/helper (IsExtendedResourceName) and schedutil.IsScalarResourceName.
TEST(ResourceNames, Classification) {
  for (const char* n : {"example.com/aaa", "nvidia.com/gpu", "extended.resource.dra.io/something", "foo.bar/baz_1"}) {
    EXPECT_TRUE(IsExtendedResourceName(n)) << n;
    EXPECT_TRUE(IsScalarResourceName(n)) << n;
  }
  for (const char* n : {"cpu", "memory", "storage", "pods", "kubernetes.io/something", "requests.example.com/aaa",
                        "Example.com/aaa", "example.com/", "example.com/a/b", "example.com/-a"})
    EXPECT_FALSE(IsExtendedResourceName(n)) << n;
  for (const char* n :
       {"hugepages-2Mi", "kubernetes.io/something", "subdomain.kubernetes.io/something", "attachable-volumes-aws-ebs"})
    EXPECT_TRUE(IsScalarResourceName(n)) << n;
  for (const char* n : {"cpu", "memory", "ephemeral-storage", "pods", "storage", "foo"})
    EXPECT_FALSE(IsScalarResourceName(n)) << n;
}

// API-server defaulting of pod-level requests from pod-level limits (SetDefaults_Pod, PodLevelResources): not in the
// upstream table, which uses objects as written.
TEST(PodLevelDefaulting, RequestsFromLimits) {
  auto info_of = [](const char* spec, int minor) {
    static std::vector<std::unique_ptr<Pod>> keep;
    Json j = {{"metadata", {{"name", "p"}}}, {"spec", Json::parse(spec)}};
    keep.push_back(std::make_unique<Pod>(io::ParsePod(j, io::Reader("pod", ""))));
    return framework::NewPodInfo(*keep.back(), 0, Features(minor));
  };
  // No container requests cpu: the pod-level cpu request defaults to the pod-level limit.
  auto a =
      info_of(R"({"containers": [{"name": "c"}], "resources": {"limits": {"cpu": "2", "hugepages-2Mi": "4Mi"}}})", 35);
  EXPECT_EQ(a->requests.milli_cpu, 2000);
  EXPECT_EQ(a->requests.Scalar(Intern("hugepages-2Mi")), 4 << 20);
  EXPECT_TRUE(a->pod_level_requests);
  EXPECT_EQ(a->non_zero_milli_cpu, 2000);
  EXPECT_EQ(a->non_zero_memory, kDefaultMemoryRequest);
  // A container requests cpu: the pod-level request is the containers' aggregate, not the limit.
  auto b = info_of(R"({"containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}],
                      "resources": {"limits": {"cpu": "2"}}})",
                   35);
  EXPECT_EQ(b->requests.milli_cpu, 500);
  // v1.33: PodLevelResources is off, spec.resources is ignored.
  auto c = info_of(R"({"containers": [{"name": "c"}], "resources": {"limits": {"cpu": "2"}}})", 33);
  EXPECT_EQ(c->requests.milli_cpu, 0);
  EXPECT_FALSE(c->pod_level_requests);
  EXPECT_EQ(c->non_zero_milli_cpu, kDefaultMilliCpuRequest);
}

class PodRequestsTable : public ::testing::TestWithParam<testing::TableCase> {};
TEST_P(PodRequestsTable, Case) { testing::RunTableCase(GetParam(), RunCase); }
INSTANTIATE_TEST_SUITE_P(PodRequestsTables, PodRequestsTable,
                         ::testing::ValuesIn(testing::ListTableCases("model/pod_requests.json")),
                         testing::TableCaseParamName);

}  // namespace
}  // namespace kplace
