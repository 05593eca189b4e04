// The C ABI's table scans (tsread.h, "Scanning a table"): the options as a scan takes them, the
// Arrow stream's contents against the fixtures' summaries, and the stream lifetime rules of the
// Arrow C stream interface (run under ASan: a use after release or a leak fails).
#include "tsread/tsread.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "nlohmann/json.hpp"
#include "testing/arrow_c_stream.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

using testing::ReadStream;
using testing::StreamContents;

struct SourceDeleter {
  void operator()(tsread_source* s) const { tsread_source_free(s); }
};
using Source = std::unique_ptr<tsread_source, SourceDeleter>;

Source OpenFixture(const std::string& stem) {
  const std::string path = testing::FixturePath(stem + ".tsfile");
  const char* inputs[] = {path.c_str()};
  tsread_source* source = nullptr;
  tsread_error* error = nullptr;
  const tsread_code code = tsread_open(inputs, 1, nullptr, &source, &error);
  EXPECT_EQ(code, TSREAD_OK) << tsread_error_message(error);
  tsread_error_free(error);
  return Source(source);
}

tsread_scan_options Options(const char* table) {
  tsread_scan_options options;
  tsread_scan_options_init(&options);
  options.table = table;
  return options;
}

// A stream, or the failure's code and message.
struct Scanned {
  tsread_code code = TSREAD_OK;
  std::string message;
  ArrowArrayStream stream{};
};
Scanned Scan(const tsread_source* source, const tsread_scan_options& options) {
  Scanned out;
  tsread_error* error = nullptr;
  out.code = tsread_scan(source, &options, &out.stream, &error);
  if (error != nullptr) out.message = tsread_error_message(error);
  tsread_error_free(error);
  return out;
}

// Every table of every table fixture: rows and each column's non-null count as the summary (the
// Java reader's) says, and the columns in schema order after time.
TEST(CTableScanTest, EveryTableMatchesItsSummary) {
  for (const std::string& stem : testing::TableFixtureStems()) {
    SCOPED_TRACE(stem);
    Source source = OpenFixture(stem);
    ASSERT_NE(source, nullptr);
    const nlohmann::json summary = nlohmann::json::parse(testing::ReadWholeFile(testing::FixturePath(stem + ".summary.json")));
    for (const auto& t : summary["tables"]) {
      const std::string table = t["name"];
      SCOPED_TRACE(table);
      Scanned scanned = Scan(source.get(), Options(table.c_str()));
      ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
      const StreamContents got = ReadStream(scanned.stream);
      ASSERT_EQ(got.error, 0) << got.message;
      EXPECT_EQ(got.rows, t["rows"].get<int64_t>());
      ASSERT_EQ(got.names.size(), t["columns"].size() + 1);
      EXPECT_EQ(got.names[0], "time");
      EXPECT_EQ(got.formats[0], "tsm:");
      EXPECT_EQ(got.non_null[0], got.rows);
      for (size_t j = 0; j < t["columns"].size(); ++j) {
        const std::string name = t["columns"][j]["name"];
        EXPECT_EQ(got.names[j + 1], name);
        EXPECT_EQ(got.non_null[j + 1], t["columns_stats"][name]["non_null"].get<int64_t>()) << name;
      }
    }
  }
}

