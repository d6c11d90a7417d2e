// Runs tests/data/model/quantity.json through Quantity::Parse / Value / MilliValue.
// A case without "error" must parse; a missing value/milliValue means that view overflows int64 upstream (the
// result is undefined there), so it is not checked.
#include "core/model/quantity.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/testing/table.h"

namespace kplace {
namespace {

using Json = nlohmann::json;

std::string Show(const std::string& in) { return "\"" + in + "\""; }

TEST(QuantityTable, AllCases) {
  Json table = testing::LoadJson(testing::DataPath("model/quantity.json"));
  int checked = 0;
  for (const Json& c : table.at("cases")) {
    std::string in = c.at("in");
    SCOPED_TRACE(Show(in) + " " + c.value("note", ""));
    auto q = Quantity::Parse(in);
    if (c.value("error", false)) {
      EXPECT_FALSE(q.has_value()) << Show(in) << " should not parse";
      ++checked;
      continue;
    }
    ASSERT_TRUE(q.has_value()) << Show(in) << " should parse";
    if (c.contains("value")) {
      EXPECT_EQ(q->Value(), c["value"].get<std::int64_t>()) << Show(in) << " Value()";
    }
    if (c.contains("milliValue")) {
      EXPECT_EQ(q->MilliValue(), c["milliValue"].get<std::int64_t>()) << Show(in) << " MilliValue()";
    }
    ++checked;
  }
  EXPECT_GT(checked, 400);
}

TEST(Quantity, OverflowSaturates) {
  // Upstream leaves overflowing views undefined; kplace saturates so comparisons stay ordered.
  EXPECT_EQ(Quantity::Parse("1E")->MilliValue(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(Quantity::Parse("12E")->Value(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(Quantity::Parse("-12E")->Value(), -std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(Quantity::Parse("1e1000000")->Value(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(Quantity::Parse("1e-1000000")->Value(), 1);
  EXPECT_EQ(Quantity::Parse(std::string(100000, '9'))->Value(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(Quantity::Parse("0." + std::string(100000, '0') + "1Ei")->MilliValue(), 1);
}

TEST(Quantity, ExactNanos) {
  EXPECT_EQ(Quantity::Parse("1.000000000001Ki")->Nanos(), static_cast<Int128>(1024000000002));
  EXPECT_EQ(Quantity::Parse(".000000000001Ki")->Nanos(), static_cast<Int128>(2));
  EXPECT_EQ(Quantity::Parse("-0.9n")->Nanos(), static_cast<Int128>(-1));
  EXPECT_EQ(Quantity::Parse("1.5Gi")->Nanos(), static_cast<Int128>(1610612736) * 1000000000);
  EXPECT_EQ(Quantity::FromMilli(1500), *Quantity::Parse("1.5"));
  EXPECT_EQ(Quantity::FromValue(3), *Quantity::Parse("3000m"));
  EXPECT_TRUE(Quantity::Parse("-0")->IsZero());
  EXPECT_TRUE(Quantity::Parse("-1m")->IsNegative());
}

}  // namespace
}  // namespace kplace
