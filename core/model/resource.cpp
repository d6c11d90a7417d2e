#include "core/model/resource.h"

#include <algorithm>
#include <cctype>

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

namespace {

// validation.IsQualifiedName: [prefix/]name, prefix a DNS-1123 subdomain (<= 253), name <= 63 characters of
// [A-Za-z0-9_.-] starting and ending alphanumeric.
bool IsQualifiedName(std::string_view s) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::string_view name = s;
  auto slash = s.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = s.substr(0, slash);
    name = s.substr(slash + 1);
    if (prefix.empty() || prefix.size() > 253) return false;
    std::size_t label = 0;
    for (std::size_t i = 0; i <= prefix.size(); ++i) {
      if (i == prefix.size() || prefix[i] == '.') {
        if (i == label) return false;  // empty label
        char first = prefix[label], last = prefix[i - 1];
        if (!(std::islower(static_cast<unsigned char>(first)) || std::isdigit(static_cast<unsigned char>(first))))
          return false;
        if (!(std::islower(static_cast<unsigned char>(last)) || std::isdigit(static_cast<unsigned char>(last))))
          return false;
        label = i + 1;
        continue;
      }
      char c = prefix[i];
      if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
        return false;
    }
  }
  if (name.empty() || name.size() > 63 || !alnum(name.front()) || !alnum(name.back())) return false;
  for (char c : name)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

}  // namespace

bool IsExtendedResourceName(std::string_view name) {
  // IsNativeResource: no '/' or a kubernetes.io/ prefixed name.
  if (name.find('/') == std::string_view::npos || name.find("kubernetes.io/") != std::string_view::npos) return false;
  if (name.rfind("requests.", 0) == 0) return false;
  std::string for_quota = "requests.";
  for_quota += name;
  return IsQualifiedName(for_quota);
}

bool IsScalarResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || name.rfind("hugepages-", 0) == 0 ||
         name.find("kubernetes.io/") != std::string_view::npos || name.rfind("attachable-volumes-", 0) == 0;
}

}  // namespace kplace
