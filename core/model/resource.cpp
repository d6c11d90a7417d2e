#include "core/model/resource.h"

#include <algorithm>

namespace kplace {

namespace resource_names {
Symbol Cpu() {
  static const Symbol s = Intern("cpu");
  return s;
}
Symbol Memory() {
  static const Symbol s = Intern("memory");
  return s;
}
Symbol EphemeralStorage() {
  static const Symbol s = Intern("ephemeral-storage");
  return s;
}
Symbol Pods() {
  static const Symbol s = Intern("pods");
  return s;
}
}  // namespace resource_names

std::int64_t Resource::Scalar(Symbol name) const {
  for (const auto& [k, v] : scalar)
    if (k == name) return v;
  return 0;
}

void Resource::SetScalar(Symbol name, std::int64_t v) {
  auto it = std::lower_bound(scalar.begin(), scalar.end(), name, [](const auto& e, Symbol k) { return e.first < k; });
  if (it != scalar.end() && it->first == name)
    it->second = v;
  else
    scalar.insert(it, {name, v});
}

void Resource::Add(const Resource& o, int sign) {
  milli_cpu += sign * o.milli_cpu;
  memory += sign * o.memory;
  ephemeral_storage += sign * o.ephemeral_storage;
  allowed_pod_number += sign * o.allowed_pod_number;
  for (const auto& [k, v] : o.scalar) AddScalar(k, sign * v);
}

void Resource::SetMax(const Resource& o) {
  milli_cpu = std::max(milli_cpu, o.milli_cpu);
  memory = std::max(memory, o.memory);
  ephemeral_storage = std::max(ephemeral_storage, o.ephemeral_storage);
  allowed_pod_number = std::max(allowed_pod_number, o.allowed_pod_number);
  for (const auto& [k, v] : o.scalar)
    if (v > Scalar(k)) SetScalar(k, v);
}

bool Resource::IsZero() const {
  if (milli_cpu != 0 || memory != 0 || ephemeral_storage != 0) return false;
  for (const auto& [k, v] : scalar)
    if (v != 0) return false;
  return true;
}

std::int64_t Resource::Get(Symbol name) const {
  if (name == resource_names::Cpu()) return milli_cpu;
  if (name == resource_names::Memory()) return memory;
  if (name == resource_names::EphemeralStorage()) return ephemeral_storage;
  if (name == resource_names::Pods()) return allowed_pod_number;
  return Scalar(name);
}

}  // namespace kplace