// tags_as_run_end: each TAG column a run_end_encoded<int32, utf8> array of one run a batch (a batch
// holds one device), the run's value the device's tag — counted here against the summary.
TEST(CTableScanTest, RunEndEncodedTagsAreOneRunABatch) {
  Source source = OpenFixture("table_multi");
  tsread_scan_options options = Options("tbl_b");
  const char* columns[] = {"voltage", "region"};
  options.columns = columns;
  options.n_columns = 2;
  options.tags_as_run_end = 1;
  options.batch_rows = 100;
  Scanned scanned = Scan(source.get(), options);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  ArrowSchema schema{};
  ASSERT_EQ(scanned.stream.get_schema(&scanned.stream, &schema), 0);
  ASSERT_EQ(schema.n_children, 3);
  const ArrowSchema& region = *schema.children[2];
  EXPECT_STREQ(region.format, "+r");
  ASSERT_EQ(region.n_children, 2);
  EXPECT_STREQ(region.children[0]->format, "i");
  EXPECT_STREQ(region.children[1]->format, "u");
  schema.release(&schema);
  int64_t rows = 0, non_null_tag_rows = 0;
  while (true) {
    ArrowArray batch{};
    ASSERT_EQ(scanned.stream.get_next(&scanned.stream, &batch), 0);
    if (batch.release == nullptr) break;
    const ArrowArray& tag = *batch.children[2];
    EXPECT_EQ(tag.length, batch.length);
    EXPECT_EQ(tag.null_count, 0);
    EXPECT_EQ(tag.n_buffers, 0);
    ASSERT_EQ(tag.n_children, 2);
    const ArrowArray& ends = *tag.children[0];
    const ArrowArray& values = *tag.children[1];
    ASSERT_EQ(ends.length, 1);
    EXPECT_EQ(static_cast<const int32_t*>(ends.buffers[1])[0], batch.length);
    ASSERT_EQ(values.length, 1);
    if (values.null_count == 0) non_null_tag_rows += batch.length;
    rows += batch.length;
    batch.release(&batch);
  }
  scanned.stream.release(&scanned.stream);
  EXPECT_EQ(rows, 5610);               // table_multi.summary.json
  EXPECT_EQ(non_null_tag_rows, 4451);  // region's non-null count there
}

TEST(CTableScanTest, OptionsSelectColumnsTimesAndRows) {
  Source source = OpenFixture("table_multi");
  tsread_scan_options options = Options("tbl_b");
  const char* columns[] = {"voltage", "region"};
  options.columns = columns;
  options.n_columns = 2;
  options.time_unit = TSREAD_TIME_INT64;
  options.tags_as_dictionary = 1;
  options.file_column = "file";
  options.batch_rows = 100;
  Scanned scanned = Scan(source.get(), options);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  StreamContents got = ReadStream(scanned.stream);
  ASSERT_EQ(got.error, 0) << got.message;
  EXPECT_EQ(got.names, (std::vector<std::string>{"time", "voltage", "region", "file"}));
  EXPECT_EQ(got.formats, (std::vector<std::string>{"l", "g", "i", "u"}));
  EXPECT_EQ(got.rows, 5610);                    // table_multi.summary.json
  EXPECT_EQ(got.non_null[1], 5153);
  EXPECT_EQ(got.non_null[2], 4451);
  EXPECT_GE(got.batches, 5610 / 100);

  // The same rows narrowed by the time range and the filter (counted from table_multi.tbl_b.csv).
  options = Options("tbl_b");
  options.start = 1700000100000;
  options.end = 1700000200000;
  scanned = Scan(source.get(), options);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  const int64_t in_range = ReadStream(scanned.stream).rows;
  EXPECT_GT(in_range, 0);
  EXPECT_LT(in_range, 5610);
  options.filter = "voltage > 0 OR running IS NULL";
  scanned = Scan(source.get(), options);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  const int64_t filtered = ReadStream(scanned.stream).rows;
  EXPECT_GT(filtered, 0);
  EXPECT_LT(filtered, in_range);

  for (const auto& [unit, format] : std::vector<std::pair<int, std::string>>{
           {TSREAD_TIME_SECOND, "tss:"}, {TSREAD_TIME_MICROSECOND, "tsu:"}, {TSREAD_TIME_NANOSECOND, "tsn:"}}) {
    options = Options("tbl_a");
    options.time_unit = unit;
    scanned = Scan(source.get(), options);
    ASSERT_EQ(scanned.code, TSREAD_OK);
    EXPECT_EQ(ReadStream(scanned.stream).formats[0], format);
  }
}

