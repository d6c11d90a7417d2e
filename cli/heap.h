// The CLI's heap, made ready for a run over an input file (Linux with glibc; elsewhere nothing).
#pragma once

#include <cstddef>

namespace kplace::cli {

// Grows the heap once, ahead of a run over input_bytes of scenario text, by as much as such a run allocates, and asks
// the kernel to back it with transparent huge pages. Idempotent; a failure leaves malloc as it was. Changes no output.
void PrepareHeap(std::size_t input_bytes);

}  // namespace kplace::cli
