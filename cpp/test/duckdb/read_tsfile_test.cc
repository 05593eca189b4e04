// read_tsfile in the DuckDB extension loaded into the npm libduckdb.so (tools/setup.sh), with 1
// and 2 threads: every reference fixture table through SQL equals its expected CSV (typed
// comparison), and projections, time ranges, tags, globs, filename, invalid UTF-8 and errors.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "duckdb/duckdb_test_base.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread::testing {
namespace {

std::string AllTypes() { return FixturePath("table_alltypes.tsfile"); }
std::string AllTypesCsv() { return FixturePath("table_alltypes.t_all.csv"); }

TEST_P(DuckDbTest, EveryFixtureTableEqualsItsCsv) {
  std::vector<ExpectedTable> tables = FixtureTables();
  ASSERT_GE(tables.size(), 20u);
  for (const auto& t : tables) {
    SCOPED_TRACE(t.csv_path);
    ExpectMatches("SELECT * FROM read_tsfile('" + FixturePath(t.stem + ".tsfile") + "', table_name := '" + t.table +
                      "')",
                  t.csv_path, Header(t.csv_path));
  }
}

TEST_P(DuckDbTest, ReplacementScanReadsTheOnlyTable) {
  ExpectMatches("SELECT * FROM '" + AllTypes() + "'", AllTypesCsv(), Header(AllTypesCsv()));
}

TEST_P(DuckDbTest, Projection) {
  ExpectMatches("SELECT f_int64, time, id, f_text FROM read_tsfile('" + AllTypes() + "')", AllTypesCsv(),
                {"f_int64", "time", "id", "f_text"});
  ExpectMatches("SELECT region FROM read_tsfile('" + AllTypes() + "')", AllTypesCsv(), {"region"});
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + AllTypes() + "')"), 100000);
}

TEST_P(DuckDbTest, TimeRange) {
  // 2023-11-14 22:13:20 UTC = 1700000000000 ms; end inclusive.
  const int64_t start = 1700000000000, end = 1700000500000;
  ExpectMatches("SELECT time, id, f_double FROM read_tsfile('" + AllTypes() +
                    "', start_time := TIMESTAMP '2023-11-14 22:13:20', end_time := epoch_ms(1700000500000))",
                AllTypesCsv(), {"time", "id", "f_double"}, [&](const CsvRow& row, const auto& index) {
                  int64_t t = std::stoll(row[index.at("time")].text);
                  return t >= start && t <= end;
                });
}

TEST_P(DuckDbTest, TagsArePushedDown) {
  ExpectMatches("SELECT * FROM read_tsfile('" + AllTypes() + "', tags := MAP {'id': ['dev_03', 'dev_17']})",
                AllTypesCsv(), Header(AllTypesCsv()), [](const CsvRow& row, const auto& index) {
                  const std::string& id = row[index.at("id")].text;
                  return id == "dev_03" || id == "dev_17";
                });
  // A NULL in the list matches a null tag.
  ExpectMatches("SELECT time, region, id FROM read_tsfile('" + AllTypes() + "', tags := MAP {'region': [NULL]})",
                AllTypesCsv(), {"time", "region", "id"},
                [](const CsvRow& row, const auto& index) { return row[index.at("region")].is_null(); });
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + AllTypes() + "', tags := MAP {'f_int32': ['1']})"), "");
}

TEST_P(DuckDbTest, TagsAsEnum) {
  struct Case {
    std::string stem, table;
    std::vector<std::string> tags;
  };
  for (const Case& c : {Case{"table_alltypes", "t_all", {"region", "id"}},
                        Case{"table_multi", "tbl_c", {"country", "city", "station"}},
                        Case{"table_many_devices", "t_many", {"site", "sensor"}}}) {
    const std::string csv = FixturePath(c.stem + "." + c.table + ".csv");
    SCOPED_TRACE(csv);
    const std::vector<std::string> header = Header(csv);
    std::string select;
    for (const std::string& name : header) {
      const bool tag = std::find(c.tags.begin(), c.tags.end(), name) != c.tags.end();
      select += (select.empty() ? "" : ", ") + (tag ? name + "::VARCHAR AS " + name : name);
    }
    const std::string from = " FROM read_tsfile('" + FixturePath(c.stem + ".tsfile") + "', table_name := '" + c.table +
                             "', tags_as_enum := true)";
    ExpectMatches("SELECT " + select + from, csv, header);
    for (const std::string& tag : c.tags) {
      duckdb_result result;
      ASSERT_EQ(Query("SELECT " + tag + from + " LIMIT 1", &result), "");
      EXPECT_EQ(duckdb_column_type(&result, 0), DUCKDB_TYPE_ENUM) << tag;
      duckdb_destroy_result(&result);
    }
  }
  // Group and filter on the codes: the same counts as on the strings.
  const std::string enums = "read_tsfile('" + AllTypes() + "', tags_as_enum := true)";
  EXPECT_EQ(Int("SELECT count(*) FROM " + enums + " WHERE id = 'dev_03'"),
            Int("SELECT count(*) FROM '" + AllTypes() + "' WHERE id = 'dev_03'"));
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT id, count(*) FROM " + enums + " GROUP BY id)"),
            Int("SELECT count(DISTINCT id) + 1 FROM '" + AllTypes() + "'"));  // + the null group
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + AllTypes() + "', tags_as_enum := true, binary_as_blob := true)"), "");
}