// The time range and filter against rows counted independently in the reference CSV.
TEST(CTableScanTest, TimeRangeAndFilterSelectTheCsvsRows) {
  const std::string csv = testing::ReadWholeFile(testing::FixturePath("table_multi.tbl_b.csv"));
  // Columns: time,region,plant,power,voltage,running,day.
  int64_t in_range = 0, in_range_running = 0;
  size_t line_start = csv.find('\n') + 1;
  while (line_start < csv.size()) {
    const size_t line_end = csv.find('\n', line_start);
    const std::string line = csv.substr(line_start, line_end - line_start);
    line_start = line_end == std::string::npos ? csv.size() : line_end + 1;
    const int64_t time = std::stoll(line.substr(0, line.find(',')));
    if (time < 1700000100000 || time > 1700000200000) continue;
    ++in_range;
    // running is the 6th field; no quoted field of tbl_b holds a comma (tags are "pN"/"rN").
    size_t at = 0;
    for (int k = 0; k < 5; ++k) at = line.find(',', at) + 1;
    if (line.compare(at, 4, "true") == 0) ++in_range_running;
  }
  ASSERT_GT(in_range_running, 0);
  Source source = OpenFixture("table_multi");
  tsread_scan_options options = Options("tbl_b");
  options.start = 1700000100000;
  options.end = 1700000200000;
  Scanned scanned = Scan(source.get(), options);
  ASSERT_EQ(scanned.code, TSREAD_OK);
  EXPECT_EQ(ReadStream(scanned.stream).rows, in_range);
  options.filter = "running = true";
  scanned = Scan(source.get(), options);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  EXPECT_EQ(ReadStream(scanned.stream).rows, in_range_running);
}

TEST(CTableScanTest, BadScanArgumentsAreErrorsNamingTheProblem) {
  Source source = OpenFixture("table_multi");
  struct Bad {
    tsread_scan_options options;
    tsread_code code;
    std::string says;
  };
  std::vector<Bad> bad;
  bad.push_back({Options(nullptr), TSREAD_INVALID_ARGUMENT, "tbl_a"});  // several tables, none named
  bad.push_back({Options("no_such_table"), TSREAD_INVALID_ARGUMENT, "no_such_table"});
  tsread_scan_options o = Options("tbl_b");
  static const char* unknown[] = {"no_such_column"};
  o.columns = unknown;
  o.n_columns = 1;
  bad.push_back({o, TSREAD_INVALID_ARGUMENT, "no_such_column"});
  o = Options("tbl_b");
  o.filter = "voltage >";
  bad.push_back({o, TSREAD_INVALID_ARGUMENT, "voltage"});
  o = Options("tbl_b");
  o.filter = "voltage > abc";
  bad.push_back({o, TSREAD_INVALID_ARGUMENT, "abc"});
  o = Options("tbl_b");
  o.time_unit = 17;
  bad.push_back({o, TSREAD_INVALID_ARGUMENT, "time_unit"});
  o = Options("tbl_b");
  o.columns = nullptr;
  o.n_columns = 2;
  bad.push_back({o, TSREAD_INVALID_ARGUMENT, "columns"});
  o = Options("tbl_b");
  o.struct_size = 0;
  bad.push_back({o, TSREAD_INVALID_ARGUMENT, "tsread_scan_options_init"});
  o = Options("tbl_b");
  o.tags_as_dictionary = 1;
  o.tags_as_run_end = 1;
  bad.push_back({o, TSREAD_INVALID_ARGUMENT, "exclude each other"});
  for (const Bad& b : bad) {
    Scanned scanned = Scan(source.get(), b.options);
    EXPECT_EQ(scanned.code, b.code) << b.says << ": " << scanned.message;
    EXPECT_NE(scanned.message.find(b.says), std::string::npos) << scanned.message;
    EXPECT_EQ(scanned.stream.release, nullptr);
  }
  ArrowArrayStream stream;
  EXPECT_EQ(tsread_scan(nullptr, nullptr, &stream, nullptr), TSREAD_INVALID_ARGUMENT);
  EXPECT_EQ(tsread_scan(source.get(), nullptr, nullptr, nullptr), TSREAD_INVALID_ARGUMENT);
}

// An older caller's smaller options struct: the fields it knows apply, the rest keep their defaults.
TEST(CTableScanTest, ASmallerOptionsStructGetsDefaultsForTheRest) {
  Source source = OpenFixture("table_multi");
  tsread_scan_options options = Options("tbl_a");
  options.time_unit = TSREAD_TIME_INT64;  // beyond the size given: ignored
  options.struct_size = offsetof(tsread_scan_options, time_unit);
  Scanned scanned = Scan(source.get(), options);
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  EXPECT_EQ(ReadStream(scanned.stream).formats[0], "tsm:");
}

