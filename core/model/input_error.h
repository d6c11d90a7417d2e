// Bad input: a scenario that cannot be read or cannot run. Every layer reports it the same way, with a message
// that names the item and the JSON path inside it, as the scenario contract requires:
// `items[3] (Pod default/web): spec.containers[0].resources.requests.cpu: "abc" is not a quantity`.
// Front ends print the message as it is (CLI: exit code 2; wasm: {"status": "failure", "errors": [...]}).
#pragma once

#include <stdexcept>
#include <string>

namespace kplace {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws InputError("<item>: <path>: <what>"); an empty item or path is left out with its separator.
[[noreturn]] void FailInput(const std::string& item, const std::string& path, const std::string& what);

}  // namespace kplace
