#include "cli/heap.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define KPLACE_GLIBC_HEAP 1
#endif

namespace kplace::cli {

// A run allocates millions of small objects (the parsed items, the model, per-node state): page by page, the first
// touch of each 4 KiB costs a page fault (on the benchmark machine, a VM, about 10 us each: 0.13 s of a 0.94 s run
// of 5,000 nodes / 10,000 pods), and the filter loop over thousands of NodeInfos misses the TLB. glibc's
// glibc.malloc.hugetlb=1 tunable (an environment variable) fixes both; this does the same from inside: the heap is
// grown once by about what the run needs (8x the input: that run peaks at 57 MB of heap for 8.4 MB of JSON), kept
// when freed, and advised as huge pages (the kernel's "madvise" mode, Debian's default). Blocks up to 32 MiB (the
// input text, big vectors) come from that heap instead of a mapping each. Measured in docs/benchmarks.md.
void PrepareHeap(std::size_t input_bytes) {
#if defined(KPLACE_GLIBC_HEAP) && !defined(__SANITIZE_ADDRESS__)
  static bool done = false;
  if (done) return;
  done = true;
  // KPLACE_HEAP=default: malloc as glibc sets it up (the benchmarks compare the WebAssembly core, whose memory the
  // engine maps in 4 KiB pages, with this too).
  if (const char* heap = std::getenv("KPLACE_HEAP"); heap && std::string_view(heap) == "default") return;
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  constexpr std::size_t kMin = std::size_t{64} << 20, kMax = std::size_t{4} << 30;
  const std::size_t bytes = std::clamp(input_bytes * 8, kMin, kMax);
  if (mallopt(M_MMAP_THRESHOLD, 32 << 20) == 0 || mallopt(M_TRIM_THRESHOLD, INT32_MAX) == 0) return;
  // The next growth of the heap (by the block below) adds M_TOP_PAD bytes; then the padding goes back to glibc's
  // default so later growth is as usual.
  if (mallopt(M_TOP_PAD, static_cast<int>(std::min<std::size_t>(bytes, INT32_MAX))) == 0) return;
  void* block = std::malloc(kHugePage);
  mallopt(M_TOP_PAD, 128 << 10);
  if (!block) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0)) & ~(kHugePage - 1);
  std::free(block);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)input_bytes;
#endif
}

}  // namespace kplace::cli
