// tsread agg end to end: per-device aggregates in JSON and CSV equal what the test computes from
// `tsread cat` of the same rows; usage errors.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/cli_runner.h"
#include "testing/csv.h"
#include "testing/fixtures.h"
#include "testing/temp_path.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::RunResult;
using testing::RunTsread;

// The values of `tsread cat FILE --where id=DEV --columns COL [--start --end]` (empty = null).
std::vector<std::string> CatColumn(const std::string& file, const std::string& device, const std::string& column,
                                   const std::string& range = "") {
  RunResult r = RunTsread("cat '" + file + "' --where id=" + device + " --columns " + column + range);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> values;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) values.push_back(line.substr(line.find(',') + 1));
  return values;
}

TEST(CliAggTest, PerDeviceAggregatesEqualTheRowsCatPrints) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  // A time range, and a condition on values (the rows cat prints with the same --where).
  for (const std::string& range : {std::string(), std::string(" --start 1700000500000 --end 1700003000000"),
                                   std::string(" --where 'f_int32 > 100 OR f_boolean = true'")}) {
    SCOPED_TRACE(range);
    RunResult r = RunTsread("agg '" + file + "' --columns f_int32,f_boolean --json" + range);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json result = nlohmann::json::parse(r.out);
    EXPECT_EQ(result["table"], "t_all");
    const nlohmann::json* dev = nullptr;
    uint64_t rows = 0;
    for (const nlohmann::json& g : result["groups"]) {
      rows += g["rows"].get<uint64_t>();
      if (g["tags"]["id"] == "dev_03" && g["tags"]["region"] == "west") dev = &g;
    }
    if (range.empty()) {
      EXPECT_EQ(rows, 100000u);
    }
    ASSERT_NE(dev, nullptr) << r.out.substr(0, 2000);
    // The test's own aggregate of the decoded rows of that device.
    int64_t count = 0, sum = 0, min = INT64_MAX, max = INT64_MIN;
    std::string first, last;
    for (const std::string& v : CatColumn(file, "dev_03 --where region=west", "f_int32", range)) {
      if (v.empty()) continue;
      const int64_t x = std::stoll(v);
      if (count++ == 0) first = v;
      last = v;
      sum += x;
      min = std::min(min, x);
      max = std::max(max, x);
    }
    const nlohmann::json& c = (*dev)["columns"]["f_int32"];
    EXPECT_EQ(c["count"], count);
    EXPECT_EQ(c["sum"], sum);
    EXPECT_EQ(c["min"], min);
    EXPECT_EQ(c["max"], max);
    EXPECT_EQ(c["first"], std::stoll(first));
    EXPECT_EQ(c["last"], std::stoll(last));
    int64_t trues = 0;
    for (const std::string& v : CatColumn(file, "dev_03 --where region=west", "f_boolean", range)) trues += v == "true";
    EXPECT_EQ((*dev)["columns"]["f_boolean"]["sum"], trues);
    EXPECT_TRUE((*dev)["columns"]["f_boolean"]["min"].is_null());
    if (range.empty()) {
      EXPECT_GT(result["chunks"]["from_statistics"].get<uint64_t>(), 0u);
      EXPECT_EQ(result["pages"]["decoded"], 0);
    } else if (range.find("--start") != std::string::npos) {
      EXPECT_GT(result["pages"]["decoded"].get<uint64_t>(), 0u);
    } else {
      EXPECT_LT(rows, 100000u);
      EXPECT_EQ(result["chunks"]["from_statistics"], 0);
    }
  }
}

TEST(CliAggTest, CsvHasAColumnPerAggregate) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  RunResult r = RunTsread("agg '" + file + "' --columns f_text,f_double");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string header = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(header,
            "device,region,id,rows,first_time,last_time,f_text_count,f_text_min,f_text_max,f_text_first,f_text_last,"
            "f_text_sum,f_text_avg,f_double_count,f_double_min,f_double_max,f_double_first,f_double_last,f_double_sum,"
            "f_double_avg");
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 20);  // one line per device
  RunResult json = RunTsread("agg '" + file + "' --columns f_text,f_double --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["groups"].size(), 20u);
}

