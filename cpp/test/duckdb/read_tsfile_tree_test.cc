// read_tsfile_tree: every tree-model fixture's points through SQL equal its expected tree CSV
// (device, measurement, time, and the value in the CSV's text), with 1 and 2 threads; time ranges,
// filename and errors.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "duckdb/duckdb_test_base.h"

namespace tsread::testing {
namespace {

class TreeTest : public DuckDbTest {
 protected:
  // Compares `sql` (device, measurement, epoch_ms(time), value) with the CSV rows that `keep`.
  void ExpectTreeCsv(const std::string& sql, const std::vector<CsvRow>& csv,
                     const std::function<bool(int64_t)>& keep = {}) {
    std::vector<const CsvRow*> rows;
    for (size_t r = 1; r < csv.size(); ++r) {
      if (!keep || keep(std::stoll(csv[r][2].text))) rows.push_back(&csv[r]);
    }
    duckdb_result result;
    ASSERT_EQ(Query(sql, &result), "") << sql;
    ASSERT_EQ(duckdb_row_count(&result), rows.size()) << sql;
    size_t failures = 0;
    for (size_t r = 0; r < rows.size() && failures < 10; ++r) {
      const CsvRow& expected = *rows[r];
      std::string cells[4];
      for (idx_t c = 0; c < 4; ++c) {
        char* v = duckdb_value_varchar(&result, c, r);
        cells[c] = v ? v : "NULL";
        duckdb_free(v);
      }
      // Every field is the CSV's text (strings are quoted there, unquoted here).
      for (int c = 0; c < 4; ++c) {
        if (cells[c] != expected[c].text) {
          ++failures;
          ADD_FAILURE() << sql << ": row " << r << " column " << c << ": expected " << expected[c].text << ", got "
                        << cells[c];
        }
      }
    }
    duckdb_destroy_result(&result);
  }
};

std::vector<std::string> TreeStems() {
  std::vector<std::string> stems;
  for (const std::string& stem : FixtureStems()) {
    if (std::filesystem::exists(FixturePath(stem + ".tree.csv"))) stems.push_back(stem);
  }
  return stems;
}

TEST_P(TreeTest, EveryTreeFixtureEqualsItsCsv) {
  const std::vector<std::string> stems = TreeStems();
  ASSERT_GE(stems.size(), 3u);
  for (const std::string& stem : stems) {
    SCOPED_TRACE(stem);
    const std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(FixturePath(stem + ".tree.csv")));
    ASSERT_FALSE(csv.empty());
    const std::string from = " FROM read_tsfile_tree('" + FixturePath(stem + ".tsfile") + "')";
    ExpectTreeCsv("SELECT device, measurement, epoch_ms(time), value" + from + " ORDER BY device, measurement, time",
                  csv);
    // Without ORDER BY, one thread delivers the CSV's order (device string, measurement, time).
    if (GetParam() == 1) ExpectTreeCsv("SELECT device, measurement, epoch_ms(time), value" + from, csv);
  }
}

TEST_P(TreeTest, TimeRangeFilenameAndProjection) {
  const std::string file = FixturePath("tree_nonaligned.tsfile");
  const std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(FixturePath("tree_nonaligned.tree.csv")));
  const int64_t start = 1700000100000, end = 1700000900000;
  ExpectTreeCsv("SELECT device, measurement, epoch_ms(time), value FROM read_tsfile_tree('" + file +
                    "', start_time := epoch_ms(1700000100000), end_time := epoch_ms(1700000900000)) "
                    "ORDER BY device, measurement, time",
                csv, [&](int64_t t) { return t >= start && t <= end; });
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree('" + file + "')"), static_cast<int64_t>(csv.size() - 1));
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree('" + file + "', filename := true) WHERE filename = '" + file +
                "'"),
            static_cast<int64_t>(csv.size() - 1));
  // A list of two files: both files' points.
  const std::string aligned = FixturePath("tree_aligned.tsfile");
  const int64_t aligned_points = static_cast<int64_t>(ParseCsv(ReadWholeFile(FixturePath("tree_aligned.tree.csv"))).size() - 1);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree(['" + file + "', '" + aligned + "'])"),
            static_cast<int64_t>(csv.size() - 1) + aligned_points);
}

TEST_P(TreeTest, TableOnlyInputIsAnErrorPointingToReadTsfile) {
  const std::string error = Error("SELECT * FROM read_tsfile_tree('" + FixturePath("table_multi.tsfile") + "')");
  EXPECT_NE(error.find("read_tsfile"), std::string::npos) << error;
  EXPECT_NE(error.find(FixturePath("table_multi.tsfile")), std::string::npos) << error;
  EXPECT_NE(Error("SELECT * FROM read_tsfile_tree('/nonexistent/x.tsfile')"), "");
}

TEST_P(TreeTest, CorruptAndTruncatedFilesAreSqlErrorsNamingTheFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("tsread_duckdb_tree_" + std::to_string(::getpid()) + "_" + std::to_string(GetParam()));
  std::filesystem::create_directories(dir);
  const std::string data = ReadWholeFile(FixturePath("tree_nonaligned.tsfile"));
  const std::string truncated = (dir / "truncated.tsfile").string();
  std::ofstream(truncated, std::ios::binary).write(data.data(), data.size() / 2);
  // Data section garbled, metadata intact: the error comes from the scan, not the bind.
  const std::string corrupt = (dir / "corrupt.tsfile").string();
  std::string flipped = data;
  for (size_t i = 100; i < flipped.size() / 2; i += 97) flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
  std::ofstream(corrupt, std::ios::binary).write(flipped.data(), flipped.size());
  for (const std::string& path : {truncated, corrupt}) {
    const std::string error = Error("SELECT count(*), max(value) FROM read_tsfile_tree('" + path + "')");
    EXPECT_NE(error.find(path), std::string::npos) << error;
  }
  // The connection is still usable.
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree('" + FixturePath("v3_sample.tsfile") + "')"), 2);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Threads, TreeTest, ::testing::Values(1, 2),
                         [](const auto& info) { return "threads" + std::to_string(info.param); });

}  // namespace
}  // namespace tsread::testing
