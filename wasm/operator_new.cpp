// operator new and delete for the page's WebAssembly (kplace-core, kplace-app and the UI smoke test link this): small
// blocks from wasm/small_blocks.h, larger ones from malloc. libc++'s other forms (nothrow, arrays, sized) call these;
// its aligned forms keep to aligned_alloc and free, paired among themselves.
#include <stdlib.h>  // aligned_alloc: libc++ 14 has no std::aligned_alloc here

#include <cstdlib>
#include <new>

#include "wasm/small_blocks.h"

namespace {

static_assert(sizeof(void*) == 4, "the table covers a 32-bit address space: WebAssembly only");
using Blocks = kplace::wasm::SmallBlocks<65536>;

void* Slab() { return aligned_alloc(Blocks::kChunkBytes, Blocks::kSlabBytes); }

// Constant-initialized: operator new can run before any constructor of a static object.
constinit Blocks blocks(0, &Slab);

}  // namespace

void* operator new(std::size_t bytes) {
  void* p = Blocks::Small(bytes) ? blocks.Allocate(bytes) : std::malloc(bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

void operator delete(void* p) noexcept {
  if (p && !blocks.Release(p)) std::free(p);
}

void* operator new[](std::size_t bytes) { return ::operator new(bytes); }
void operator delete[](void* p) noexcept { ::operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { ::operator delete(p); }