TEST(CliAggTest, ByTableInBucketsCountsTheRowsCatPrintsPerBucket) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  RunResult r = RunTsread("agg '" + file + "' --columns f_int32 --by table --bucket 10m --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json result = nlohmann::json::parse(r.out);
  // The test's own: rows and non-null f_int32 values per 600,000 ms bucket of `cat`'s times.
  RunResult cat = RunTsread("cat '" + file + "' --columns f_int32");
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  std::map<int64_t, std::pair<uint64_t, uint64_t>> want;  // bucket -> rows, values
  std::istringstream lines(cat.out);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    const int64_t t = std::stoll(line.substr(0, line.find(',')));
    auto& [rows, values] = want[t - t % 600000];  // times are positive
    ++rows;
    values += line.substr(line.find(',') + 1) != "";
  }
  ASSERT_EQ(result["groups"].size(), want.size());
  for (const nlohmann::json& g : result["groups"]) {
    EXPECT_TRUE(g["device"].is_null());
    const auto it = want.find(g["bucket"].get<int64_t>());
    ASSERT_NE(it, want.end()) << g["bucket"];
    EXPECT_EQ(g["rows"], it->second.first);
    EXPECT_EQ(g["columns"]["f_int32"]["count"], it->second.second);
  }
  RunResult csv = RunTsread("agg '" + file + "' --columns f_int32 --by table --bucket 600000");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "bucket,rows,first_time,last_time,f_int32_count,f_int32_min,f_int32_max,f_int32_first,f_int32_last,"
            "f_int32_sum,f_int32_avg");
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 1 + static_cast<std::ptrdiff_t>(want.size()));
  RunResult by_device = RunTsread("agg '" + file + "' --columns f_int32 --bucket 1h");
  ASSERT_EQ(by_device.exit_code, 0) << by_device.err;
  EXPECT_EQ(by_device.out.substr(0, by_device.out.find(',', 20)), "device,region,id,bucket");
}

TEST(CliAggTest, LastIsEachColumnsLatestValueAsCatPrintsIt) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  RunResult r = RunTsread("last '" + file + "' --columns f_int32,f_text --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json result = nlohmann::json::parse(r.out);
  ASSERT_EQ(result["devices"].size(), 20u);
  for (const nlohmann::json& d : result["devices"]) {
    if (d["tags"]["id"] != "dev_07") continue;
    // The test's own: the last non-empty value `cat` prints for the device, and the last time.
    RunResult cat = RunTsread("cat '" + file + "' --where id=dev_07 --columns f_int32");
    ASSERT_EQ(cat.exit_code, 0) << cat.err;
    std::istringstream lines(cat.out);
    std::string line, last_value, last_time, time_of_value;
    std::getline(lines, line);
    while (std::getline(lines, line)) {
      const std::string time = line.substr(0, line.find(','));
      const std::string value = line.substr(line.find(',') + 1);
      last_time = time;
      if (!value.empty()) {
        last_value = value;
        time_of_value = time;
      }
    }
    EXPECT_EQ(d["time"], std::stoll(last_time));
    EXPECT_EQ(d["columns"]["f_int32"]["value"], std::stoll(last_value));
    EXPECT_EQ(d["columns"]["f_int32"]["time"], std::stoll(time_of_value));
    return;
  }
  FAIL() << "dev_07 not found";
}

