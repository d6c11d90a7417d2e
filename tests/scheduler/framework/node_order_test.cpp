// BuildNodeOrder: kube-scheduler's node tree order (zones interleaved, backend/cache/node_tree.go) and the per-node
// data it copies beside each NodeInfo for the filter and score passes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/model/objects.h"
#include "core/scheduler/framework/types.h"

namespace kplace {
namespace {

Node MakeNode(const std::string& name, const std::string& zone, std::int64_t milli_cpu) {
  Node n;
  n.meta.name = name;
  if (!zone.empty()) n.meta.labels.Set(Intern("topology.kubernetes.io/zone"), Intern(zone));
  n.allocatable.milli_cpu = milli_cpu;
  n.allocatable.allowed_pod_number = 110;
  return n;
}

TEST(BuildNodeOrder, InterleavesZonesAndRanksNames) {
  // Listed order: zone-b first, so its nodes lead each round; "zz" has no zone (its own group, met third).
  std::vector<Node> nodes = {MakeNode("b-2", "zone-b", 1000), MakeNode("a-9", "zone-a", 2000), MakeNode("zz", "", 3000),
                             MakeNode("b-1", "zone-b", 4000), MakeNode("a-10", "zone-a", 5000)};
  std::vector<const Node*> list;
  for (const auto& n : nodes) list.push_back(&n);
  framework::Snapshot snapshot;
  framework::BuildNodeOrder(list, snapshot);

  std::vector<std::string> order;
  for (const auto& ni : snapshot.nodes) order.push_back(ni.Name());
  EXPECT_EQ(order, (std::vector<std::string>{"b-2", "a-9", "zz", "b-1", "a-10"}));

  for (std::size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const auto& ni = snapshot.nodes[i];
    EXPECT_EQ(ni.index, static_cast<int>(i));
    // The copy Filter and Score read equals the Node's own.
    EXPECT_EQ(ni.Allocatable().milli_cpu, ni.node->allocatable.milli_cpu) << ni.Name();
    EXPECT_EQ(ni.Allocatable().allowed_pod_number, 110) << ni.Name();
  }
  // name_rank orders nodes exactly as their names compare (byte order: "a-10" < "a-9").
  std::vector<std::string> by_rank(snapshot.nodes.size());
  for (const auto& ni : snapshot.nodes) by_rank[static_cast<std::size_t>(ni.name_rank)] = ni.Name();
  EXPECT_EQ(by_rank, (std::vector<std::string>{"a-10", "a-9", "b-1", "b-2", "zz"}));
}

TEST(BuildNodeOrder, RebuildRefreshesCopies) {
  std::vector<Node> nodes = {MakeNode("n1", "z", 1000), MakeNode("n0", "z", 2000)};
  std::vector<const Node*> list = {&nodes[0], &nodes[1]};
  framework::Snapshot snapshot;
  framework::BuildNodeOrder(list, snapshot);
  EXPECT_EQ(snapshot.nodes[0].name_rank, 1);
  // A changed node is a new Node object; the next BuildNodeOrder takes its allocatable.
  Node changed = MakeNode("n1", "z", 7000);
  list[0] = &changed;
  framework::BuildNodeOrder(list, snapshot);
  EXPECT_EQ(snapshot.nodes[0].Allocatable().milli_cpu, 7000);
  EXPECT_EQ(snapshot.nodes[1].Allocatable().milli_cpu, 2000);
}

}  // namespace
}  // namespace kplace
