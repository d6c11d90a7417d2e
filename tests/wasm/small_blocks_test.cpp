// The page's operator new (wasm/small_blocks.h), natively: over a region of the test's own, so the table's range,
// the chunks' classes and running out of memory are all seen.
#include "wasm/small_blocks.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <vector>

namespace {

using kplace::wasm::SmallBlocks;
constexpr std::size_t kRegionChunks = 64;  // 4 MiB: four slabs
using Blocks = SmallBlocks<kRegionChunks>;

// The region the slabs come from, and how many slabs it still gives.
struct Region {
  char* begin = nullptr;
  int slabs_given = 0;
  int slabs_allowed = 4;
};
Region region;

void* Slab() {
  if (region.slabs_given == region.slabs_allowed) return nullptr;
  return region.begin + Blocks::kSlabBytes * static_cast<std::size_t>(region.slabs_given++);
}

class SmallBlocksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    memory_ = static_cast<char*>(std::aligned_alloc(Blocks::kChunkBytes, kRegionChunks * Blocks::kChunkBytes));
    ASSERT_NE(memory_, nullptr);
    region = Region{memory_, 0, 4};
    blocks_ = new Blocks(reinterpret_cast<std::uintptr_t>(memory_), &Slab);
  }
  void TearDown() override {
    delete blocks_;
    std::free(memory_);
  }
  char* memory_ = nullptr;
  Blocks* blocks_ = nullptr;
};

TEST_F(SmallBlocksTest, EverySizeGetsAnAlignedBlockOfItsClass) {
  std::set<std::size_t> classes;
  for (std::size_t bytes = 0; bytes <= Blocks::kLargest; ++bytes) {
    void* p = blocks_->Allocate(bytes);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % Blocks::kGrain, 0u) << bytes;
    const std::size_t c = blocks_->ClassOf(p);
    EXPECT_GE(c * Blocks::kGrain, bytes) << bytes;
    EXPECT_LT((c - 1) * Blocks::kGrain, bytes == 0 ? 1 : bytes) << bytes;  // the smallest class that fits
    classes.insert(c);
  }
  EXPECT_EQ(classes.size(), Blocks::kClasses);
  EXPECT_TRUE(Blocks::Small(Blocks::kLargest));
  EXPECT_FALSE(Blocks::Small(Blocks::kLargest + 1));
}

TEST_F(SmallBlocksTest, AFreedBlockServesTheNextAllocationOfItsClassOnly) {
  void* a = blocks_->Allocate(24);
  void* b = blocks_->Allocate(24);
  EXPECT_NE(a, b);
  EXPECT_TRUE(blocks_->Release(a));
  void* other = blocks_->Allocate(40);  // another class: not a's block
  EXPECT_NE(other, a);
  EXPECT_EQ(blocks_->Allocate(17), a);  // 17 rounds up to a's class
  EXPECT_TRUE(blocks_->Release(b));
  EXPECT_TRUE(blocks_->Release(a));
  EXPECT_EQ(blocks_->Allocate(24), a);  // last freed, first given
  EXPECT_EQ(blocks_->Allocate(24), b);
}

TEST_F(SmallBlocksTest, PointersNotFromItsChunksAreNotTaken) {
  void* from_malloc = std::malloc(16);
  EXPECT_FALSE(blocks_->Release(from_malloc));
  std::free(from_malloc);
  EXPECT_EQ(blocks_->ClassOf(memory_ - 1), 0u);  // below the table's base (the offset wraps)
  EXPECT_EQ(blocks_->ClassOf(memory_ + kRegionChunks * Blocks::kChunkBytes), 0u);  // past its end
  EXPECT_EQ(blocks_->ClassOf(memory_), 0u);                                        // not yet a chunk
  EXPECT_FALSE(blocks_->Release(memory_));
  void* p = blocks_->Allocate(8);
  EXPECT_EQ(p, memory_);  // the first chunk of the first slab
  EXPECT_EQ(blocks_->ClassOf(memory_ + Blocks::kChunkBytes - 1), 1u);
  EXPECT_EQ(blocks_->ClassOf(memory_ + Blocks::kChunkBytes), 0u);  // the next chunk: no class yet
}

