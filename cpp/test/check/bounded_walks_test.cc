// Whole-file walks of a file much larger than their memory budget, generated here by the writer
// (no large fixture): verify, the walk `tsread sketch` prints, salvage and the sealed copy of a cut
// copy each stay within the budget (MemoryBudget::peak, the project's own accounting) and give
// exactly what they give without one. The file is ~39 MB (a data section ~18x the 2 MiB budget);
// under a sanitizer a quarter of it, still several times the budget.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/table_schemas.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/check/file_verifier.h"
#include "tsread/check/salvage.h"
#include "tsread/check/sealed_copy.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/memory_budget.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/output_sink.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kDevices = 10;
constexpr uint64_t kBudgetsInTheFile = 4;
#else
constexpr int kDevices = 40;
constexpr uint64_t kBudgetsInTheFile = 16;
#endif
constexpr int kRowsPerDevice = 30000;
constexpr int kRowsPerGroup = 5000;
constexpr uint64_t kBudget = uint64_t{2} << 20;

// Values that do not compress to nothing: a 64-bit mix of the row and the field.
int64_t Noise(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return static_cast<int64_t>(x ^ (x >> 31));
}

// Writes the file: kDevices devices of kRowsPerDevice rows, a chunk group per kRowsPerGroup rows,
// three INT64 fields and a DOUBLE one.
void WriteLargeFile(const std::string& path) {
  const TableSchema schema = testing::TagAndFields(
      "t", "id", {{"a", DataType::kInt64}, {"b", DataType::kInt64}, {"c", DataType::kInt64}, {"x", DataType::kDouble}});
  std::unique_ptr<TsFileWriter> writer = TsFileWriter::Create(path, schema, {}).value();
  for (int d = 0; d < kDevices; ++d) {
    const DeviceId device = writer->MakeDeviceId({absl::StrCat("dev", 1000 + d)});
    for (int first = 0; first < kRowsPerDevice; first += kRowsPerGroup) {
      std::vector<int64_t> times;
      std::vector<ColumnValues> fields(4);
      fields[3].type = DataType::kDouble;
      for (int r = first; r < first + kRowsPerGroup; ++r) {
        const uint64_t key = static_cast<uint64_t>(d) * kRowsPerDevice + static_cast<uint64_t>(r);
        times.push_back(int64_t{1700000000000} + int64_t{r} * 1000 + Noise(key) % 500);
        for (size_t f = 0; f < 3; ++f) fields[f].int64s.push_back(Noise(key * 4 + f));
        fields[3].doubles.push_back(static_cast<double>(Noise(key * 4 + 3) % 1000000) / 7.0);
      }
      const absl::Status written = writer->WriteRows(device, times, fields);
      ASSERT_TRUE(written.ok()) << written;
    }
  }
  ASSERT_TRUE(writer->Close().ok());
}

class BoundedWalksTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One directory per process: ctest runs this binary's tests in parallel processes.
    dir_ = std::make_unique<std::string>(::testing::TempDir() + "/bounded_walks_" + std::to_string(::getpid()));
    fs::create_directories(*dir_);
    WriteLargeFile(Path("large.tsfile"));
    // A cut copy: what a writer that crashed at 60% of the file leaves.
    const uintmax_t size = fs::file_size(Path("large.tsfile"));
    fs::copy_file(Path("large.tsfile"), Path("cut.tsfile"), fs::copy_options::overwrite_existing);
    fs::resize_file(Path("cut.tsfile"), size * 3 / 5);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    dir_.reset();
  }
  static std::string Path(const std::string& name) { return *dir_ + "/" + name; }

  static std::unique_ptr<std::string> dir_;
};

std::unique_ptr<std::string> BoundedWalksTest::dir_;

// What sketch's walk sees: every chunk group, chunk and page, in order.
class Counter : public DataSectionVisitor {
 public:
  absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView&) override {
    events.push_back(absl::StrCat("g", offset));
    return absl::OkStatus();
  }
  absl::Status OnChunk(const ChunkHeader& chunk) override {
    events.push_back(absl::StrCat("c", chunk.offset, ":", chunk.data_size));
    return absl::OkStatus();
  }
  absl::Status OnPage(const ChunkHeader&, const PageHeader& page, uint64_t body_offset, std::string_view body) override {
    events.push_back(absl::StrCat("p", body_offset, ":", page.compressed_size, ":", body.size()));
    return absl::OkStatus();
  }
  absl::Status OnOperationIndexRange(uint64_t offset, int64_t, int64_t) override {
    events.push_back(absl::StrCat("o", offset));
    return absl::OkStatus();
  }
  absl::Status OnSeparator(uint64_t offset) override {
    events.push_back(absl::StrCat("s", offset));
    return absl::OkStatus();
  }
  std::vector<std::string> events;
};

TEST_F(BoundedWalksTest, TheFileIsManyTimesTheBudget) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(Path("large.tsfile")).value();
  ::testing::Test::RecordProperty("data_section_bytes", absl::StrCat(reader->metadata().meta_offset));
  EXPECT_GT(reader->metadata().meta_offset, kBudgetsInTheFile * kBudget);
}

