#include "core/model/features.h"

#include <algorithm>

namespace kplace {

static_assert(std::is_sorted(kReleases.begin(), kReleases.end()));
static_assert(std::find(kReleases.begin(), kReleases.end(), kDefaultMinor) != kReleases.end());

Features::Features(int minor) : minor_(minor) {
  for (const FeatureSpec& f : kFeatureTable)
    if (minor >= f.since_minor) bits_ |= 1u << static_cast<unsigned>(f.feature);
}

bool IsSupportedMinor(int minor) { return std::find(kReleases.begin(), kReleases.end(), minor) != kReleases.end(); }

std::string VersionText(int minor) { return "1." + std::to_string(minor); }

std::string SupportedVersionsText() {
  std::string out;
  for (std::size_t i = 0; i < kReleases.size(); ++i) {
    if (i > 0) out += i + 1 == kReleases.size() ? " or " : ", ";
    out += "\"" + VersionText(kReleases[i]) + "\"";
  }
  return out;
}

std::string VersionRangeText() { return VersionText(kReleases.front()) + "-" + VersionText(kReleases.back()); }

std::string FeatureTableMarkdown() {
  std::string out = "| behaviour |";
  std::string rule = "|---|";
  for (int minor : kReleases) {
    out += " " + VersionText(minor) + (minor == kDefaultMinor ? " (default)" : "") + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const FeatureSpec& f : kFeatureTable) {
    out += "| `" + std::string(f.name) + "`: " + f.what + " |";
    for (int minor : kReleases) out += minor >= f.since_minor ? " yes |" : " no |";
    out += "\n";
  }
  return out;
}

std::optional<int> ParseKubernetesVersion(std::string_view version) {
  std::string_view s = version;
  if (!s.empty() && s[0] == 'v') s.remove_prefix(1);
  for (int minor : kReleases) {
    const std::string base = VersionText(minor);
    if (s == base || (s.size() > base.size() && s.substr(0, base.size()) == base && s[base.size()] == '.'))
      return minor;
  }
  return std::nullopt;
}

}  // namespace kplace