TEST_F(SmallBlocksTest, AClassMovesToAFreshChunkWhenItsChunkIsFull) {
  const std::size_t per_chunk = Blocks::kChunkBytes / Blocks::kLargest;
  std::vector<char*> got;
  for (std::size_t i = 0; i <= per_chunk; ++i) got.push_back(static_cast<char*>(blocks_->Allocate(Blocks::kLargest)));
  for (std::size_t i = 0; i < per_chunk; ++i) EXPECT_EQ(got[i], memory_ + i * Blocks::kLargest);
  EXPECT_EQ(got[per_chunk], memory_ + Blocks::kChunkBytes);
  EXPECT_EQ(blocks_->ClassOf(got[per_chunk]), Blocks::kClasses);
}

TEST_F(SmallBlocksTest, NullWhenTheSourceRunsOut) {
  region.slabs_allowed = 1;
  void* small = blocks_->Allocate(Blocks::kGrain);  // the slab's first chunk
  ASSERT_NE(small, nullptr);
  // The largest class takes the slab's other chunks, block by block, then finds no memory.
  const std::size_t blocks_left = (Blocks::kSlabBytes - Blocks::kChunkBytes) / Blocks::kLargest;
  void* last = nullptr;
  for (std::size_t i = 0; i < blocks_left; ++i) ASSERT_NE(last = blocks_->Allocate(Blocks::kLargest), nullptr) << i;
  EXPECT_EQ(blocks_->Allocate(Blocks::kLargest), nullptr);
  EXPECT_EQ(blocks_->Allocate(Blocks::kGrain * 2), nullptr);  // a class without a chunk yet
  EXPECT_NE(blocks_->Allocate(Blocks::kGrain), nullptr);      // a class with room in its chunk still has it
  EXPECT_TRUE(blocks_->Release(last));
  EXPECT_EQ(blocks_->Allocate(Blocks::kLargest - 1), last);  // and a freed block is given again
}

// Blocks live at once never overlap: each is filled with its own bytes and checked when freed, over a random mix of
// sizes, allocations and frees (seeded: the same run each time).
TEST_F(SmallBlocksTest, LiveBlocksNeverOverlap) {
  struct Live {
    char* p;
    std::size_t bytes;
    unsigned char fill;
  };
  auto intact = [](const Live& b) {
    for (std::size_t i = 0; i < b.bytes; ++i)
      if (static_cast<unsigned char>(b.p[i]) != b.fill) return false;
    return true;
  };
  std::mt19937 random(42);
  std::vector<Live> live;
  std::set<char*> given;
  unsigned char fill = 0;
  constexpr int kSteps = 40000;
  for (int step = 0; step < kSteps; ++step) {
    const unsigned allocate_percent = step < kSteps / 2 ? 60 : 40;  // grows, then shrinks
    if (live.empty() || random() % 100 < allocate_percent) {
      const std::size_t bytes = random() % (Blocks::kLargest + 1);
      auto* p = static_cast<char*>(blocks_->Allocate(bytes));
      ASSERT_NE(p, nullptr) << step;
      ASSERT_TRUE(given.insert(p).second) << "a live block given again at step " << step;
      std::memset(p, ++fill, bytes);
      live.push_back({p, bytes, fill});
    } else {
      const std::size_t i = random() % live.size();
      ASSERT_TRUE(intact(live[i])) << step;
      ASSERT_TRUE(blocks_->Release(live[i].p));
      given.erase(live[i].p);
      live[i] = live.back();
      live.pop_back();
    }
  }
  for (const Live& b : live) ASSERT_TRUE(intact(b));
}

}  // namespace