TEST_P(DuckDbTest, GlobListAndFilename) {
  std::string glob = FixturesDir() + "/table_comp_*.tsfile";
  EXPECT_EQ(Int("SELECT count(DISTINCT filename) FROM read_tsfile('" + glob + "', filename := true)"), 6);
  for (const char* codec : {"GZIP", "ZSTD"}) {
    std::string file = FixturePath(std::string("table_comp_") + codec + ".tsfile");
    std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(FixturePath(std::string("table_comp_") + codec + ".t_comp.csv")));
    EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + glob + "', filename := true) WHERE filename = '" + file + "'"),
              static_cast<int64_t>(csv.size() - 1));
  }
  std::string list = "['" + FixturePath("table_comp_LZ4.tsfile") + "', '" + FixturePath("table_comp_GZIP.tsfile") + "']";
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile(" + list + ")"), 2 * Int("SELECT count(*) FROM '" +
                                                                            FixturePath("table_comp_LZ4.tsfile") + "'"));
  // Parallel aggregation equals the sequential count of the CSV.
  std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(AllTypesCsv()));
  std::map<std::string, int64_t> per_device;
  for (size_t r = 1; r < csv.size(); ++r) per_device[csv[r][2].text]++;
  duckdb_result result;
  ASSERT_EQ(Query("SELECT id, count(*) FROM read_tsfile('" + AllTypes() + "') GROUP BY id ORDER BY id NULLS FIRST", &result), "");
  ASSERT_EQ(duckdb_row_count(&result), per_device.size());
  size_t r = 0;
  for (const auto& [id, n] : per_device) {
    char* v = duckdb_value_is_null(&result, 0, r) ? nullptr : duckdb_value_varchar(&result, 0, r);
    EXPECT_EQ(std::string(v ? v : ""), id);  // "" = a null id (the CSV has no empty id)
    duckdb_free(v);
    EXPECT_EQ(duckdb_value_int64(&result, 1, r), n);
    ++r;
  }
  duckdb_destroy_result(&result);
}

TEST_P(DuckDbTest, DoubleStarGlobsIgnoreErrorsAndFilesNamedTwice) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("tsread_duckdb_globs_" + std::to_string(::getpid()) + "_" + std::to_string(GetParam()));
  std::filesystem::create_directories(dir / "sub" / "deeper");
  std::filesystem::copy_file(AllTypes(), dir / "sub" / "a.tsfile");
  std::filesystem::copy_file(AllTypes(), dir / "sub" / "deeper" / "b.tsfile");
  const std::string bad = (dir / "sub" / "bad.tsfile").string();
  std::ofstream(bad, std::ios::binary) << "this is not a tsfile at all";
  const std::string all = (dir / "**").string();
  // dir/** is every file below, as in read_parquet: the bad one fails the query, naming it...
  const std::string error = Error("SELECT count(*) FROM read_tsfile('" + all + "')");
  EXPECT_NE(error.find(bad), std::string::npos) << error;
  // ...unless ignore_errors, which reads the others; tsfile_metadata says which file it skipped, and why.
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + all + "', ignore_errors := true)"), 200000);
  EXPECT_EQ(Text("SELECT file FROM tsfile_metadata('" + all + "', ignore_errors := true) WHERE error IS NOT NULL"), bad);
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_metadata('" + all + "', ignore_errors := true) WHERE error IS NULL AND "
                "file LIKE '%.tsfile'"),
            2 * Int("SELECT count(*) FROM tsfile_metadata('" + AllTypes() + "')"));
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_devices('" + all + "', ignore_errors := true)"), 40);
  // An IoTDB deletion file beside a file (not applied) shows in tsfile_metadata.
  std::ofstream((dir / "sub" / "a.tsfile.mods").string(), std::ios::binary) << "DELETION,root.sg.d1.s1,100,0,1\n";
  EXPECT_EQ(Text("SELECT DISTINCT deletions FROM tsfile_metadata('" + (dir / "sub" / "a.tsfile").string() + "')"),
            (dir / "sub" / "a.tsfile.mods").string());
  EXPECT_EQ(Text("SELECT DISTINCT deletions FROM tsfile_metadata('" + (dir / "sub" / "deeper" / "b.tsfile").string() +
                 "')"),
            "NULL");
  // One file spelled two ways is read once.
  const std::string a = (dir / "sub" / "a.tsfile").string();
  const std::string a_again = (dir / "sub" / "deeper" / ".." / "a.tsfile").string();
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile(['" + a + "', '" + a_again + "'])"), 100000);
  std::filesystem::remove_all(dir);
}

