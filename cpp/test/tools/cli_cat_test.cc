// `tsread cat` end to end: table and tree output against every fixture CSV byte for byte,
// projections, time ranges (milliseconds and ISO-8601), tree filters by device, measurement and
// time, --limit, the NDJSON format and ISO time output.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/cli_runner.h"
#include "testing/csv.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::Fixture;
using testing::RunResult;
using testing::RunTsread;

TEST(CliTest, CatTableReproducesTheFixtureCsvExactly) {
  for (const char* name : {"table_multi.tbl_b", "table_alltypes.t_all", "table_enc_SPRINTZ.t_enc"}) {
    const std::string base(name);
    const std::string stem = base.substr(0, base.find('.'));
    const std::string table = base.substr(base.find('.') + 1);
    RunResult r = RunTsread("cat " + Fixture(stem + ".tsfile") + " --table " + table);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == testing::ReadWholeFile(testing::FixturePath(base + ".csv"))) << name;
  }
}

TEST(CliTest, CatTreeReproducesTheFixtureCsvExactly) {
  for (const char* stem : {"tree_aligned", "tree_nonaligned", "v3_sample"}) {
    RunResult r = RunTsread("cat " + Fixture(std::string(stem) + ".tsfile") + " --tree");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == testing::ReadWholeFile(testing::FixturePath(std::string(stem) + ".tree.csv"))) << stem;
  }
}

TEST(CliTest, CatProjectionAndRange) {
  RunResult r = RunTsread("cat " + Fixture("table_multi.tsfile") +
                    " --table tbl_a --columns status,site --start 1700000000573 --end 1700000001573");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "time,status,site");
  EXPECT_THAT(r.out, HasSubstr("1700000000573,"));
}

// The fixture's tree CSV lines (header dropped) that pass `keep(device, measurement, time)`.
std::string FilterTreeCsv(const std::string& stem, const std::function<bool(const std::string&, const std::string&, int64_t)>& keep) {
  const std::string csv = testing::ReadWholeFile(testing::FixturePath(stem + ".tree.csv"));
  std::string out;
  size_t pos = csv.find('\n') + 1;
  while (pos < csv.size()) {
    const size_t end = csv.find('\n', pos);
    const std::string line = csv.substr(pos, end - pos + 1);
    const size_t c1 = line.find(','), c2 = line.find(',', c1 + 1), c3 = line.find(',', c2 + 1);
    if (keep(line.substr(0, c1), line.substr(c1 + 1, c2 - c1 - 1), std::stoll(line.substr(c2 + 1, c3 - c2 - 1)))) {
      out += line;
    }
    pos = end + 1;
  }
  return out;
}

TEST(CliFlagsTest, CatTreeFiltersByDeviceMeasurementAndTime) {
  const std::string header = "device,measurement,time,value\n";
  RunResult sg2 = RunTsread("cat " + Fixture("tree_aligned.tsfile") + " --tree --devices root.sg2");
  ASSERT_EQ(sg2.exit_code, 0) << sg2.err;
  EXPECT_TRUE(sg2.out == header + FilterTreeCsv("tree_aligned", [](const std::string& d, const std::string&, int64_t) {
                return d.rfind("root.sg2.", 0) == 0;
              }));
  // A prefix matches whole segments only; an exact id matches itself.
  RunResult partial = RunTsread("cat " + Fixture("tree_aligned.tsfile") + " --tree --devices root.sg");
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_EQ(partial.out, header);
  RunResult mixed = RunTsread("cat " + Fixture("tree_aligned.tsfile") +
                              " --tree --devices 'root.sg2.a1, root.sg3' --measurements b,i64 --start 1700000001000 --end 1700000050000");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  const std::string expected = FilterTreeCsv("tree_aligned", [](const std::string& d, const std::string& m, int64_t t) {
    return (d == "root.sg2.a1" || d.rfind("root.sg3.", 0) == 0) && (m == "b" || m == "i64") && t >= 1700000001000 &&
           t <= 1700000050000;
  });
  EXPECT_GT(expected.size(), 0u);
  EXPECT_TRUE(mixed.out == header + expected);
  // --start as ISO-8601 selects the same points.
  RunResult iso = RunTsread("cat " + Fixture("tree_aligned.tsfile") +
                            " --tree --devices 'root.sg2.a1, root.sg3' --measurements b,i64 --start 2023-11-14T22:13:21Z --end 1700000050000");
  EXPECT_TRUE(iso.out == mixed.out);
}

