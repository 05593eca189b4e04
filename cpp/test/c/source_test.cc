// The C ABI's sources (tsread.h, "Opening input", "Columns of a table", "Errors"): what opens, what
// it lists, and the error codes and messages of what does not open.
#include "tsread/tsread.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "testing/fixtures.h"
#include "testing/temp_path.h"

namespace tsread {
namespace {

struct SourceDeleter {
  void operator()(tsread_source* s) const { tsread_source_free(s); }
};
using Source = std::unique_ptr<tsread_source, SourceDeleter>;
struct ErrorDeleter {
  void operator()(tsread_error* e) const { tsread_error_free(e); }
};
using Error = std::unique_ptr<tsread_error, ErrorDeleter>;

// Opens `inputs`; on failure the code and the error.
struct Opened {
  tsread_code code;
  Source source;
  Error error;
};
Opened Open(const std::vector<std::string>& inputs, const tsread_open_options* options = nullptr) {
  std::vector<const char*> pointers;
  for (const std::string& s : inputs) pointers.push_back(s.c_str());
  tsread_source* source = nullptr;
  tsread_error* error = nullptr;
  const tsread_code code = tsread_open(pointers.data(), pointers.size(), options, &source, &error);
  return {code, Source(source), Error(error)};
}

TEST(CSourceTest, VersionIsMajorMinorPatch) {
  EXPECT_TRUE(std::regex_match(std::string(tsread_version()), std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")))
      << tsread_version();
}

TEST(CSourceTest, ListsTheTablesAndColumnsOfEveryTableFixtureAsTheSummarySays) {
  for (const std::string& stem : testing::TableFixtureStems()) {
    SCOPED_TRACE(stem);
    Opened opened = Open({testing::FixturePath(stem + ".tsfile")});
    ASSERT_EQ(opened.code, TSREAD_OK) << tsread_error_message(opened.error.get());
    ASSERT_EQ(opened.error, nullptr);
    ASSERT_EQ(tsread_file_count(opened.source.get()), 1u);
    EXPECT_EQ(std::string(tsread_file_path(opened.source.get(), 0)), testing::FixturePath(stem + ".tsfile"));
    EXPECT_EQ(tsread_file_path(opened.source.get(), 1), nullptr);
    const nlohmann::json summary = nlohmann::json::parse(testing::ReadWholeFile(testing::FixturePath(stem + ".summary.json")));
    std::vector<std::string> expected_tables;
    for (const auto& t : summary["tables"]) expected_tables.push_back(t["name"]);
    std::sort(expected_tables.begin(), expected_tables.end());
    std::vector<std::string> tables;
    for (size_t i = 0; i < tsread_table_count(opened.source.get()); ++i) tables.emplace_back(tsread_table_name(opened.source.get(), i));
    EXPECT_EQ(tables, expected_tables);
    EXPECT_EQ(tsread_table_name(opened.source.get(), tables.size()), nullptr);
    for (const auto& t : summary["tables"]) {
      const std::string name = t["name"];
      tsread_columns* columns = nullptr;
      ASSERT_EQ(tsread_table_columns(opened.source.get(), name.c_str(), &columns, nullptr), TSREAD_OK);
      ASSERT_EQ(tsread_column_count(columns), t["columns"].size());
      for (size_t j = 0; j < t["columns"].size(); ++j) {
        const auto& c = t["columns"][j];
        EXPECT_EQ(std::string(tsread_column_name(columns, j)), c["name"]);
        EXPECT_EQ(std::string(tsread_data_type_name(tsread_column_type(columns, j))), c["type"]);
        const std::string category = c["category"];
        EXPECT_EQ(tsread_column_category_of(columns, j), category == "TAG" ? TSREAD_TAG : TSREAD_FIELD);
      }
      EXPECT_EQ(tsread_column_name(columns, t["columns"].size()), nullptr);
      tsread_columns_free(columns);
    }
  }
}

TEST(CSourceTest, DataTypeNamesFollowTheStoredCodes) {
  EXPECT_STREQ(tsread_data_type_name(TSREAD_BOOLEAN), "BOOLEAN");
  EXPECT_STREQ(tsread_data_type_name(TSREAD_DATE), "DATE");
  EXPECT_STREQ(tsread_data_type_name(TSREAD_STRING), "STRING");
  EXPECT_STREQ(tsread_data_type_name(6), "UNKNOWN");  // VECTOR: never a column's
  EXPECT_STREQ(tsread_data_type_name(99), "UNKNOWN");
  EXPECT_STREQ(tsread_data_type_name(-1), "UNKNOWN");
}

TEST(CSourceTest, ANameWithSeveralTablesNeedsOneAndTheOnlyTableNeedsNone) {
  Opened multi = Open({testing::FixturePath("table_multi.tsfile")});
  ASSERT_EQ(multi.code, TSREAD_OK);
  tsread_columns* columns = nullptr;
  tsread_error* error = nullptr;
  EXPECT_EQ(tsread_table_columns(multi.source.get(), nullptr, &columns, &error), TSREAD_INVALID_ARGUMENT);
  EXPECT_EQ(columns, nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(tsread_error_message(error)).find("tbl_b"), std::string::npos) << tsread_error_message(error);
  tsread_error_free(error);
  error = nullptr;
  EXPECT_NE(tsread_table_columns(multi.source.get(), "no_such_table", &columns, &error), TSREAD_OK);
  EXPECT_NE(std::string(tsread_error_message(error)).find("no_such_table"), std::string::npos);
  tsread_error_free(error);

  Opened one = Open({testing::FixturePath("table_alltypes.tsfile")});
  ASSERT_EQ(one.code, TSREAD_OK);
  ASSERT_EQ(tsread_table_columns(one.source.get(), nullptr, &columns, nullptr), TSREAD_OK);
  EXPECT_GT(tsread_column_count(columns), 0u);
  tsread_columns_free(columns);
}

TEST(CSourceTest, SeveralInputsAndDirectoriesOpenAsOneSource) {
  Opened two = Open({testing::FixturePath("table_comp_LZ4.tsfile"), testing::FixturePath("table_comp_ZSTD.tsfile")});
  ASSERT_EQ(two.code, TSREAD_OK) << tsread_error_message(two.error.get());
  EXPECT_EQ(tsread_file_count(two.source.get()), 2u);
  ASSERT_EQ(tsread_table_count(two.source.get()), 1u);
  EXPECT_STREQ(tsread_table_name(two.source.get(), 0), "t_comp");

  const std::string dir = ::testing::TempDir() + "/c_source_dir";
  testing::ScopedTempPath cleanup(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(testing::FixturePath("table_comp_GZIP.tsfile"), dir + "/a.tsfile");
  std::filesystem::copy_file(testing::FixturePath("table_comp_SNAPPY.tsfile"), dir + "/b.tsfile");
  Opened folder = Open({dir});
  ASSERT_EQ(folder.code, TSREAD_OK) << tsread_error_message(folder.error.get());
  EXPECT_EQ(tsread_file_count(folder.source.get()), 2u);
}

TEST(CSourceTest, IotdbDataOpensWithItsRulesUnlessRaw) {
  const std::string dir = testing::FixturesDir() + "/iotdb_datadir";
  Opened iotdb = Open({dir});
  ASSERT_EQ(iotdb.code, TSREAD_OK) << tsread_error_message(iotdb.error.get());
  EXPECT_GT(tsread_file_count(iotdb.source.get()), 1u);

  tsread_open_options options;
  tsread_open_options_init(&options);
  options.database = "no_such_database";
  Opened missing = Open({dir}, &options);
  EXPECT_EQ(missing.code, TSREAD_NOT_FOUND);
  EXPECT_NE(std::string(tsread_error_message(missing.error.get())).find("no_such_database"), std::string::npos);

  options.raw = 1;
  Opened raw_with_database = Open({dir}, &options);
  EXPECT_EQ(raw_with_database.code, TSREAD_INVALID_ARGUMENT);
  options.database = nullptr;
  Opened raw = Open({dir}, &options);
  ASSERT_EQ(raw.code, TSREAD_OK) << tsread_error_message(raw.error.get());
  // Read as written, the deletion files beside the files are not applied: said, once per file that has one.
  size_t unapplied = 0;
  for (size_t i = 0; i < tsread_warning_count(raw.source.get()); ++i) {
    const std::string warning = tsread_warning(raw.source.get(), i);
    if (warning.find(".mods2") != std::string::npos && warning.find("does not apply them") != std::string::npos) {
      ++unapplied;
    }
  }
  EXPECT_EQ(unapplied, 2u);  // data/sequence/{db1,root.sg1}/.../1700000000000-1-0-0.tsfile.mods2
  EXPECT_EQ(tsread_warning(raw.source.get(), tsread_warning_count(raw.source.get())), nullptr);
}

TEST(CSourceTest, BadArgumentsAreErrorsNotCrashes) {
  tsread_source* source = nullptr;
  tsread_error* error = nullptr;
  EXPECT_EQ(tsread_open(nullptr, 0, nullptr, &source, &error), TSREAD_INVALID_ARGUMENT);
  EXPECT_EQ(source, nullptr);
  tsread_error_free(error);
  const char* null_input[] = {nullptr};
  EXPECT_EQ(tsread_open(null_input, 1, nullptr, &source, nullptr), TSREAD_INVALID_ARGUMENT);  // no error asked for
  const char* inputs[] = {"x.tsfile"};
  EXPECT_EQ(tsread_open(inputs, 1, nullptr, nullptr, nullptr), TSREAD_INVALID_ARGUMENT);
  tsread_open_options unset{};  // struct_size 0: not initialized
  EXPECT_EQ(tsread_open(inputs, 1, &unset, &source, nullptr), TSREAD_INVALID_ARGUMENT);
  EXPECT_EQ(tsread_open_memory(nullptr, 10, &source, nullptr), TSREAD_INVALID_ARGUMENT);
  // The accessors take NULL.
  EXPECT_EQ(tsread_file_count(nullptr), 0u);
  EXPECT_EQ(tsread_table_count(nullptr), 0u);
  EXPECT_EQ(tsread_table_name(nullptr, 0), nullptr);
  EXPECT_EQ(tsread_warning_count(nullptr), 0u);
  EXPECT_EQ(tsread_warning(nullptr, 0), nullptr);
  EXPECT_EQ(tsread_column_count(nullptr), 0u);
  EXPECT_EQ(tsread_error_code(nullptr), TSREAD_OK);
  tsread_source_free(nullptr);
  tsread_columns_free(nullptr);
  tsread_error_free(nullptr);
}

TEST(CSourceTest, AMissingFileIsNotFoundNamingIt) {
  const std::string path = ::testing::TempDir() + "/no_such_dir/missing.tsfile";
  Opened opened = Open({path});
  EXPECT_EQ(opened.code, TSREAD_NOT_FOUND);
  EXPECT_EQ(opened.source, nullptr);
  ASSERT_NE(opened.error, nullptr);
  EXPECT_EQ(tsread_error_code(opened.error.get()), TSREAD_NOT_FOUND);
  EXPECT_NE(std::string(tsread_error_message(opened.error.get())).find("missing.tsfile"), std::string::npos)
      << tsread_error_message(opened.error.get());
}

TEST(CSourceTest, NotATsFileIsCorruptNamingTheFile) {
  const std::string path = ::testing::TempDir() + "/c_source_not_tsfile.tsfile";
  testing::ScopedTempPath cleanup(path);
  std::ofstream(path) << "this is not a TsFile, not even close to one";
  Opened opened = Open({path});
  EXPECT_EQ(opened.code, TSREAD_CORRUPT) << tsread_error_message(opened.error.get());
  EXPECT_NE(std::string(tsread_error_message(opened.error.get())).find("c_source_not_tsfile.tsfile"), std::string::npos)
      << tsread_error_message(opened.error.get());

  tsread_open_options options;
  tsread_open_options_init(&options);
  options.skip_unreadable_files = 1;
  Opened skipped = Open({path, testing::FixturePath("table_comp_LZ4.tsfile")}, &options);
  ASSERT_EQ(skipped.code, TSREAD_OK) << tsread_error_message(skipped.error.get());
  EXPECT_EQ(tsread_file_count(skipped.source.get()), 1u);
  ASSERT_EQ(tsread_warning_count(skipped.source.get()), 1u);
  EXPECT_NE(std::string(tsread_warning(skipped.source.get(), 0)).find("c_source_not_tsfile.tsfile"), std::string::npos)
      << tsread_warning(skipped.source.get(), 0);
}

TEST(CSourceTest, MemorySourcesListAsFiles) {
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_multi.tsfile"));
  tsread_source* source = nullptr;
  ASSERT_EQ(tsread_open_memory(bytes.data(), bytes.size(), &source, nullptr), TSREAD_OK);
  Source owned(source);
  EXPECT_EQ(tsread_file_count(source), 1u);
  EXPECT_STREQ(tsread_file_path(source, 0), "<memory>");
  ASSERT_EQ(tsread_table_count(source), 3u);
  EXPECT_STREQ(tsread_table_name(source, 0), "tbl_a");
  EXPECT_STREQ(tsread_table_name(source, 2), "tbl_c");

  tsread_error* error = nullptr;
  EXPECT_EQ(tsread_open_memory(bytes.data(), 100, &source, &error), TSREAD_CORRUPT);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(tsread_error_message(error)).find("<memory>"), std::string::npos) << tsread_error_message(error);
  tsread_error_free(error);
}

// Every prefix length class and a sweep of corrupted bytes of every fixture, opened from memory and
// scanned to the end: an error code and a message, or rows; never a crash (run under ASan).
TEST(CSourceTest, DamagedFixturesGiveCodesNeverCrashes) {
  for (const std::string& stem : testing::FixtureStems()) {
    SCOPED_TRACE(stem);
    const std::string good = testing::ReadWholeFile(testing::FixturePath(stem + ".tsfile"));
    std::vector<std::string> damaged;
    for (size_t cut : {size_t{0}, size_t{6}, good.size() / 2, good.size() - 10, good.size() - 1}) damaged.push_back(good.substr(0, cut));
    for (size_t k = 1; k <= 24; ++k) {
      std::string bytes = good;
      const size_t at = good.size() * k / 25;
      for (size_t i = at; i < at + 8 && i < bytes.size(); ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5A);
      damaged.push_back(std::move(bytes));
    }
    for (const std::string& bytes : damaged) {
      tsread_source* source = nullptr;
      tsread_error* error = nullptr;
      const tsread_code code = tsread_open_memory(bytes.data(), bytes.size(), &source, &error);
      if (code != TSREAD_OK) {
        EXPECT_NE(code, TSREAD_INTERNAL) << tsread_error_message(error);
        EXPECT_GT(std::string(tsread_error_message(error)).size(), 0u);
        tsread_error_free(error);
        continue;
      }
      for (size_t t = 0; t < tsread_table_count(source); ++t) {
        tsread_scan_options options;
        tsread_scan_options_init(&options);
        options.table = tsread_table_name(source, t);
        ArrowArrayStream stream;
        if (tsread_scan(source, &options, &stream, &error) != TSREAD_OK) {
          tsread_error_free(error);
          error = nullptr;
          continue;
        }
        ArrowSchema schema;
        if (stream.get_schema(&stream, &schema) == 0) schema.release(&schema);
        while (true) {
          ArrowArray batch;
          if (stream.get_next(&stream, &batch) != 0) {
            EXPECT_NE(stream.get_last_error(&stream), nullptr);
            break;
          }
          if (batch.release == nullptr) break;
          batch.release(&batch);
        }
        stream.release(&stream);
      }
      tsread_source_free(source);
    }
  }
}

}  // namespace
}  // namespace tsread
