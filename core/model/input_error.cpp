#include "core/model/input_error.h"

namespace kplace {

void FailInput(const std::string& item, const std::string& path, const std::string& what) {
  std::string msg = item;
  if (!path.empty()) msg += (msg.empty() ? "" : ": ") + path;
  throw InputError(msg.empty() ? what : msg + ": " + what);
}

}  // namespace kplace
