// Karpenter reads a cordoned Node's taints with the node.kubernetes.io/unschedulable:NoSchedule taint that the node
// lifecycle controller keeps on it (the behaviour itself is in tests/data/karpenter/derived_cordoned.json).
#include <gtest/gtest.h>

#include "core/karpenter/catalogue.h"

namespace kplace {
namespace {

TEST(KarpenterNodeTaints, CordonedNodeGetsTheUnschedulableTaintLast) {
  Node n;
  n.taints = {Taint{Intern("dedicated"), Intern("batch"), TaintEffect::NoSchedule}};
  EXPECT_EQ(karpenter::NodeTaints(n).size(), 1u);
  n.unschedulable = true;
  auto taints = karpenter::NodeTaints(n);
  ASSERT_EQ(taints.size(), 2u);
  EXPECT_EQ(karpenter::TaintString(taints[0]), "dedicated=batch:NoSchedule");
  EXPECT_EQ(karpenter::TaintString(taints[1]), "node.kubernetes.io/unschedulable:NoSchedule");
}

TEST(KarpenterNodeTaints, AnExistingTaintWithTheKeyAndEffectIsKept) {
  // The controller matches on key and effect (TaintSetDiff), so a value already there is left as it is.
  Node n;
  n.unschedulable = true;
  n.taints = {Taint{Intern("node.kubernetes.io/unschedulable"), Intern("x"), TaintEffect::NoSchedule}};
  auto taints = karpenter::NodeTaints(n);
  ASSERT_EQ(taints.size(), 1u);
  EXPECT_EQ(karpenter::TaintString(taints[0]), "node.kubernetes.io/unschedulable=x:NoSchedule");
  // Another effect is not the controller's taint.
  n.taints[0].effect = TaintEffect::NoExecute;
  EXPECT_EQ(karpenter::NodeTaints(n).size(), 2u);
}

}  // namespace
}  // namespace kplace