TEST(CliFlagsTest, ColumnsAndIsoTimes) {
  const std::string base = "cat " + Fixture("table_multi.tsfile") + " --table tbl_a ";
  RunResult ints = RunTsread(base + "--columns status,site --start 1700000000573 --end 1700000001573");
  ASSERT_EQ(ints.exit_code, 0) << ints.err;
  for (const std::string& args :
       {std::string("--columns 'time, status,  site' --start 2023-11-14T22:13:20.573Z --end 2023-11-14T22:13:21.573"),
        std::string("--columns status,site --start '2023-11-14 23:13:20.573+01:00' --end 2023-11-14T22:13:21.5730Z")}) {
    RunResult iso = RunTsread(base + args);
    ASSERT_EQ(iso.exit_code, 0) << args << iso.err;
    EXPECT_TRUE(iso.out == ints.out) << args;
  }
  // A date alone is its midnight UTC: 2023-11-15 is 1700006400000, after every row of the file.
  RunResult date = RunTsread(base + "--start 2023-11-15");
  ASSERT_EQ(date.exit_code, 0) << date.err;
  EXPECT_EQ(std::count(date.out.begin(), date.out.end(), '\n'), 1);
  EXPECT_EQ(RunTsread(base + "--start 1700000001573 --end 1700000000573").exit_code, 1);
  EXPECT_EQ(RunTsread(base + "--start 2023-02-30").exit_code, 1);
  EXPECT_EQ(RunTsread(base + "--start 2023-11-14T25:00").exit_code, 1);
  EXPECT_EQ(RunTsread(base + "--columns time").exit_code, 1);
  RunResult scan = RunTsread("scan " + Fixture("table_multi.tsfile") + " --table tbl_a --json --columns 'time, status'");
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(nlohmann::json::parse(scan.out)["columns"].size(), 1u);
}

