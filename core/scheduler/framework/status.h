// Status: the outcome of one plugin at one extension point (upstream framework.Status, interface.go).
// A default-constructed Status is Success.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kplace::framework {

enum class Code : std::uint8_t {
  Success,
  Error,
  Unschedulable,                 // preemption might help
  UnschedulableAndUnresolvable,  // preemption cannot help
  Wait,
  Skip,
  Pending,
};

inline constexpr std::array<const char*, 7> kCodeNames = {
    "Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip", "Pending"};
static_assert(kCodeNames.size() == static_cast<std::size_t>(Code::Pending) + 1);

inline const char* CodeName(Code c) { return kCodeNames[static_cast<std::size_t>(c)]; }

class Status {
 public:
  Status() = default;
  explicit Status(Code code) : code_(code) {}
  Status(Code code, std::string reason) : code_(code) { reasons_.push_back(std::move(reason)); }
  Status(Code code, std::vector<std::string> reasons) : code_(code), reasons_(std::move(reasons)) {}

  static Status Success() { return Status(); }
  static Status Skip() { return Status(Code::Skip); }

  Code code() const { return code_; }
  bool IsSuccess() const { return code_ == Code::Success; }
  bool IsSkip() const { return code_ == Code::Skip; }
  // Unschedulable or UnschedulableAndUnresolvable.
  bool IsRejected() const { return code_ == Code::Unschedulable || code_ == Code::UnschedulableAndUnresolvable; }
  const std::vector<std::string>& reasons() const { return reasons_; }
  const std::string& plugin() const { return plugin_; }
  Status& WithPlugin(std::string name) {
    plugin_ = std::move(name);
    return *this;
  }
  void AppendReason(std::string r) { reasons_.push_back(std::move(r)); }
  // Reasons joined with ", " (Status.Message()).
  std::string Message() const {
    std::string out;
    for (std::size_t i = 0; i < reasons_.size(); ++i) {
      if (i) out += ", ";
      out += reasons_[i];
    }
    return out;
  }

  friend bool operator==(const Status& a, const Status& b) { return a.code_ == b.code_ && a.reasons_ == b.reasons_; }

 private:
  Code code_ = Code::Success;
  std::vector<std::string> reasons_;
  std::string plugin_;
};

}  // namespace kplace::framework