TEST(CliAggTest, UsageErrors) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  RunResult tag = RunTsread("agg '" + file + "' --columns region");
  EXPECT_EQ(tag.exit_code, 1);
  EXPECT_THAT(tag.err, HasSubstr("no FIELD column \"region\""));
  EXPECT_EQ(RunTsread("agg '" + file + "' --table nope").exit_code, 1);
  EXPECT_EQ(RunTsread("agg '" + file + "' --bogus").exit_code, 1);
  EXPECT_EQ(RunTsread("last '" + file + "' --bucket 1h").exit_code, 1);  // last takes no buckets
  RunResult by = RunTsread("agg '" + file + "' --by region");
  EXPECT_EQ(by.exit_code, 1);
  EXPECT_THAT(by.err, HasSubstr("--by takes device or table"));
  for (const std::string bucket : {"0", "-5", "10x", "1h2"}) {
    RunResult b = RunTsread("agg '" + file + "' --bucket " + bucket);
    EXPECT_EQ(b.exit_code, 1) << bucket;
    EXPECT_THAT(b.err, HasSubstr("--bucket needs a positive duration")) << bucket;
  }
  EXPECT_EQ(RunTsread("agg '" + testing::FixturePath("table_multi.tsfile") + "'").exit_code, 1);  // which table?
  for (const std::string threads : {"0", "257", "two"}) {
    RunResult t = RunTsread("agg '" + file + "' --threads " + threads);
    EXPECT_EQ(t.exit_code, 1) << threads;
    EXPECT_THAT(t.err, HasSubstr("--threads needs a number from 1 to 256")) << threads;
  }
  EXPECT_EQ(RunTsread("agg '" + file + "' --tree --threads 2").exit_code, 1);
}

// --threads N: shares of the file's devices (one file), or whole files (a dataset of many),
// aggregated at once give one thread's output — groups, order, figures and the work counted.
TEST(CliAggTest, ThreadsGiveOneThreadsAnswer) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  const std::string dir = ::testing::TempDir() + "/tsread_cli_agg_threads_" + std::to_string(getpid());
  const testing::ScopedTempPath cleanup(dir);
  RunResult gen = RunTsread("gen '" + dir + "' --files 5 --devices 7 --rows 50");
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  for (const std::string& args : {"'" + file + "' --columns f_int32,f_int64,f_text,f_boolean --json",
                                  "'" + file + "' --columns f_int32,f_date --bucket 10m --start 1700000500000",
                                  "'" + dir + "' --columns s_int64,s_int32,s_bool --json",
                                  "'" + dir + "' --columns s_int64 --by table --bucket 1m"}) {
    SCOPED_TRACE(args);
    RunResult one = RunTsread("agg " + args);
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_GT(one.out.size(), 200u);
    for (const char* threads : {"2", "3"}) {
      RunResult many = RunTsread("agg " + args + " --threads " + threads);
      ASSERT_EQ(many.exit_code, 0) << many.err;
      EXPECT_EQ(many.out, one.out) << threads;
    }
  }
}

// The benchmark table has a TAG named device: the id's column is `_device`, the tag keeps its name
// (the header repeated `device`, and readers of the CSV took one for the other).
TEST(CliAggTest, TheDeviceIdsColumnNeverTakesAColumnsName) {
  const std::string file = ::testing::TempDir() + "/tsread_cli_agg_device_" + std::to_string(getpid()) + ".tsfile";
  const testing::ScopedTempPath cleanup(file);
  RunResult gen = RunTsread("gen '" + file + "' --devices 3 --rows 20");
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  RunResult agg = RunTsread("agg '" + file + "' --columns s_double");
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  EXPECT_THAT(agg.out, ::testing::StartsWith("_device,region,device,rows,"));
  EXPECT_THAT(agg.out, ::testing::HasSubstr("\n\"sensors.region_0.dev_000\",\"region_0\",\"dev_000\",20,"));
  RunResult last = RunTsread("last '" + file + "' --columns s_double");
  ASSERT_EQ(last.exit_code, 0) << last.err;
  EXPECT_THAT(last.out, ::testing::StartsWith("_device,region,device,time,"));
  // Without such a column it stays `device`.
  RunResult plain = RunTsread("agg '" + testing::FixturePath("table_alltypes.tsfile") + "' --columns f_int32");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, ::testing::StartsWith("device,region,id,"));
}