TEST(CliCatOutputTest, LimitFormatAndTimeFormat) {
  const std::string file = Fixture("table_alltypes.tsfile");
  const std::string csv = testing::ReadWholeFile(testing::FixturePath("table_alltypes.t_all.csv"));
  RunResult limited = RunTsread("cat " + file + " --limit 5");
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  size_t end = 0;
  for (int i = 0; i < 6; ++i) end = csv.find('\n', end) + 1;
  EXPECT_TRUE(limited.out == csv.substr(0, end));
  RunResult none = RunTsread("cat " + file + " --limit 0");
  EXPECT_EQ(none.out, csv.substr(0, csv.find('\n') + 1));
  EXPECT_EQ(RunTsread("cat " + file + " --limit -1").exit_code, 1);
  EXPECT_EQ(RunTsread("cat " + file + " --format xml").exit_code, 1);
  EXPECT_EQ(RunTsread("cat " + file + " --time-format local").exit_code, 1);

  RunResult ndjson = RunTsread("cat " + file + " --format ndjson --limit 1000");
  ASSERT_EQ(ndjson.exit_code, 0) << ndjson.err;
  std::vector<nlohmann::json> rows;
  size_t pos = 0;
  while (pos < ndjson.out.size()) {
    const size_t nl = ndjson.out.find('\n', pos);
    rows.push_back(nlohmann::json::parse(ndjson.out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  ASSERT_EQ(rows.size(), 1000u);
  // First CSV row: 1700000000095,,"dev_17",false,102,1000000566189,18.65,-57.52610492861863,"","mode_5",0x75,20240705,1699999999668
  const nlohmann::json& first = rows[0];
  EXPECT_EQ(first["time"], 1700000000095);
  EXPECT_TRUE(first["region"].is_null());
  EXPECT_EQ(first["id"], "dev_17");
  EXPECT_EQ(first["f_boolean"], false);
  EXPECT_EQ(first["f_int32"], 102);
  EXPECT_EQ(first["f_int64"], 1000000566189);
  EXPECT_EQ(static_cast<float>(first["f_float"].get<double>()), 18.65f);
  EXPECT_EQ(first["f_double"], -57.52610492861863);
  EXPECT_EQ(first["f_text"], "");
  EXPECT_EQ(first["f_blob"], "0x75");
  EXPECT_EQ(first["f_date"], 20240705);
  EXPECT_EQ(first["f_timestamp"], 1699999999668);
  // Every row has every column as a key, null where the CSV field is empty.
  for (const nlohmann::json& row : rows) EXPECT_EQ(row.size(), 13u);

  RunResult iso = RunTsread("cat " + file + " --limit 1 --time-format iso --columns id");
  ASSERT_EQ(iso.exit_code, 0) << iso.err;
  EXPECT_EQ(iso.out, "time,id\n2023-11-14T22:13:20.095Z,\"dev_17\"\n");
  RunResult iso_json = RunTsread("cat " + file + " --limit 1 --time-format iso --format ndjson --columns id");
  EXPECT_EQ(iso_json.out, "{\"time\":\"2023-11-14T22:13:20.095Z\",\"id\":\"dev_17\"}\n");
  RunResult tree = RunTsread("cat " + Fixture("tree_aligned.tsfile") + " --tree --format ndjson --limit 1");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out, "{\"device\":\"root.sg2.a1\",\"measurement\":\"b\",\"time\":1700000000000,\"value\":true}\n");
}

// --where in the predicate grammar: the rows `cat` prints are the fixture CSV's rows that satisfy
// the conditions, filtered here; `scan --json` reports what the statistics skipped.
TEST(CliTest, CatWhereValuePredicatesKeepsTheMatchingCsvRows) {
  const std::string csv = testing::ReadWholeFile(testing::FixturePath("table_alltypes.t_all.csv"));
  const std::vector<testing::CsvRow> rows = testing::ParseCsv(csv);
  ASSERT_GT(rows.size(), 1u);
  // Columns: time,region,id,f_boolean,f_int32,f_int64,f_float,f_double,f_text,f_string,...
  RunResult r = RunTsread("cat " + Fixture("table_alltypes.tsfile") +
                          " --where \"f_int32 > 100 AND f_string != 'mode_5'\" --where id=dev_17,dev_03");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<testing::CsvRow> got = testing::ParseCsv(r.out);
  size_t want = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const testing::CsvRow& row = rows[i];
    const bool match = !row[4].is_null() && std::stoll(row[4].text) > 100 && !row[9].is_null() &&
                       row[9].text != "mode_5" && (row[2].text == "dev_17" || row[2].text == "dev_03");
    if (!match) continue;
    ++want;
    ASSERT_LT(want, got.size());
    for (size_t j = 0; j < row.size(); ++j) EXPECT_EQ(got[want][j].text, row[j].text) << "row " << want;
  }
  EXPECT_GT(want, 0u);
  EXPECT_EQ(got.size(), want + 1);

  RunResult scan = RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --json --where 'f_int64 < 0'");
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_THAT(scan.out, ::testing::HasSubstr("\"rows\": 1,"));  // the CSV's one negative f_int64, INT64_MIN
  EXPECT_THAT(scan.out, ::testing::HasSubstr("\"predicates\": {\"devices_skipped\": "));
  RunResult bad = RunTsread("cat " + Fixture("table_alltypes.tsfile") + " --where 'f_int32 > abc'");
  EXPECT_EQ(bad.exit_code, 1);  // usage
  EXPECT_THAT(bad.err, ::testing::HasSubstr("f_int32"));
}

// The new user's OR (read as part of the value before it: 0 rows), an OR with a FIELD under it, and
// exact comparisons at INT64's end, against the rows of the fixture CSV counted here.
TEST(CliTest, CatWhereOrKeepsTheRowsOfEitherSide) {
  const std::vector<testing::CsvRow> rows =
      testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath("table_alltypes.t_all.csv")));
  // Columns: time,region,id,f_boolean,f_int32,...
  size_t east_or_west = 0, north_or_big = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const std::string& region = rows[i][1].text;
    east_or_west += region == "east" || region == "west";
    north_or_big += region == "north" || (!rows[i][4].is_null() && std::stoll(rows[i][4].text) > 120);
  }
  ASSERT_EQ(east_or_west, 45000u);
  const std::string file = Fixture("table_alltypes.tsfile");
  for (const std::string& where : {std::string("region = east OR region = west"), std::string("region = east or region = 'west'"),
                                   std::string("(region = east) OR (region = west)")}) {
    RunResult r = RunTsread("cat " + file + " --columns id --where \"" + where + "\"");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(testing::ParseCsv(r.out).size(), east_or_west + 1) << where;
  }
  RunResult mixed = RunTsread("cat " + file + " --columns id --where 'region = north OR f_int32 > 120'");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_EQ(testing::ParseCsv(mixed.out).size(), north_or_big + 1);
  // INT64_MIN is the CSV's one negative f_int64: -9223372036854775807.5 lies above it, and as a
  // double it would be -2^63, equal to it.
  RunResult low = RunTsread("scan " + file + " --json --where 'f_int64 < -9223372036854775807.5'");
  ASSERT_EQ(low.exit_code, 0) << low.err;
  EXPECT_THAT(low.out, ::testing::HasSubstr("\"rows\": 1,"));
  // agg and last take an OR of one tag's values as they take tag=a,b.
  RunResult agg = RunTsread("agg " + file + " --by table --json --where 'region = east OR region = west'");
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  EXPECT_THAT(agg.out, ::testing::HasSubstr("\"rows\": 45000"));
  // Text the grammar cannot read, and values that name no day: usage errors naming the text.
  for (const std::string& where : {std::string("region = east OR"), std::string("(region = east"),
                                   std::string("f_date > 2024-13-45"), std::string("f_date > 20240231")}) {
    RunResult bad = RunTsread("cat " + file + " --where '" + where + "'");
    EXPECT_EQ(bad.exit_code, 1) << where;
    EXPECT_FALSE(bad.err.empty());
  }
}

}  // namespace
}  // namespace tsread
