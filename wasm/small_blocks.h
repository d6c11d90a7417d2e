// Small blocks for operator new in the page's WebAssembly (wasm/operator_new.cpp): a free list per size class, no
// header per block, no coalescing. Reading a scenario allocates millions of small objects (a parsed item's strings,
// objects and arrays, then the model's) and frees the parsed item's right after; Emscripten's dlmalloc spent about a
// tenth of the core's time there, where a block from a free list is a load and a store (the disruption dry run over
// 1,000 nodes x 20 pods: 4% fewer instructions, 8 to 18% less wall time). Plain C++ (no Emscripten): the tests run it
// natively over a region of their own.
//
// Memory comes in slabs (kSlabBytes, aligned to kChunkBytes) from a source; each chunk of kChunkBytes serves one size
// class, which a table indexed by the chunk's address keeps, so Release tells its blocks from any other pointer (one
// from malloc, for a block above kLargest) by address alone. A freed block serves the next allocation of its class
// only: memory is never given back, as WebAssembly memory never shrinks either.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kplace::wasm {

// kChunks: how many chunks the table covers from base (WebAssembly: 65,536 chunks of 64 KiB from 0, every address).
template <std::size_t kChunks>
class SmallBlocks {
 public:
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 16;
  static constexpr std::size_t kSlabBytes = std::size_t{1} << 20;
  // Block sizes are multiples of what operator new must align to (8 bytes in WebAssembly, 16 natively).
  static constexpr std::size_t kGrain = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
  static constexpr std::size_t kLargest = 256;
  static constexpr std::size_t kClasses = kLargest / kGrain;
  // Returns kSlabBytes aligned to kChunkBytes inside the covered range, or nullptr when there is no more memory.
  using SlabSource = void* (*)();

  constexpr SmallBlocks(std::uintptr_t base, SlabSource source) : base_(base), source_(source) {}

  static constexpr bool Small(std::size_t bytes) { return bytes <= kLargest; }

  // A block of at least `bytes` (Small(bytes) must hold; 0 is given a block of kGrain), or nullptr when the source
  // has no more memory.
  void* Allocate(std::size_t bytes) {
    const std::size_t c = bytes == 0 ? 1 : (bytes + kGrain - 1) / kGrain;
    if (Free* block = free_[c]) {
      free_[c] = block->next;
      return block;
    }
    const std::size_t size = c * kGrain;
    if (static_cast<std::size_t>(end_[c] - next_[c]) >= size) {
      char* block = next_[c];
      next_[c] += size;
      return block;
    }
    return NewChunk(c);
  }

  // Takes back a block Allocate gave; false (and nothing done) for any other pointer.
  bool Release(void* p) {
    const std::size_t c = ClassOf(p);
    if (c == 0) return false;
    Free* block = static_cast<Free*>(p);
    block->next = free_[c];
    free_[c] = block;
    return true;
  }

  // The size class of the chunk holding p (its blocks are ClassOf(p) * kGrain bytes), 0 when p is not in one.
  std::size_t ClassOf(const void* p) const {
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(p) - base_;  // wraps below base: out of range
    const std::uintptr_t chunk = offset / kChunkBytes;
    return chunk < kChunks ? class_of_[chunk] : 0;
  }

 private:
  struct Free {
    Free* next;
  };

  // A fresh chunk for class c (the rest of its last chunk, less than one block, stays unused).
  void* NewChunk(std::size_t c) {
    if (slab_next_ == slab_end_) {
      char* slab = static_cast<char*>(source_());
      if (!slab) return nullptr;
      slab_next_ = slab;
      slab_end_ = slab + kSlabBytes;
    }
    char* chunk = slab_next_;
    slab_next_ += kChunkBytes;
    class_of_[(reinterpret_cast<std::uintptr_t>(chunk) - base_) / kChunkBytes] = static_cast<unsigned char>(c);
    next_[c] = chunk + c * kGrain;
    end_[c] = chunk + kChunkBytes;
    return chunk;
  }

  static_assert(kLargest % kGrain == 0 && kClasses < 256, "a class must fit the table's byte");
  static_assert(kSlabBytes % kChunkBytes == 0 && kChunkBytes >= kLargest);

  std::uintptr_t base_;
  SlabSource source_;
  Free* free_[kClasses + 1] = {};
  char* next_[kClasses + 1] = {};  // class c's unused blocks run from next_[c] to end_[c] in its newest chunk
  char* end_[kClasses + 1] = {};
  char* slab_next_ = nullptr;  // chunks not yet given to a class
  char* slab_end_ = nullptr;
  unsigned char class_of_[kChunks] = {};
};

}  // namespace kplace::wasm
