// Status: the outcome of one plugin at one extension point (upstream framework.Status, interface.go).
// A default-constructed Status is Success.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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

// Reasons are kept without allocating in the common case: one reason that is a string constant (every plugin's
// reason constants are `const char*` literals) and the plugin name, also a constant. Dynamic reasons are owned.
class Status {
 public:
  Status() = default;
  explicit Status(Code code) : code_(code) {}
  // reason must outlive the Status (a string literal or a constant).
  Status(Code code, const char* reason) : code_(code), static_reason_(reason) {}
  Status(Code code, std::string reason)
      : code_(code), owned_(std::make_unique<std::vector<std::string>>(1, std::move(reason))) {}
  Status(Code code, std::vector<std::string> reasons)
      : code_(code),
        owned_(reasons.empty() ? nullptr : std::make_unique<std::vector<std::string>>(std::move(reasons))) {}
  Status(const Status& o)
      : code_(o.code_),
        plugin_(o.plugin_),
        static_reason_(o.static_reason_),
        owned_(o.owned_ ? std::make_unique<std::vector<std::string>>(*o.owned_) : nullptr) {}
  Status& operator=(const Status& o) {
    if (this != &o) *this = Status(o);
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  static Status Success() { return Status(); }
  static Status Skip() { return Status(Code::Skip); }

  Code code() const { return code_; }
  bool IsSuccess() const { return code_ == Code::Success; }
  bool IsSkip() const { return code_ == Code::Skip; }
  // Unschedulable or UnschedulableAndUnresolvable.
  bool IsRejected() const { return code_ == Code::Unschedulable || code_ == Code::UnschedulableAndUnresolvable; }
  std::vector<std::string> reasons() const {
    if (static_reason_) return {static_reason_};
    return owned_ ? *owned_ : std::vector<std::string>{};
  }
  // Calls f(std::string_view) on each reason in order, copying none.
  template <typename F>
  void ForEachReason(F&& f) const {
    if (static_reason_) {
      f(std::string_view(static_reason_));
      return;
    }
    if (owned_)
      for (const auto& r : *owned_) f(std::string_view(r));
  }
  // The reason when it is a single constant (a string literal), else nullptr.
  const char* static_reason() const { return static_reason_; }
  // The plugin that returned this status ("" when not set); a plugin name constant.
  const char* plugin() const { return plugin_; }
  Status& WithPlugin(const char* name) {
    plugin_ = name;
    return *this;
  }
  void AppendReason(std::string r) {
    if (!owned_) owned_ = std::make_unique<std::vector<std::string>>();
    if (static_reason_) owned_->emplace_back(std::exchange(static_reason_, nullptr));
    owned_->push_back(std::move(r));
  }
  // Reasons joined with ", " (Status.Message()).
  std::string Message() const {
    if (static_reason_) return static_reason_;
    std::string out;
    if (!owned_) return out;
    for (std::size_t i = 0; i < owned_->size(); ++i) {
      if (i) out += ", ";
      out += (*owned_)[i];
    }
    return out;
  }

  friend bool operator==(const Status& a, const Status& b) { return a.code_ == b.code_ && a.reasons() == b.reasons(); }

 private:
  Code code_ = Code::Success;
  const char* plugin_ = "";
  const char* static_reason_ = nullptr;
  // Reasons built at run time, or several; nullptr when none. Behind a pointer so that the common Status (a constant
  // reason or none, one per node per Filter plugin) is destroyed by one inline test.
  std::unique_ptr<std::vector<std::string>> owned_;
};

}  // namespace kplace::framework
