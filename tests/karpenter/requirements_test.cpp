// Karpenter's requirement algebra (pkg/scheduling/requirement(s).go): intersection with bounds, string form and
// the Compatible / Intersects error texts.
#include "core/karpenter/requirements.h"

#include <gtest/gtest.h>

namespace kplace::karpenter {
namespace {

Requirement In(const char* key, std::initializer_list<const char*> values) {
  std::vector<Symbol> v;
  for (const char* s : values) v.push_back(Intern(s));
  return Requirement::Make(Intern(key), ReqOp::In, v);
}

Requirement Bounded(const char* key, SelectorOp op, std::int64_t n) {
  LabelRequirement lr;
  lr.key = Intern(key);
  lr.op = op;
  lr.values = {Intern(std::to_string(n))};
  lr.number = n;
  return Requirement::FromSelector(lr);
}

TEST(KarpenterRequirements, StringForms) {
  EXPECT_EQ(In("zone", {"b", "a"}).String(), "zone In [a b]");
  EXPECT_EQ(In("k", {"1", "2", "3", "4", "5", "6", "7"}).String(), "k In [1 2 3 4 5 and 2 others]");
  EXPECT_EQ(Requirement::Make(Intern("k"), ReqOp::Exists).String(), "k Exists");
  EXPECT_EQ(Requirement::Make(Intern("k"), ReqOp::NotIn, {Intern("x")}).String(), "k NotIn [x]");
  EXPECT_EQ(Bounded("n", SelectorOp::Gt, 8).String(), "n Exists >=9");
  EXPECT_EQ(Bounded("n", SelectorOp::Lt, 8).String(), "n Exists <=7");
}

TEST(KarpenterRequirements, IntersectionWithBounds) {
  Requirement gt = Bounded("n", SelectorOp::Gt, 2);
  Requirement r = Intersection(gt, In("n", {"1", "3", "x"}));
  EXPECT_EQ(r.String(), "n In [3]");  // bounds drop once the set is concrete; non-integers are out of bounds
  Requirement empty = Intersection(gt, Bounded("n", SelectorOp::Lt, 3));
  EXPECT_EQ(empty.Operator(), ReqOp::DoesNotExist);
  EXPECT_TRUE(HasIntersection(gt, Bounded("n", SelectorOp::Lt, 5)));
  EXPECT_TRUE(HasIntersection(gt, Bounded("n", SelectorOp::Lt, 4)));  // 3 <= n <= 3
  EXPECT_FALSE(HasIntersection(gt, Bounded("n", SelectorOp::Lt, 3)));
}

TEST(KarpenterRequirements, CompatibleMessages) {
  Requirements node;
  node.Add(In("test-key", {"test-value"}));
  Requirements pod;
  pod.Add(In("test-key", {"another-value"}));
  EXPECT_EQ(Compatible(node, pod, nullptr),
            "key test-key, test-key In [another-value] not in test-key In [test-value]");
  Requirements undefined;
  undefined.Add(In("other", {"v"}));
  EXPECT_EQ(Compatible(node, undefined, nullptr), "label \"other\" does not have known values");
  KeySet allow = {Intern("other")};
  EXPECT_EQ(Compatible(node, undefined, &allow), "");
  Requirements negative;
  negative.Add(Requirement::Make(Intern("missing"), ReqOp::DoesNotExist));
  EXPECT_EQ(Compatible(node, negative, nullptr), "");
  EXPECT_EQ(node.String(), "test-key In [test-value]");
}

}  // namespace
}  // namespace kplace::karpenter