TEST_P(DuckDbTest, ErrorsAreSqlErrorsNamingTheFile) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("tsread_duckdb_test_" + std::to_string(::getpid()) + "_" + std::to_string(GetParam()));
  std::filesystem::create_directories(dir);
  std::string data = ReadWholeFile(AllTypes());
  std::string truncated = (dir / "truncated.tsfile").string();
  std::ofstream(truncated, std::ios::binary).write(data.data(), data.size() / 2);
  std::string garbage = (dir / "garbage.tsfile").string();
  std::ofstream(garbage, std::ios::binary) << "this is not a tsfile at all";
  // Corrupt data section: flip bytes in the middle, keep the metadata.
  std::string corrupt = (dir / "corrupt.tsfile").string();
  std::string flipped = data;
  for (size_t i = 100; i < flipped.size() / 2; i += 97) flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
  std::ofstream(corrupt, std::ios::binary).write(flipped.data(), flipped.size());

  for (const std::string& path : {truncated, garbage, corrupt}) {
    std::string error = Error("SELECT sum(f_int64), count(f_text) FROM read_tsfile('" + path + "')");
    EXPECT_NE(error, "") << path;
    EXPECT_NE(error.find(path), std::string::npos) << error;
  }
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + (dir / "missing.tsfile").string() + "')"), "");
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + FixturePath("table_multi.tsfile") + "')"), "");
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + AllTypes() + "', time_unit := 'hours')"), "");
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + FixturePath("tree_aligned.tsfile") + "')").find("read_tsfile_tree"),
            std::string::npos);
  // The connection is still usable.
  EXPECT_EQ(Int("SELECT count(*) FROM '" + AllTypes() + "'"), 100000);
  std::filesystem::remove_all(dir);
}

// A table "t" (TAG id; FIELD s STRING, b BLOB) written by tsread's writer: device `tag` with
// `rows` rows whose s is `strings[r % size]` and b the same bytes.
std::string WriteStringFile(const std::filesystem::path& path, const std::string& tag,
                            const std::vector<std::string>& strings, size_t rows) {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{"id", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"s", DataType::kString, 0, 0, {}, ColumnCategory::kField});
  schema.columns.push_back(ColumnSchema{"b", DataType::kBlob, 0, 0, {}, ColumnCategory::kField});
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::Create(path.string(), schema);
  EXPECT_TRUE(writer.ok()) << writer.status();
  if (!writer.ok()) return "";
  std::vector<int64_t> times;
  ColumnValues s, b;
  s.type = DataType::kString;
  b.type = DataType::kBlob;
  for (size_t r = 0; r < rows; ++r) {
    times.push_back(static_cast<int64_t>(r));
    s.binaries.push_back(strings[r % strings.size()]);
    b.binaries.push_back(strings[r % strings.size()]);
  }
  EXPECT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId({tag}), times, {s, b}).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return path.string();
}

class Utf8Test : public DuckDbTest {
 protected:
  void SetUp() override {
    DuckDbTest::SetUp();
    dir_ = std::filesystem::temp_directory_path() /
           ("tsread_duckdb_utf8_" + std::to_string(::getpid()) + "_" + std::to_string(GetParam()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    DuckDbTest::TearDown();
  }
  std::filesystem::path dir_;
};

// A one-device file of column v (INT64, = the time) at `times`.
std::string WriteTimesFile(const std::filesystem::path& path, const std::vector<int64_t>& times) {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{"id", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"v", DataType::kInt64, 0, 0, {}, ColumnCategory::kField});
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::Create(path.string(), schema);
  EXPECT_TRUE(writer.ok()) << writer.status();
  if (!writer.ok()) return "";
  ColumnValues v;
  v.int64s = times;
  EXPECT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId({"d"}), times, {v}).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return path.string();
}