TEST(CTableScanTest, AStreamOutlivesItsSourceAndItsBatchesOutliveTheStream) {
  Source source = OpenFixture("table_multi");
  Scanned scanned = Scan(source.get(), Options("tbl_c"));
  ASSERT_EQ(scanned.code, TSREAD_OK);
  source.reset();  // the caller's handle gone; the stream keeps the file open
  ArrowArrayStream& stream = scanned.stream;
  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  ArrowArray first;
  ASSERT_EQ(stream.get_next(&stream, &first), 0);
  ASSERT_NE(first.release, nullptr);
  ArrowArray second;
  ASSERT_EQ(stream.get_next(&stream, &second), 0);
  ASSERT_NE(second.release, nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
  // The schema and the arrays are independent of the stream (Arrow C stream interface).
  EXPECT_STREQ(schema.children[0]->name, "time");
  const int64_t* times = static_cast<const int64_t*>(first.children[0]->buffers[1]);
  ASSERT_GT(first.length, 0);
  EXPECT_GT(times[first.length - 1], 0);
  // A child moved out and released after its parent (allowed by the C data interface).
  ArrowArray child = *second.children[1];
  second.children[1]->release = nullptr;
  second.release(&second);
  EXPECT_EQ(child.length, second.length);
  child.release(&child);
  first.release(&first);
  schema.release(&schema);
}

TEST(CTableScanTest, AConsumerMayStopEarly) {
  Source source = OpenFixture("table_many_devices");
  Scanned scanned = Scan(source.get(), Options(nullptr));
  ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
  ArrowArray batch;
  ASSERT_EQ(scanned.stream.get_next(&scanned.stream, &batch), 0);
  ASSERT_NE(batch.release, nullptr);
  scanned.stream.release(&scanned.stream);  // mid-scan: nothing leaks (ASan)
  batch.release(&batch);
}

TEST(CTableScanTest, ScansOfOneSourceRunOnSeveralThreadsAtOnce) {
  Source source = OpenFixture("table_multi");
  std::vector<int64_t> rows(4, -1);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < rows.size(); ++i) {
    threads.emplace_back([&, i] {
      Scanned scanned = Scan(source.get(), Options("tbl_c"));
      if (scanned.code == TSREAD_OK) rows[i] = ReadStream(scanned.stream).rows;
    });
  }
  for (std::thread& t : threads) t.join();
  for (int64_t r : rows) EXPECT_EQ(r, 6535);  // table_multi.summary.json
}

TEST(CTableScanTest, ThreadsGiveTheSameRowsInOrderOrAsDecoded) {
  for (const std::string stem : {"table_many_devices", "table_multi"}) {
    SCOPED_TRACE(stem);
    Source source = OpenFixture(stem);
    const char* table = stem == "table_multi" ? "tbl_c" : nullptr;
    Scanned scanned = Scan(source.get(), Options(table));
    ASSERT_EQ(scanned.code, TSREAD_OK);
    const StreamContents one = ReadStream(scanned.stream);
    ASSERT_EQ(one.error, 0) << one.message;
    ASSERT_GT(one.rows, 0);
    std::vector<int64_t> sorted = one.times;
    std::sort(sorted.begin(), sorted.end());
    for (int threads : {2, 3}) {
      for (int unordered : {0, 1}) {
        tsread_scan_options options = Options(table);
        options.threads = threads;
        options.unordered = unordered;
        options.batch_rows = 333;
        scanned = Scan(source.get(), options);
        ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
        StreamContents got = ReadStream(scanned.stream);
        ASSERT_EQ(got.error, 0) << got.message;
        EXPECT_EQ(got.non_null, one.non_null) << threads << " threads";
        if (unordered == 0) {
          EXPECT_EQ(got.times, one.times) << threads << " threads, in order";
        } else {
          std::sort(got.times.begin(), got.times.end());
          EXPECT_EQ(got.times, sorted) << threads << " threads, as decoded";
        }
      }
    }
  }
  tsread_scan_options options = Options(nullptr);
  for (int bad : {-1, 257}) {
    options.threads = bad;
    Source source = OpenFixture("table_comp_LZ4");
    Scanned scanned = Scan(source.get(), options);
    EXPECT_EQ(scanned.code, TSREAD_INVALID_ARGUMENT);
    EXPECT_NE(scanned.message.find("threads"), std::string::npos);
  }
}

