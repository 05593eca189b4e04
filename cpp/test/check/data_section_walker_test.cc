// WalkDataSection through its bounded window: the same events and the same errors whatever the
// window's size, memory set by the largest chunk rather than the file, and the memory budget.
#include "tsread/check/data_section_walker.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/temp_path.h"
#include "tsread/format/file_layout.h"
#include "tsread/io/random_access_file.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

// Every event of a walk as a line, page bodies included, so that two walks can be compared whole.
class Recorder : public DataSectionVisitor {
 public:
  std::vector<std::string> events;
  uint64_t largest_chunk = 0;
  absl::Status OnMarker(uint64_t offset, uint8_t marker) override {
    events.push_back(absl::StrCat("marker ", offset, " ", marker));
    return absl::OkStatus();
  }
  absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) override {
    events.push_back(absl::StrCat("group ", offset, " ", device.ToString()));
    return absl::OkStatus();
  }
  absl::Status OnChunk(const ChunkHeader& chunk) override {
    events.push_back(absl::StrCat("chunk ", chunk.offset, " ", std::string(chunk.measurement), " ", chunk.data_size));
    largest_chunk = std::max<uint64_t>(largest_chunk, chunk.header_size + chunk.data_size);
    return absl::OkStatus();
  }
  absl::Status OnPage(const ChunkHeader&, const PageHeader& page, uint64_t body_offset, std::string_view body) override {
    events.push_back(absl::StrCat("page ", page.offset, " ", body_offset, " ", std::string(body)));
    return absl::OkStatus();
  }
  absl::Status OnOperationIndexRange(uint64_t offset, int64_t a, int64_t b) override {
    events.push_back(absl::StrCat("opindex ", offset, " ", a, " ", b));
    return absl::OkStatus();
  }
  absl::Status OnSeparator(uint64_t offset) override {
    events.push_back(absl::StrCat("separator ", offset));
    return absl::OkStatus();
  }
};

struct Walked {
  absl::Status status;
  Recorder recorder;
};

Walked Walk(const RandomAccessFile& file, uint64_t end, const WalkOptions& options) {
  Walked w;
  DataRange range;
  range.end = end;
  w.status = WalkDataSection(file, range, w.recorder, options);
  return w;
}

const std::string& ManyDevices() {
  static const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_many_devices.tsfile"));
  return bytes;
}

TEST(DataSectionWalkerTest, SmallWindowSeesWhatTheWholeRangeShows) {
  const std::string& bytes = ManyDevices();
  std::unique_ptr<RandomAccessFile> file = MemoryFile(bytes);
  WalkOptions whole;
  whole.read_ahead_bytes = bytes.size();  // the window is the whole range at once
  WalkOptions tiny;
  tiny.read_ahead_bytes = 0;  // one chunk (or header) at a time
  // Unsealed walks of the whole file and of cuts of it: same events, same error.
  for (uint64_t end : {uint64_t{bytes.size()}, uint64_t{bytes.size() / 2}, uint64_t{bytes.size() / 3 + 1},
                       uint64_t{1000}, uint64_t{kHeadSize + 1}, uint64_t{kHeadSize}}) {
    Walked a = Walk(*file, end, whole);
    Walked b = Walk(*file, end, tiny);
    EXPECT_EQ(a.status, b.status) << "end " << end;
    EXPECT_EQ(a.recorder.events, b.recorder.events) << "end " << end;
  }
}

TEST(DataSectionWalkerTest, PeakMemoryIsTheLargestChunkNotTheFile) {
  const std::string& bytes = ManyDevices();
  // A file read with pread: the window's block is memory the walk allocates.
  const std::string path = ::testing::TempDir() + "/walker_many_devices_" + std::to_string(::getpid()) + ".tsfile";
  const testing::ScopedTempPath cleanup(path);
  std::ofstream(path, std::ios::binary) << bytes;
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  MemoryBudget budget(uint64_t{1} << 30);
  WalkOptions options;
  options.read_ahead_bytes = 16 << 10;
  options.memory_budget = &budget;
  Walked w = Walk(**file, bytes.size(), options);
  // The fixture is a sealed file walked as an unsealed one: it ends at the first separator.
  ASSERT_TRUE(w.status.ok()) << w.status;
  ASSERT_GT(w.recorder.largest_chunk, 0u);
  // A header's first ask is 4 KiB (data_section_walker.cc), a chunk its whole size; plus the read-ahead.
  EXPECT_LE(budget.peak(), std::max<uint64_t>(w.recorder.largest_chunk, 4096) + (16 << 10));
  EXPECT_LT(budget.peak(), bytes.size() / 10);  // 3.5 MB file
  EXPECT_EQ(budget.in_use(), 0u);               // released when the walk ends
}

TEST(DataSectionWalkerTest, ChunkOverTheBudgetStopsTheWalk) {
  const std::string& bytes = ManyDevices();
  std::unique_ptr<RandomAccessFile> file = MemoryFile(bytes, "many.tsfile");
  MemoryBudget budget(64);  // below every chunk of the fixture, above its headers
  WalkOptions options;
  options.memory_budget = &budget;
  Walked w = Walk(*file, bytes.size(), options);
  EXPECT_EQ(w.status.code(), absl::StatusCode::kResourceExhausted) << w.status;
  EXPECT_THAT(w.status.message(), HasSubstr("many.tsfile: the chunk at offset "));
  EXPECT_THAT(w.status.message(), HasSubstr("more than the memory budget of 64 bytes"));
  EXPECT_LE(budget.peak(), 64u);
}

}  // namespace
}  // namespace tsread