TEST_P(Utf8Test, TimesScaleToMicrosecondsAndOutOfRangeTimesAreErrors) {
  // Negative, zero and large times, more than one vector of them: TIMESTAMP holds t * 1000 us.
  std::vector<int64_t> times;
  for (int64_t t = -3000; t < 3000; ++t) times.push_back(t * 7919);
  times.push_back(9223372036854775);  // INT64_MAX / 1000: the last millisecond TIMESTAMP holds
  const std::string file = WriteTimesFile(dir_ / "times.tsfile", times);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file + "') WHERE epoch_us(time) = v * 1000"),
            static_cast<int64_t>(times.size()));
  // One millisecond more does not fit: an error naming the file and the time, not a wrapped value.
  const std::string beyond = WriteTimesFile(dir_ / "beyond.tsfile", {-5, 0, 9223372036854776});
  const std::string error = Error("SELECT time FROM read_tsfile('" + beyond + "')");
  EXPECT_NE(error.find(beyond), std::string::npos) << error;
  EXPECT_NE(error.find("9223372036854776"), std::string::npos) << error;
  EXPECT_NE(error.find("out of range of TIMESTAMP"), std::string::npos) << error;
  const std::string below = WriteTimesFile(dir_ / "below.tsfile", {-9223372036854776, 0});
  EXPECT_NE(Error("SELECT time FROM read_tsfile('" + below + "')").find("-9223372036854776"), std::string::npos);
  // As BIGINT every stored time reads.
  EXPECT_EQ(Int("SELECT max(time) FROM read_tsfile('" + beyond + "', time_as := 'bigint')"), 9223372036854776);
}

TEST_P(Utf8Test, InvalidStringIsAnErrorNamingFileAndColumnNeverANull) {
  // 3000 rows: the bad value (row 2500) is in the second batch.
  std::vector<std::string> strings(3000, "fine");
  strings[2500] = "a\xE6\x97";  // truncated character
  const std::string file = WriteStringFile(dir_ / "bad_field.tsfile", "dev", strings, strings.size());
  const std::string error = Error("SELECT s FROM read_tsfile('" + file + "')");
  EXPECT_NE(error.find(file), std::string::npos) << error;
  EXPECT_NE(error.find("column \"s\""), std::string::npos) << error;
  EXPECT_NE(error.find("UTF-8"), std::string::npos) << error;
  EXPECT_NE(Error("SELECT count(s) FROM read_tsfile('" + file + "')"), "");
  // Columns that are not read do not fail; BLOB b holds the same bytes and is fine.
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file + "')"), 3000);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file + "') WHERE b = '\\x61\\xE6\\x97'::BLOB"), 1);
  // The connection is still usable.
  EXPECT_EQ(Int("SELECT count(id) FROM read_tsfile('" + file + "')"), 3000);
}

TEST_P(Utf8Test, BinaryAsBlobReadsStringsAsBytes) {
  const std::vector<std::string> strings = {"fine", "\xFF", "\xC0\xAF", "\xED\xA0\x80", "caf\xC3\xA9"};
  const std::string file = WriteStringFile(dir_ / "bad.tsfile", "dev\xFE", strings, strings.size());
  EXPECT_NE(Error("SELECT id FROM read_tsfile('" + file + "')").find("column \"id\""), std::string::npos);
  duckdb_result result;
  ASSERT_EQ(Query("SELECT id, s, b FROM read_tsfile('" + file + "', binary_as_blob := true) ORDER BY time", &result), "");
  ASSERT_EQ(duckdb_row_count(&result), strings.size());
  for (idx_t c = 0; c < 3; ++c) EXPECT_EQ(duckdb_column_type(&result, c), DUCKDB_TYPE_BLOB) << c;
  for (size_t r = 0; r < strings.size(); ++r) {
    for (idx_t c = 0; c < 3; ++c) {
      duckdb_blob blob = duckdb_value_blob(&result, c, r);
      EXPECT_EQ(std::string(static_cast<const char*>(blob.data), blob.size), c == 0 ? "dev\xFE" : strings[r]) << r;
      duckdb_free(blob.data);
    }
  }
  duckdb_destroy_result(&result);
}

TEST_P(Utf8Test, LongTagValuesAreSharedCorrectlyAcrossBatches) {
  // A tag longer than DuckDB's 12-byte inline strings, over several 2048-row batches.
  const std::string tag = "a device name longer than twelve bytes, caf\xC3\xA9";
  const std::string file = WriteStringFile(dir_ / "long_tag.tsfile", tag, {"x"}, 5000);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file + "') WHERE id = '" + tag + "'"), 5000);
  EXPECT_EQ(Int("SELECT count(DISTINCT id) FROM read_tsfile('" + file + "')"), 1);
  EXPECT_EQ(Text("SELECT min(id) FROM read_tsfile('" + file + "')"), tag);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file + "', filename := true) WHERE filename = '" + file + "'"),
            5000);
}