TEST_F(BoundedWalksTest, VerifyStaysWithinTheBudget) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(Path("large.tsfile")).value();
  absl::StatusOr<VerifyReport> free = VerifyFile(*reader);
  ASSERT_TRUE(free.ok()) << free.status();
  EXPECT_TRUE(free->clean());
  EXPECT_EQ(free->values, uint64_t{kDevices} * kRowsPerDevice * 5);  // the time column and 4 fields
  MemoryBudget budget(kBudget);
  WalkOptions walk;
  walk.memory_budget = &budget;
  absl::StatusOr<VerifyReport> held = VerifyFile(*reader, {}, 100, walk);
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_EQ(held->chunks, free->chunks);
  EXPECT_EQ(held->pages, free->pages);
  EXPECT_EQ(held->values, free->values);
  EXPECT_EQ(held->problems, free->problems);
  EXPECT_EQ(held->notices, free->notices);
  EXPECT_GT(budget.peak(), 0u);
  EXPECT_LE(budget.peak(), kBudget);
  EXPECT_EQ(budget.in_use(), 0u);
}

TEST_F(BoundedWalksTest, VerifyNeedingMoreThanTheBudgetSaysWhat) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(Path("large.tsfile")).value();
  // Room for the walk's chunks, not for a device's time-page timestamps (30,000 rows: 240,000 bytes).
  MemoryBudget budget(200 << 10);
  WalkOptions walk;
  walk.memory_budget = &budget;
  walk.read_ahead_bytes = 0;
  absl::StatusOr<VerifyReport> held = VerifyFile(*reader, {}, 100, walk);
  ASSERT_FALSE(held.ok());
  EXPECT_EQ(held.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(held.status().message().find("large.tsfile: holding the timestamps of device "), std::string::npos)
      << held.status();
  EXPECT_NE(held.status().message().find("'s time pages takes "), std::string::npos) << held.status();
  EXPECT_NE(held.status().message().find("more than the memory budget of 204800 bytes"), std::string::npos)
      << held.status();
  EXPECT_LE(budget.peak(), uint64_t{200} << 10);
}

TEST_F(BoundedWalksTest, SketchWalkStaysWithinTheBudget) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(Path("large.tsfile")).value();
  Counter free;
  ASSERT_TRUE(WalkDataSection(*reader, free).ok());
  MemoryBudget budget(kBudget);
  WalkOptions walk;
  walk.memory_budget = &budget;
  Counter held;
  ASSERT_TRUE(WalkDataSection(*reader, held, walk).ok());
  EXPECT_EQ(held.events, free.events);
  EXPECT_GT(free.events.size(), size_t{kDevices} * 6 * 5);  // groups, chunks and pages
  EXPECT_LE(budget.peak(), kBudget);
  EXPECT_EQ(budget.in_use(), 0u);
}

TEST_F(BoundedWalksTest, SalvageAndTheSealedCopyOfACutCopyStayWithinTheBudget) {
  std::unique_ptr<RandomAccessFile> cut = OpenFile(Path("cut.tsfile")).value();
  absl::StatusOr<SalvageReport> free = SalvageDataSection(*cut);
  ASSERT_TRUE(free.ok()) << free.status();
  EXPECT_GT(free->groups_kept, 0u);
  EXPECT_LT(free->groups_kept, uint64_t{kDevices} * (kRowsPerDevice / kRowsPerGroup));

  MemoryBudget budget(kBudget);
  SalvageOptions options;
  options.walk.memory_budget = &budget;
  absl::StatusOr<SalvageReport> held = SalvageDataSection(*cut, options);
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_EQ(held->groups_kept, free->groups_kept);
  EXPECT_EQ(held->data_end, free->data_end);
  EXPECT_EQ(held->stop_offset, free->stop_offset);
  EXPECT_EQ(held->stop_reason, free->stop_reason);
  EXPECT_EQ(held->rows, free->rows);
  EXPECT_EQ(held->points, free->points);
  EXPECT_LE(budget.peak(), kBudget);
  EXPECT_EQ(budget.in_use(), 0u);

  // The sealed copies, streamed to files: byte for byte the same.
  auto seal = [&](MemoryBudget* memory, const std::string& name) {
    SealedCopyOptions copy;
    copy.walk.memory_budget = memory;
    std::unique_ptr<OutputSink> sink = FileOutputSink(Path(name)).value();
    absl::StatusOr<SealedCopyResult> result = WriteSealedCopy(*cut, *sink, copy);
    EXPECT_TRUE(result.ok()) << result.status();
    std::ifstream in(Path(name), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  MemoryBudget copy_budget(kBudget);
  const std::string sealed_free = seal(nullptr, "sealed_free.tsfile");
  const std::string sealed_held = seal(&copy_budget, "sealed_held.tsfile");
  EXPECT_GT(sealed_free.size(), kBudgetsInTheFile / 2 * kBudget);  // 60 % of the file
  EXPECT_TRUE(sealed_free == sealed_held);  // not EXPECT_EQ: megabytes of bytes in a failure message
  EXPECT_LE(copy_budget.peak(), kBudget);
  EXPECT_EQ(copy_budget.in_use(), 0u);
}

}  // namespace
}  // namespace tsread
