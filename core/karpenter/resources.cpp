#include "core/karpenter/resources.h"

#include <algorithm>
#include <map>

namespace kplace::karpenter {
namespace {

// Applies f(a_value, b_value) to every resource present in a or b.
template <typename F>
Resource Combine(const Resource& a, const Resource& b, F&& f) {
  Resource r;
  r.milli_cpu = f(a.milli_cpu, b.milli_cpu);
  r.memory = f(a.memory, b.memory);
  r.ephemeral_storage = f(a.ephemeral_storage, b.ephemeral_storage);
  r.allowed_pod_number = f(a.allowed_pod_number, b.allowed_pod_number);
  for (const auto& [k, v] : a.scalar) r.SetScalar(k, f(v, b.Scalar(k)));
  // Not a structured binding: clang 14 (Emscripten) cannot capture one in a lambda.
  for (const auto& kv : b.scalar) {
    const auto& k = kv.first;
    if (!std::any_of(a.scalar.begin(), a.scalar.end(), [&](const auto& e) { return e.first == k; }))
      r.SetScalar(k, f(a.Scalar(k), kv.second));
  }
  return r;
}

std::string WithSuffix(std::int64_t v, bool binary) {
  static const char* kBin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  static const char* kDec[] = {"", "k", "M", "G", "T", "P", "E"};
  const std::int64_t base = binary ? 1024 : 1000;
  int e = 0;
  while (v != 0 && v % base == 0 && e < 6) {
    v /= base;
    ++e;
  }
  return std::to_string(v) + (binary ? kBin[e] : kDec[e]);
}

}  // namespace

bool Fits(const Resource& requests, const Resource& available) {
  // Every resource of either list (absent = 0): available not negative, request not above it. Hot: no temporaries.
  auto ok = [](std::int64_t r, std::int64_t a) { return a >= 0 && r <= a; };
  if (!ok(requests.milli_cpu, available.milli_cpu) || !ok(requests.memory, available.memory) ||
      !ok(requests.ephemeral_storage, available.ephemeral_storage) ||
      !ok(requests.allowed_pod_number, available.allowed_pod_number))
    return false;
  for (const auto& kv : requests.scalar)
    if (!ok(kv.second, available.Scalar(kv.first))) return false;
  for (const auto& kv : available.scalar)
    if (!ok(requests.Scalar(kv.first), kv.second)) return false;
  return true;
}

Resource Min(const Resource& a, const Resource& b) {
  return Combine(a, b, [](std::int64_t x, std::int64_t y) { return std::min(x, y); });
}
Resource Max(const Resource& a, const Resource& b) {
  return Combine(a, b, [](std::int64_t x, std::int64_t y) { return std::max(x, y); });
}
Resource ClampZero(const Resource& a) {
  return Combine(a, Resource{}, [](std::int64_t x, std::int64_t) { return std::max<std::int64_t>(x, 0); });
}
bool AnyNegative(const Resource& a) {
  bool neg = false;
  Combine(a, Resource{}, [&](std::int64_t x, std::int64_t) {
    neg = neg || x < 0;
    return x;
  });
  return neg;
}
bool Equal(const Resource& a, const Resource& b) {
  bool eq = true;
  Combine(a, b, [&](std::int64_t x, std::int64_t y) {
    eq = eq && x == y;
    return x;
  });
  return eq;
}

std::string CpuString(std::int64_t milli) {
  if (milli % 1000 != 0) return std::to_string(milli) + "m";
  return WithSuffix(milli / 1000, false);
}

std::string QuantityString(std::int64_t v) {
  if (v != 0 && v % 1024 == 0) return WithSuffix(v, true);
  return WithSuffix(v, false);
}

std::string ResourcesJson(const Resource& r) {
  std::map<std::string, std::string> m;
  if (r.milli_cpu) m["cpu"] = CpuString(r.milli_cpu);
  if (r.memory) m["memory"] = QuantityString(r.memory);
  if (r.ephemeral_storage) m["ephemeral-storage"] = QuantityString(r.ephemeral_storage);
  if (r.allowed_pod_number) m["pods"] = std::to_string(r.allowed_pod_number);
  for (const auto& [k, v] : r.scalar) m[Text(k)] = QuantityString(v);
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : m) {
    if (!first) out += ",";
    first = false;
    out += "\"" + k + "\":\"" + v + "\"";
  }
  return out + "}";
}

}  // namespace kplace::karpenter