// Device d of ManySmallDevices: d % 13 + 1 rows at times 0, 1, ...; v = d * 1000 + t, null where
// (d + t) % 3 == 0; w = t / 4.0, never null.
bool SmallDeviceNull(int64_t d, int64_t t) { return (d + t) % 3 == 0; }

std::string WriteManySmallDevices(const std::filesystem::path& path, int64_t devices) {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{"id", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"v", DataType::kInt64, 0, 0, {}, ColumnCategory::kField});
  schema.columns.push_back(ColumnSchema{"w", DataType::kDouble, 0, 0, {}, ColumnCategory::kField});
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::Create(path.string(), schema);
  EXPECT_TRUE(writer.ok()) << writer.status();
  if (!writer.ok()) return "";
  for (int64_t d = 0; d < devices; ++d) {
    std::vector<int64_t> times;
    ColumnValues v, w;
    v.type = DataType::kInt64;
    w.type = DataType::kDouble;
    for (int64_t t = 0; t <= d % 13; ++t) {
      times.push_back(t);
      v.int64s.push_back(d * 1000 + t);
      v.valid.push_back(!SmallDeviceNull(d, t));
      w.doubles.push_back(static_cast<double>(t) / 4.0);
    }
    char id[16];
    std::snprintf(id, sizeof(id), "d%04d", static_cast<int>(d));
    EXPECT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId({id}), times, {v, w}).ok());
  }
  EXPECT_TRUE((*writer)->Close().ok());
  return path.string();
}

TEST_P(Utf8Test, ManySmallDevicesShareOutputChunksRowForRow) {
  // Batches of 1 to 13 rows are gathered into DuckDB chunks: each device's rows, tags, nulls (at
  // every bit offset of the chunk's validity) and values must land on the right rows.
  constexpr int64_t kDevices = 700;
  const std::string file = WriteManySmallDevices(dir_ / "small_devices.tsfile", kDevices);
  int64_t rows = 0, valid = 0, sum_v = 0;
  double sum_w = 0;
  for (int64_t d = 0; d < kDevices; ++d) {
    for (int64_t t = 0; t <= d % 13; ++t) {
      ++rows;
      sum_w += static_cast<double>(t) / 4.0;
      if (SmallDeviceNull(d, t)) continue;
      ++valid;
      sum_v += d * 1000 + t;
    }
  }
  const std::string from = "FROM read_tsfile('" + file + "', time_as := 'bigint', filename := true)";
  EXPECT_EQ(Int("SELECT count(*) " + from), rows);
  EXPECT_EQ(Int("SELECT count(v) " + from), valid);
  EXPECT_EQ(Int("SELECT sum(v) " + from), sum_v);
  EXPECT_EQ(Text("SELECT sum(w) " + from), Text("SELECT " + std::to_string(sum_w) + "::DOUBLE"));
  // Row for row: each row's id, time and value as the device wrote them.
  EXPECT_EQ(Int("SELECT count(*) " + from + " WHERE v IS NOT NULL AND (v // 1000 != CAST(id[2:] AS BIGINT) OR "
                "v % 1000 != time)"), 0);
  EXPECT_EQ(Int("SELECT count(*) " + from + " WHERE (v IS NULL) != ((CAST(id[2:] AS BIGINT) + time) % 3 = 0)"), 0);
  EXPECT_EQ(Int("SELECT count(*) " + from + " WHERE w != time / 4.0 OR filename != '" + file + "'"), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT id, count(*) AS n " + from +
                " GROUP BY id) WHERE n != CAST(id[2:] AS BIGINT) % 13 + 1"), 0);
  EXPECT_EQ(Int("SELECT count(DISTINCT id) " + from), kDevices);
  // The same with tags as ENUM codes.
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file + "', time_as := 'bigint', tags_as_enum := true) "
                "WHERE v IS NOT NULL AND v // 1000 != CAST(substr(id::VARCHAR, 2) AS BIGINT)"), 0);
}

INSTANTIATE_TEST_SUITE_P(Threads, Utf8Test, ::testing::Values(1, 2),
                         [](const auto& info) { return "threads" + std::to_string(info.param); });

INSTANTIATE_TEST_SUITE_P(Threads, DuckDbTest, ::testing::Values(1, 2),
                         [](const auto& info) { return "threads" + std::to_string(info.param); });

}  // namespace
}  // namespace tsread::testing
