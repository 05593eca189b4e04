// Damaged IoTDB deletion files (the fixture's, with IoTDB's own bytes): cut at every length and
// with every bit flipped, then read through IotdbDataset (tables and tree). Never a crash; the
// data directory either opens (the entries before the damage apply, a warning names the file) or
// fails with Unimplemented naming the deletion file (an entry kind nobody knows), and with
// ignore_errors always opens.
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/temp_path.h"
#include "tsread/iotdb/iotdb_dataset.h"

namespace tsread {
namespace {

namespace fs = std::filesystem;

// Scans every table row and tree point; the status of the first failure.
absl::Status ReadAll(const iotdb::IotdbDataset& data) {
  auto scanner = data.ScanTable({});
  if (!scanner.ok()) return scanner.status();
  absl::Status s = (*scanner)->Scan([](const TableBatch&) { return absl::OkStatus(); });
  if (!s.ok()) return s;
  return data.ScanTree({}, [](std::string_view, std::string_view, const std::vector<int64_t>&, const ColumnVector&,
                              size_t, size_t) { return absl::OkStatus(); });
}

class DeletionFileSweepTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DeletionFileSweepTest, EveryCutAndFlipReadsOrFailsNamingTheFile) {
  const fs::path root = fs::temp_directory_path() / ("tsread_mods_sweep_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  const testing::ScopedTempPath cleanup(root.string());
  fs::copy(testing::FixturesDir() + "/iotdb_datadir/data", root / "data", fs::copy_options::recursive);
  const std::string mods = (root / "data" / GetParam()).string();
  const std::string original = testing::ReadWholeFile(mods);
  ASSERT_FALSE(original.empty());
  auto check = [&](const std::string& bytes, const std::string& what) {
    std::ofstream(mods, std::ios::binary | std::ios::trunc) << bytes;
    auto data = iotdb::IotdbDataset::Open({(root / "data").string()});
    if (!data.ok()) {
      EXPECT_TRUE(absl::IsUnimplemented(data.status())) << what << ": " << data.status();
      EXPECT_NE(data.status().message().find(mods), std::string::npos) << what << ": " << data.status();
    } else {
      EXPECT_TRUE(ReadAll(**data).ok()) << what;
    }
    iotdb::IotdbOptions options;
    options.ignore_errors = true;
    auto lenient = iotdb::IotdbDataset::Open({(root / "data").string()}, options);
    ASSERT_TRUE(lenient.ok()) << what << ": " << lenient.status();
    EXPECT_TRUE(ReadAll(**lenient).ok()) << what;
  };
  for (size_t cut = 0; cut < original.size(); ++cut) check(original.substr(0, cut), "cut at " + std::to_string(cut));
  for (size_t i = 0; i < original.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = original;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      check(flipped, "byte " + std::to_string(i) + " bit " + std::to_string(bit));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixture, DeletionFileSweepTest,
                         ::testing::Values("sequence/db1/1/2810/1700000000000-1-0-0.tsfile.mods2",
                                           "sequence/root.sg1/2/2810/1700000000000-1-0-0.tsfile.mods2"));

}  // namespace
}  // namespace tsread