// Threads within a memory budget: workers give back what they hold before waiting for the
// consumer, so a consumer that decodes too never waits on memory a blocked worker keeps.
TEST(CTableScanTest, ThreadedStreamsWithinABudgetReadEverything) {
  Source source = OpenFixture("table_many_devices");
  for (int unordered : {0, 1}) {
    for (int threads : {2, 3}) {
      tsread_scan_options options = Options(nullptr);
      options.threads = threads;
      options.unordered = unordered;
      options.memory_budget = 1 << 20;
      Scanned scanned = Scan(source.get(), options);
      ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
      const StreamContents got = ReadStream(scanned.stream);
      EXPECT_EQ(got.error, 0) << got.message;
      EXPECT_EQ(got.rows, 100000) << threads << " threads";  // table_many_devices.summary.json
    }
  }
}

// A threaded stream released before its end, or never read: its threads stop and nothing leaks.
TEST(CTableScanTest, AThreadedStreamStopsWhenReleased) {
  Source source = OpenFixture("table_many_devices");
  for (int reads : {0, 1, 5}) {
    tsread_scan_options options = Options(nullptr);
    options.threads = 2;
    options.batch_rows = 100;
    Scanned scanned = Scan(source.get(), options);
    ASSERT_EQ(scanned.code, TSREAD_OK);
    for (int i = 0; i < reads; ++i) {
      ArrowArray batch;
      ASSERT_EQ(scanned.stream.get_next(&scanned.stream, &batch), 0);
      ASSERT_NE(batch.release, nullptr);
      batch.release(&batch);
    }
    scanned.stream.release(&scanned.stream);
  }
}

// Data damaged after the metadata: the scan starts, and the stream ends with EIO and a message
// naming the file; later calls keep failing instead of reading on.
TEST(CTableScanTest, AnErrorMidStreamEndsItWithAMessage) {
  std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
  // The data section starts after the 6-byte magic and the version byte; pages are LZ4: damage
  // every page of the first half of the file's data.
  for (size_t i = 200; i < bytes.size() / 3; i += 97) bytes[i] = static_cast<char>(~bytes[i]);
  tsread_source* raw = nullptr;
  ASSERT_EQ(tsread_open_memory(bytes.data(), bytes.size(), &raw, nullptr), TSREAD_OK);
  Source source(raw);
  for (int threads : {1, 2}) {
    tsread_scan_options options = Options(nullptr);
    options.threads = threads;
    Scanned scanned = Scan(source.get(), options);
    ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
    ArrowArrayStream& stream = scanned.stream;
    int result = 0;
    while (true) {
      ArrowArray batch;
      result = stream.get_next(&stream, &batch);
      if (result != 0 || batch.release == nullptr) break;
      batch.release(&batch);
    }
    EXPECT_EQ(result, EIO) << threads << " threads";
    ASSERT_NE(stream.get_last_error(&stream), nullptr);
    EXPECT_GT(std::strlen(stream.get_last_error(&stream)), 0u);
    ArrowArray after;
    EXPECT_EQ(stream.get_next(&stream, &after), EIO);
    stream.release(&stream);
  }
}

TEST(CTableScanTest, IotdbDataScansAsIotdbAnswers) {
  const std::string dir = testing::FixturesDir() + "/iotdb_datadir";
  const char* inputs[] = {dir.c_str()};
  for (const auto& [raw, csv] : std::vector<std::pair<int, std::string>>{{0, "expected/t.csv"}, {1, "raw/t.csv"}}) {
    tsread_open_options open_options;
    tsread_open_options_init(&open_options);
    open_options.raw = raw;
    tsread_source* source = nullptr;
    ASSERT_EQ(tsread_open(inputs, 1, &open_options, &source, nullptr), TSREAD_OK);
    Source owned(source);
    Scanned scanned = Scan(source, Options("t"));
    ASSERT_EQ(scanned.code, TSREAD_OK) << scanned.message;
    const std::string expected = testing::ReadWholeFile(dir + "/" + csv);
    const int64_t lines = std::count(expected.begin(), expected.end(), '\n');
    EXPECT_EQ(ReadStream(scanned.stream).rows, lines - 1) << csv;
  }
}

}  // namespace
}  // namespace tsread