// agg and last on a file that cannot be read: the message and exit code cat and scan give (3 for
// I/O, 2 for a damaged file), not "no table-model table" and a usage error.
TEST(CliAggTest, UnreadableInputsFailAsCatDoes) {
  const std::string dir = ::testing::TempDir() + "/tsread_cli_agg_bad_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const testing::ScopedTempPath cleanup(dir);
  const std::string junk = dir + "/junk.tsfile", cut = dir + "/cut.tsfile";
  std::ofstream(junk) << "junk";
  const std::string whole = testing::ReadWholeFile(testing::FixturePath("table_alltypes.tsfile"));
  std::ofstream(cut, std::ios::binary) << whole.substr(0, 3000);
  for (const std::string& file : {dir + "/missing.tsfile", junk, cut}) {
    const RunResult cat = RunTsread("cat '" + file + "'");
    ASSERT_NE(cat.exit_code, 0);
    for (const char* command : {"agg", "last"}) {
      const RunResult r = RunTsread(std::string(command) + " '" + file + "'");
      EXPECT_EQ(r.exit_code, cat.exit_code) << command << " " << file << ": " << r.err;
      EXPECT_EQ(r.err, cat.err) << command << " " << file;
    }
  }
}

// last --start/--end: each device's latest value inside the window, as cat prints the window's rows.
TEST(CliAggTest, LastInAWindowIsTheWindowsLatestValue) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  const std::string window = " --start 1700000500000 --end 1700003000000";
  RunResult r = RunTsread("last '" + file + "' --columns f_int32 --json --where id=dev_07" + window);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json result = nlohmann::json::parse(r.out);
  ASSERT_EQ(result["devices"].size(), 1u);
  const nlohmann::json& d = result["devices"][0];
  RunResult cat = RunTsread("cat '" + file + "' --where id=dev_07 --columns f_int32" + window);
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  std::istringstream lines(cat.out);
  std::string line, last_time, last_value, time_of_value;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    last_time = line.substr(0, line.find(','));
    const std::string value = line.substr(line.find(',') + 1);
    if (!value.empty()) {
      last_value = value;
      time_of_value = last_time;
    }
  }
  ASSERT_FALSE(last_value.empty());
  EXPECT_EQ(d["time"], std::stoll(last_time));
  EXPECT_LE(d["time"].get<int64_t>(), 1700003000000);
  EXPECT_EQ(d["columns"]["f_int32"]["value"], std::stoll(last_value));
  EXPECT_EQ(d["columns"]["f_int32"]["time"], std::stoll(time_of_value));
  RunResult backwards = RunTsread("last '" + file + "' --start 10 --end 5");
  EXPECT_EQ(backwards.exit_code, 1);  // usage, as everywhere
}

