// write_test_files OUT_DIR: the small TsFiles the Python tests need and no Apache writer makes —
// values a file may hold but must not be read as something else — written by tsread's writer
// (the reader's C++ tests check that writer against the reference fixtures). Each file is one
// table "t" with TAG "id"; what each holds is listed below and in python/tests/test_values.py.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tsread/write/tsfile_writer.h"

namespace {

using tsread::ColumnCategory;
using tsread::ColumnSchema;
using tsread::ColumnValues;
using tsread::DataType;
using tsread::TableSchema;
using tsread::TsFileWriter;

struct Field {
  std::string name;
  DataType type;
};

// One device's rows: its TAG value, times, and one ColumnValues per field.
struct DeviceRows {
  std::optional<std::string> tag;
  std::vector<int64_t> times;
  std::vector<ColumnValues> fields;
};

bool Write(const std::filesystem::path& path, const std::vector<Field>& fields, const std::vector<DeviceRows>& devices,
           const tsread::TableWriterOptions& options = {}) {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{"id", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  for (const Field& f : fields) schema.columns.push_back(ColumnSchema{f.name, f.type, 0, 0, {}, ColumnCategory::kField});
  auto writer = TsFileWriter::Create(path.string(), schema, options);
  if (!writer.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), writer.status().ToString().c_str());
    return false;
  }
  for (const DeviceRows& d : devices) {
    if (absl::Status s = (*writer)->WriteRows((*writer)->MakeDeviceId({d.tag}), d.times, d.fields); !s.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), s.ToString().c_str());
      return false;
    }
  }
  if (absl::Status s = (*writer)->Close(); !s.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), s.ToString().c_str());
    return false;
  }
  return true;
}

ColumnValues Dates(std::vector<int32_t> values, std::vector<uint8_t> valid = {}) {
  ColumnValues c;
  c.type = DataType::kDate;
  c.int32s = std::move(values);
  c.valid = std::move(valid);
  return c;
}

ColumnValues Int32s(std::vector<int32_t> values, std::vector<uint8_t> valid = {}) {
  ColumnValues c;
  c.type = DataType::kInt32;
  c.int32s = std::move(values);
  c.valid = std::move(valid);
  return c;
}

ColumnValues Booleans(std::vector<uint8_t> values, std::vector<uint8_t> valid = {}) {
  ColumnValues c;
  c.type = DataType::kBoolean;
  c.bools = std::move(values);
  c.valid = std::move(valid);
  return c;
}

ColumnValues Int64s(std::vector<int64_t> values) {
  ColumnValues c;
  c.type = DataType::kInt64;
  c.int64s = std::move(values);
  return c;
}

ColumnValues Binaries(DataType type, const std::vector<std::string>& values) {
  ColumnValues c;
  c.type = type;
  for (const std::string& v : values) c.binaries.push_back(v);
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_test_files OUT_DIR\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::filesystem::create_directories(out);
  bool ok = true;

  // dates.tsfile: d DATE at times 1, 2, 3, 4 = 20240101, 20230231 (no such day), null, 20240315;
  // n INT32 = 1, 2, 3, 4.
  ok &= Write(out / "dates.tsfile", {{"d", DataType::kDate}, {"n", DataType::kInt32}},
              {{"a", {1, 2, 3, 4}, {Dates({20240101, 20230231, 0, 20240315}, {1, 1, 0, 1}), Int32s({1, 2, 3, 4})}}});
  // old_dates.tsfile: d DATE at times 1, 2 = 15000101 (a day before datetime64[ns]), 20240101.
  ok &= Write(out / "old_dates.tsfile", {{"d", DataType::kDate}}, {{"a", {1, 2}, {Dates({15000101, 20240101})}}});

  // far_time.tsfile: times 1 and 10^17 ms (beyond datetime64[ns]), ts TIMESTAMP = 5, 6.
  // far_timestamp.tsfile: times 1, 2; ts TIMESTAMP = 5, 9 * 10^15 ms (beyond datetime64[ns]).
  ColumnValues near;
  near.type = DataType::kTimestamp;
  near.int64s = {5, 6};
  ok &= Write(out / "far_time.tsfile", {{"ts", DataType::kTimestamp}}, {{"a", {1, 100'000'000'000'000'000}, {near}}});
  ColumnValues far = near;
  far.int64s = {5, 9'000'000'000'000'000};
  ok &= Write(out / "far_timestamp.tsfile", {{"ts", DataType::kTimestamp}}, {{"a", {1, 2}, {far}}});

  // utf8.tsfile: s STRING and b BLOB at times 10, 20, 30 = "ok", "a\xE6\x97" (a truncated
  // character), "fine"; device id "dev".
  const std::vector<std::string> strings = {"ok", "a\xE6\x97", "fine"};
  ok &= Write(out / "utf8.tsfile", {{"s", DataType::kString}, {"b", DataType::kBlob}},
              {{"dev", {10, 20, 30}, {Binaries(DataType::kString, strings), Binaries(DataType::kBlob, strings)}}});
  // utf8_tag.tsfile: device id "d\xFF" (not UTF-8), s STRING = "x" at time 1.
  ok &= Write(out / "utf8_tag.tsfile", {{"s", DataType::kString}},
              {{std::string("d\xFF"), {1}, {Binaries(DataType::kString, {"x"})}}});
  // utf8_name.tsfile: a FIELD column named "s\xFF" (not UTF-8).
  ok &= Write(out / "utf8_name.tsfile", {{std::string("s\xFF"), DataType::kString}},
              {{"dev", {1}, {Binaries(DataType::kString, {"x"})}}});

  // tags.tsfile: devices (TAG id) "zeta", "alpha", "mid" with rows at 1, 2, 3 in that order of
  // writing (the index sorts them), v INT32 = 1 each.
  ok &= Write(out / "tags.tsfile", {{"v", DataType::kInt32}},
              {{"zeta", {1}, {Int32s({1})}}, {"alpha", {2}, {Int32s({1})}}, {"mid", {3}, {Int32s({1})}}});

  // nulls.tsfile: devices "a" (times 1-3) and "b" (times 101-103). n INT32 and f BOOLEAN are
  // present in every row of "a"; in "b", n is null at 102 and f is null at 101-103 (b has no f
  // series). m INT32 is present everywhere.
  ok &= Write(out / "nulls.tsfile", {{"n", DataType::kInt32}, {"f", DataType::kBoolean}, {"m", DataType::kInt32}},
              {{"a", {1, 2, 3}, {Int32s({1, 2, 3}), Booleans({1, 0, 1}), Int32s({7, 8, 9})}},
               {"b", {101, 102, 103}, {Int32s({4, 0, 6}, {1, 0, 1}), Booleans({0, 0, 0}, {0, 0, 0}), Int32s({1, 2, 3})}}});

  // three_pages.tsfile: v INT64 = 7 at times 5000000000000 + r for r < 300, uncompressed, 100
  // rows a page (so a test can find a page's TS_2DIFF time header, big-endian, and shift it).
  std::vector<int64_t> times(300);
  for (size_t r = 0; r < times.size(); ++r) times[r] = 5'000'000'000'000 + static_cast<int64_t>(r);
  tsread::TableWriterOptions uncompressed;
  uncompressed.compression = tsread::Compression::kUncompressed;
  uncompressed.max_points_per_page = 100;
  ok &= Write(out / "three_pages.tsfile", {{"v", DataType::kInt64}},
              {{"d", times, {Int64s(std::vector<int64_t>(times.size(), 7))}}}, uncompressed);
  return ok ? 0 : 1;
}