// agg --tree and last --tree: per series what the fixture's CSV holds (count, first and last
// point, as cat --tree prints them), in CSV and JSON; flags of the other model are usage errors.
TEST(CliAggTest, TreeSeriesAggregatesAndLastPointsEqualTheCsv) {
  const std::vector<testing::CsvRow> rows =
      testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath("tree_depths.tree.csv")));
  // Per "device measurement": count, first row and last row (the CSV orders by time within a series).
  std::map<std::string, std::pair<size_t, std::pair<size_t, size_t>>> want;
  for (size_t r = 1; r < rows.size(); ++r) {
    auto& [count, ends] = want[rows[r][0].text + " " + rows[r][1].text];
    if (count++ == 0) ends.first = r;
    ends.second = r;
  }
  const std::string file = testing::FixturePath("tree_depths.tsfile");
  RunResult agg = RunTsread("agg '" + file + "' --tree --json");
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  const nlohmann::json result = nlohmann::json::parse(agg.out);
  ASSERT_EQ(result["series"].size(), want.size());
  for (const nlohmann::json& s : result["series"]) {
    const std::string key = s["device"].get<std::string>() + " " + s["measurement"].get<std::string>();
    ASSERT_EQ(want.count(key), 1u) << key;
    const auto& [count, ends] = want[key];
    EXPECT_EQ(s["count"], count) << key;
    EXPECT_EQ(s["first_time"], std::stoll(rows[ends.first][2].text)) << key;
    EXPECT_EQ(s["last_time"], std::stoll(rows[ends.second][2].text)) << key;
  }
  RunResult last = RunTsread("last '" + file + "' --tree");
  ASSERT_EQ(last.exit_code, 0) << last.err;
  const std::vector<testing::CsvRow> got = testing::ParseCsv(last.out);
  ASSERT_EQ(got.size(), want.size() + 1);
  EXPECT_EQ(got[0][0].text + "," + got[0][1].text + "," + got[0][2].text + "," + got[0][3].text,
            "device,measurement,time,value");
  for (size_t i = 1; i < got.size(); ++i) {
    const auto& ends = want[got[i][0].text + " " + got[i][1].text].second;
    for (size_t j = 0; j < 4; ++j) EXPECT_EQ(got[i][j].text, rows[ends.second][j].text) << i << " " << j;
  }
  // One device below a prefix, one measurement.
  RunResult one = RunTsread("last '" + file + "' --tree --devices root.sg.d --measurements p --json");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const nlohmann::json only = nlohmann::json::parse(one.out);
  ASSERT_EQ(only["series"].size(), 1u);
  EXPECT_EQ(only["series"][0]["device"], "root.sg.d.e");
  EXPECT_EQ(only["series"][0]["time"], std::stoll(rows[want["root.sg.d.e p"].second.second][2].text));
  // The other model's flags, and tree aggregates of table data.
  EXPECT_EQ(RunTsread("agg '" + file + "' --tree --columns x").exit_code, 1);
  EXPECT_EQ(RunTsread("last '" + testing::FixturePath("table_alltypes.tsfile") + "' --devices x").exit_code, 1);
  RunResult table = RunTsread("agg '" + testing::FixturePath("table_alltypes.tsfile") + "' --tree");
  EXPECT_EQ(table.exit_code, 1);
  EXPECT_THAT(table.err, HasSubstr("no tree-model data"));
}

// --time-format iso on agg and last, both models: the file's first time 1699999999851 ms is
// 2023-11-14T22:13:19.851Z (1700000000000 is 22:13:20 UTC).
TEST(CliAggTest, TimeFormatIsoPrintsTimesAsCatDoes) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  RunResult json = RunTsread("agg '" + file + "' --by table --json --time-format iso");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["groups"][0]["first_time"], "2023-11-14T22:13:19.851Z");
  RunResult csv = RunTsread("agg '" + file + "' --by table --time-format ISO --columns f_int32");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_THAT(csv.out, HasSubstr(",2023-11-14T22:13:19.851Z,"));
  RunResult last = RunTsread("last '" + file + "' --time-format iso --columns f_int32 --json");
  ASSERT_EQ(last.exit_code, 0) << last.err;
  EXPECT_TRUE(nlohmann::json::parse(last.out)["devices"][0]["time"].is_string());
  RunResult tree = RunTsread("last '" + testing::FixturePath("tree_aligned.tsfile") + "' --tree --time-format iso");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_THAT(tree.out, HasSubstr(",2023-11-14T"));
  EXPECT_EQ(RunTsread("agg '" + file + "' --time-format unix").exit_code, 1);
}

// --bucket-origin: buckets start at origin + k * width; the rows per bucket are cat's rows counted
// into those buckets by the test.
// Calendar buckets: weeks from Monday, months from the first, days from local midnight in --time-zone.
TEST(CliAggTest, CalendarBucketsStartAtLocalMidnights) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  // The fixture's rows lie between 2023-11-14T22:13Z (a Tuesday) and 2023-11-15T02:54Z.
  const std::map<std::string, std::vector<int64_t>> starts = {
      {"--bucket 1w", {1699833600000}},                             // Monday 2023-11-13T00:00Z
      {"--bucket 1mo", {1698796800000}},                            // 2023-11-01T00:00Z
      {"--bucket 1d --time-zone +01:00", {1699916400000, 1700002800000}},  // 23:00Z the day before
      {"--bucket 1d --time-zone Europe/Berlin", {1699916400000, 1700002800000}},
  };
  uint64_t before_midnight = 0;  // rows before 2023-11-14T23:00Z, from cat
  RunResult cat = RunTsread("cat '" + file + "' --columns id");
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  std::istringstream lines(cat.out);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) before_midnight += std::stoll(line.substr(0, line.find(','))) < 1700002800000;
  ASSERT_GT(before_midnight, 0u);
  for (const auto& [flags, want] : starts) {
    SCOPED_TRACE(flags);
    RunResult agg = RunTsread("agg '" + file + "' --by table --columns f_int32 --json " + flags);
    ASSERT_EQ(agg.exit_code, 0) << agg.err;
    const nlohmann::json groups = nlohmann::json::parse(agg.out)["groups"];
    ASSERT_EQ(groups.size(), want.size());
    for (size_t g = 0; g < want.size(); ++g) EXPECT_EQ(groups[g]["bucket"].get<int64_t>(), want[g]);
    if (want.size() == 2) {
      EXPECT_EQ(groups[0]["rows"].get<uint64_t>(), before_midnight);
    } else {
      EXPECT_EQ(groups[0]["rows"].get<uint64_t>(), 100000u);
    }
  }
  for (const std::string bad : {"--time-zone UTC", "--bucket 1h --time-zone UTC", "--bucket 1d --time-zone Mars/Base",
                                "--bucket 0w"}) {
    RunResult r = RunTsread("agg '" + file + "' " + bad);
    EXPECT_EQ(r.exit_code, 1) << bad;
    EXPECT_THAT(r.err, HasSubstr("--")) << bad;
  }
}

TEST(CliAggTest, BucketsStartAtTheOrigin) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  const int64_t origin = 1700000000123, width = 600000;
  std::map<int64_t, uint64_t> want;
  RunResult cat = RunTsread("cat '" + file + "' --columns id");
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  std::istringstream lines(cat.out);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    const int64_t t = std::stoll(line.substr(0, line.find(',')));
    const int64_t d = t - origin;
    ++want[(d >= 0 ? d / width : -((-d + width - 1) / width)) * width + origin];
  }
  RunResult agg = RunTsread("agg '" + file + "' --by table --bucket 10m --bucket-origin 1700000000123 --json");
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  const nlohmann::json result = nlohmann::json::parse(agg.out);
  ASSERT_EQ(result["groups"].size(), want.size());
  for (const nlohmann::json& g : result["groups"]) {
    const int64_t bucket = g["bucket"].get<int64_t>();
    ASSERT_EQ(want.count(bucket), 1u) << bucket;
    EXPECT_EQ(g["rows"].get<uint64_t>(), want[bucket]) << bucket;
  }
  EXPECT_EQ(RunTsread("agg '" + file + "' --bucket-origin 5").exit_code, 1);  // needs --bucket
  // --fill-empty over a window wider than the data: every bucket, the empty ones with no times.
  RunResult filled = RunTsread("agg '" + file + "' --by table --bucket 1h --bucket-origin 1700000000000 --start "
                               "1699980000000 --end 1700020000000 --fill-empty --json");
  ASSERT_EQ(filled.exit_code, 0) << filled.err;
  const nlohmann::json groups = nlohmann::json::parse(filled.out)["groups"];
  ASSERT_EQ(groups.size(), 12u);
  uint64_t total = 0;
  for (size_t k = 0; k < groups.size(); ++k) {
    EXPECT_EQ(groups[k]["bucket"].get<int64_t>(), 1700000000000 + (static_cast<int64_t>(k) - 6) * 3600000);
    total += groups[k]["rows"].get<uint64_t>();
    if (groups[k]["rows"] == 0) {
      EXPECT_TRUE(groups[k]["first_time"].is_null());
    }
  }
  EXPECT_EQ(total, want.size() > 0 ? std::accumulate(want.begin(), want.end(), uint64_t{0},
                                                     [](uint64_t n, const auto& b) { return n + b.second; })
                                   : 0);
  EXPECT_EQ(RunTsread("agg '" + file + "' --fill-empty").exit_code, 1);  // needs --bucket
}

}  // namespace
}  // namespace tsread
